/**
 * How the tables join, for Drizzle's relational queries (`db.query.sales.findFirst({ with: … })`):
 * an event's dates and their ticket types, and a sale's lines, vouchers, holds, payments, tickets
 * and seats. A relation needs no foreign key: payments and tickets keep none to their sale, so
 * that they outlive its purge, and still join to it here.
 */
import { relations } from 'drizzle-orm';
import { users } from './accounts.ts';
import {
  capacityPools,
  charities,
  discountCodes,
  eventDates,
  eventPaymentPlans,
  events,
  giftVouchers,
  organisers,
  ticketTypes,
} from './catalogue.ts';
import { tickets } from './delivery.ts';
import { saleDonations } from './donations.ts';
import { instalmentPlans, instalments } from './instalments.ts';
import { paymentRefunds, payments, salePaymentDetails } from './payments.ts';
import { ticketQuestions } from './questions.ts';
import { saleDeliveryAddresses, saleLines, saleVouchers, sales } from './sales.ts';
import { saleSeats, seats } from './seating.ts';
import { holds } from './stock.ts';

export const organisersRelations = relations(organisers, ({ one, many }) => ({
  charity: one(charities, { fields: [organisers.charityId], references: [charities.id] }),
  events: many(events),
  giftVouchers: many(giftVouchers),
}));

export const eventsRelations = relations(events, ({ one, many }) => ({
  organiser: one(organisers, { fields: [events.organiserId], references: [organisers.id] }),
  dates: many(eventDates),
  paymentPlans: many(eventPaymentPlans),
}));

export const eventPaymentPlansRelations = relations(eventPaymentPlans, ({ one }) => ({
  event: one(events, { fields: [eventPaymentPlans.eventId], references: [events.id] }),
}));

export const eventDatesRelations = relations(eventDates, ({ one, many }) => ({
  event: one(events, { fields: [eventDates.eventId], references: [events.id] }),
  pool: one(capacityPools, { fields: [eventDates.poolId], references: [capacityPools.id] }),
  ticketTypes: many(ticketTypes),
  seats: many(seats),
}));

export const ticketTypesRelations = relations(ticketTypes, ({ one, many }) => ({
  eventDate: one(eventDates, { fields: [ticketTypes.eventDateId], references: [eventDates.id] }),
  /** The type's own limit, when it has one; its date's pool always applies. */
  pool: one(capacityPools, { fields: [ticketTypes.poolId], references: [capacityPools.id] }),
  questions: many(ticketQuestions),
}));

export const ticketQuestionsRelations = relations(ticketQuestions, ({ one }) => ({
  ticketType: one(ticketTypes, { fields: [ticketQuestions.ticketTypeId], references: [ticketTypes.id] }),
}));

export const giftVouchersRelations = relations(giftVouchers, ({ one }) => ({
  organiser: one(organisers, { fields: [giftVouchers.organiserId], references: [organisers.id] }),
}));

export const usersRelations = relations(users, ({ many }) => ({
  sales: many(sales),
  tickets: many(tickets),
}));

export const salesRelations = relations(sales, ({ one, many }) => ({
  user: one(users, { fields: [sales.userId], references: [users.id] }),
  discountCode: one(discountCodes, { fields: [sales.discountCodeId], references: [discountCodes.id] }),
  lines: many(saleLines),
  vouchers: many(saleVouchers),
  holds: many(holds),
  seats: many(saleSeats),
  payments: many(payments),
  tickets: many(tickets),
  donation: one(saleDonations),
  paymentDetails: one(salePaymentDetails),
  deliveryAddress: one(saleDeliveryAddresses),
  instalmentPlan: one(instalmentPlans),
}));

export const saleLinesRelations = relations(saleLines, ({ one }) => ({
  sale: one(sales, { fields: [saleLines.saleId], references: [sales.id] }),
  ticketType: one(ticketTypes, { fields: [saleLines.ticketTypeId], references: [ticketTypes.id] }),
}));

export const saleVouchersRelations = relations(saleVouchers, ({ one }) => ({
  sale: one(sales, { fields: [saleVouchers.saleId], references: [sales.id] }),
  giftVoucher: one(giftVouchers, { fields: [saleVouchers.giftVoucherId], references: [giftVouchers.id] }),
}));

export const holdsRelations = relations(holds, ({ one }) => ({
  sale: one(sales, { fields: [holds.saleId], references: [sales.id] }),
  pool: one(capacityPools, { fields: [holds.poolId], references: [capacityPools.id] }),
  ticketType: one(ticketTypes, { fields: [holds.ticketTypeId], references: [ticketTypes.id] }),
}));

export const saleSeatsRelations = relations(saleSeats, ({ one }) => ({
  sale: one(sales, { fields: [saleSeats.saleId], references: [sales.id] }),
  seat: one(seats, { fields: [saleSeats.seatId], references: [seats.id] }),
  ticketType: one(ticketTypes, { fields: [saleSeats.ticketTypeId], references: [ticketTypes.id] }),
}));

export const seatsRelations = relations(seats, ({ one }) => ({
  eventDate: one(eventDates, { fields: [seats.eventDateId], references: [eventDates.id] }),
  ticketType: one(ticketTypes, { fields: [seats.ticketTypeId], references: [ticketTypes.id] }),
}));

export const paymentsRelations = relations(payments, ({ one }) => ({
  sale: one(sales, { fields: [payments.saleId], references: [sales.id] }),
  refund: one(paymentRefunds),
}));

export const paymentRefundsRelations = relations(paymentRefunds, ({ one }) => ({
  payment: one(payments, { fields: [paymentRefunds.paymentId], references: [payments.id] }),
}));

export const ticketsRelations = relations(tickets, ({ one }) => ({
  sale: one(sales, { fields: [tickets.saleId], references: [sales.id] }),
  ticketType: one(ticketTypes, { fields: [tickets.ticketTypeId], references: [ticketTypes.id] }),
  user: one(users, { fields: [tickets.userId], references: [users.id] }),
}));

export const saleDonationsRelations = relations(saleDonations, ({ one }) => ({
  sale: one(sales, { fields: [saleDonations.saleId], references: [sales.id] }),
  charity: one(charities, { fields: [saleDonations.charityId], references: [charities.id] }),
}));

export const salePaymentDetailsRelations = relations(salePaymentDetails, ({ one }) => ({
  sale: one(sales, { fields: [salePaymentDetails.saleId], references: [sales.id] }),
}));

export const saleDeliveryAddressesRelations = relations(saleDeliveryAddresses, ({ one }) => ({
  sale: one(sales, { fields: [saleDeliveryAddresses.saleId], references: [sales.id] }),
}));

export const instalmentPlansRelations = relations(instalmentPlans, ({ one, many }) => ({
  sale: one(sales, { fields: [instalmentPlans.saleId], references: [sales.id] }),
  user: one(users, { fields: [instalmentPlans.userId], references: [users.id] }),
  instalments: many(instalments),
}));

export const instalmentsRelations = relations(instalments, ({ one }) => ({
  plan: one(instalmentPlans, { fields: [instalments.saleId], references: [instalmentPlans.saleId] }),
}));
