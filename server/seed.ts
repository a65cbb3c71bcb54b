/**
 * The demo catalogue: enough organisers, events and ticket types that every basket rule of the
 * checkout can be met by clicking around. `seed(db)` returns the ids tests need.
 */
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Database } from './db/index.ts';
import * as t from './db/schema.ts';
import { thumbnail } from './thumbnails.ts';
import { hashToken } from './domain/giftAid.ts';
import { indexedAddresses, searchTextOf } from './domain/addressIndexData.ts';
import { COUNTRY_UK } from '../contract/index.ts';
import { seedSeatedEvent } from './seedSeats.ts';

/** The demo charity's Gift Aid download token; a real charity's is random and kept only as a hash. */
export const DEMO_GIFT_AID_TOKEN = 'harbour-lights-gift-aid-demo-token';

const DAY = 86_400_000;

/** A date `days` ahead of `now` at a given UK wall-clock hour (kept simple: UTC). */
function ahead(now: Date, days: number, hour: number, minute = 0): Date {
  const d = new Date(now.getTime() + days * DAY);
  d.setUTCHours(hour, minute, 0, 0);
  return d;
}

export async function seed(db: Database, now = new Date()) {
  return db.transaction(async (tx) => {
    const [charity] = await tx
      .insert(t.charities)
      .values({
        name: 'Harbour Lights Trust',
        logo: thumbnail('HLT', '#0e7490', '#155e75', 'waves'),
        descriptionHtml:
          '<p>Harbour Lights Trust keeps Bristol’s historic waterfront open to everyone, running free music and heritage days all year round.</p>',
        donationCheckoutTitle: 'Would you like to support Harbour Lights Trust?',
        donationOptions: [300, 500, 1000, 2500],
        baseFee: 20,
        bookingFeeBp: 150,
        bookingFeeIncludesVat: true,
        bookingFeeVatBp: 2000,
        bookingFeeCap: 500,
      })
      .returning();
    // The charity downloads its Gift Aid declarations with this token (README, demo section).
    await tx
      .insert(t.charityDownloadTokens)
      .values({ charityId: charity!.id, tokenHash: hashToken(DEMO_GIFT_AID_TOKEN) });

    const org = async (v: typeof t.organisers.$inferInsert) =>
      (await tx.insert(t.organisers).values(v).returning())[0]!;
    const riverside = await org({
      slug: 'riverside-arts',
      name: 'Riverside Arts Collective',
      description: 'Live music and outdoor culture on Bristol’s harbourside since 2009.',
      paymentProvider: 'stripe',
      charityId: charity!.id,
      marketingSignupMessage: 'Hear about new Riverside Arts shows first',
    });
    const peak = await org({
      slug: 'peak-trail-events',
      name: 'Peak Trail Events',
      description: 'Friendly trail races across the Peak District.',
      paymentProvider: 'stripe',
      customRefundPolicy:
        'Entries can be transferred to another runner until 14 days before race day. Refunds are given only if the race is cancelled.',
      marketingSignupMessage: 'Get race news from Peak Trail Events',
    });
    const lantern = await org({
      slug: 'lantern-comedy',
      name: 'The Lantern Comedy Club',
      description: 'Stand-up every week in the Northern Quarter, Manchester.',
      paymentProvider: 'stripe',
      marketingSignupMessage: 'Get the Lantern line-up every Monday',
    });
    const popup = await org({
      slug: 'moonlight-screenings',
      name: 'Moonlight Screenings',
      description: 'Open-air cinema in parks and gardens.',
      isSaas: true,
      paymentProvider: null,
    });
    const ashcombe = await org({
      slug: 'ashcombe-estate',
      name: 'Ashcombe Estate',
      description: 'Gardens, trails and seasonal events in the Cotswolds.',
      paymentProvider: 'stripe',
      contactEmail: 'visits@ashcombe-estate.example',
    });
    const docklands = await org({
      slug: 'docklands-food',
      name: 'Docklands Food Festivals',
      description: 'Street food and producers’ markets on the Dublin quays.',
      paymentProvider: 'stripe',
    });

    const playhouse = await org({
      slug: 'harbour-playhouse',
      name: 'Harbour Playhouse',
      description: 'A 176-seat theatre on Bristol’s harbourside: drama, comedy and music, every seat chosen by you.',
      paymentProvider: 'stripe',
    });

    const pool = async (name: string, capacity: number, sold = 0) =>
      (await tx.insert(t.capacityPools).values({ name, capacity, sold }).returning())[0]!;
    const event = async (v: typeof t.events.$inferInsert) => (await tx.insert(t.events).values(v).returning())[0]!;
    const date = async (eventId: number, startsAt: Date, capacity: number, name: string) => {
      const p = await pool(name, capacity);
      return (await tx.insert(t.eventDates).values({ eventId, startsAt, poolId: p.id }).returning())[0]!;
    };
    let order = 0;
    const ticket = async (v: Omit<typeof t.ticketTypes.$inferInsert, 'sortOrder'>) =>
      (
        await tx
          .insert(t.ticketTypes)
          .values({ ...v, sortOrder: order++ })
          .returning()
      )[0]!;

    /* Riverside Arts: the charity organiser, refund protection, an offer, a per-order cap. */
    const jazz = await event({
      organiserId: riverside.id,
      title: 'Summer Jazz on the Quay',
      description: 'Three stages of jazz, soul and swing along the water, with food stalls from local kitchens.',
      currency: 'GBP',
      venueName: 'Harbourside Amphitheatre',
      venueAddress: 'Canons Way, Bristol BS1 5UH',
      city: 'Bristol',
      thumbnail: thumbnail('Jazz on the Quay', '#f59e0b', '#b45309', 'waves'),
      rewardText:
        'Share Summer Jazz on the Quay: for every friend who books with your link, you get 10% off your next Riverside Arts ticket.',
      rewardShortText: 'get 10% off your next ticket',
      rewardDiscount: 1000,
    });
    const jazzDate = await date(jazz.id, ahead(now, 45, 17, 30), 300, 'Summer Jazz on the Quay: capacity');
    const jazzGeneral = await ticket({
      eventDateId: jazzDate.id,
      name: 'General admission',
      price: 2250,
      bookingFee: 150,
      offerBuyN: 3,
    });
    const jazzTable = await ticket({
      eventDateId: jazzDate.id,
      name: 'Riverside table seat',
      price: 4500,
      bookingFee: 250,
      maxCanReserve: 4,
    });
    const earlyBirdPool = await pool('Summer Jazz: early bird allocation', 40, 40);
    const jazzEarly = await ticket({
      eventDateId: jazzDate.id,
      name: 'Early bird',
      price: 1800,
      bookingFee: 120,
      poolId: earlyBirdPool.id,
    });
    const jazzPatron = await ticket({
      eventDateId: jazzDate.id,
      name: 'Patron package',
      price: 12_000,
      bookingFee: 0,
      canUpdateQuantity: false,
      maxCanReserve: 1,
    });

    /* Peak Trail Events: custom refund policy, absorbed fees, a required ticket, not coverable. */
    const trail = await event({
      organiserId: peak.id,
      title: 'Castleton Trail Run',
      description: 'Limestone dales, a ridge-line finish and cake at the end. 10K and half marathon routes.',
      currency: 'GBP',
      venueName: 'Castleton Village Hall',
      venueAddress: 'Buxton Road, Castleton, Hope Valley S33 8WN',
      city: 'Castleton',
      thumbnail: thumbnail('Trail Run', '#16a34a', '#14532d', 'hills'),
      refundProtection: false,
    });
    const trailDate = await date(trail.id, ahead(now, 60, 9), 400, 'Castleton Trail Run: start pens');
    const trail10k = await ticket({
      eventDateId: trailDate.id,
      name: '10K entry',
      price: 2800,
      bookingFee: 200,
      absorbFee: true,
    });
    const trailHalf = await ticket({
      eventDateId: trailDate.id,
      name: 'Half marathon entry',
      price: 3800,
      bookingFee: 250,
      absorbFee: true,
    });
    const parkingPool = await pool('Castleton Trail Run: car park', 80);
    const trailParking = await ticket({
      eventDateId: trailDate.id,
      name: 'Parking permit',
      price: 600,
      bookingFee: 50,
      absorbFee: true,
      nonRefundable: true,
      poolId: parkingPool.id,
      requiredTickets: [{ ids: [trail10k.id, trailHalf.id], title: '10K or half marathon entry' }],
    });

    /* The Lantern: several upcoming shows, a minimum per customer, a hidden booking fee. */
    const comedyEvents = [];
    let cabaretId = 0;
    const comedySeats: number[] = [];
    for (const [i, title, blurb] of [
      [7, 'Friday Late Show', 'Four headliners, one compère and a very late bar.'],
      [14, 'New Acts Night', 'Ten fresh comics, five minutes each. You decide who comes back.'],
      [21, 'Improv Jam', 'No scripts, no safety net: scenes built from your suggestions.'],
    ] as const) {
      const e = await event({
        organiserId: lantern.id,
        title: `The Lantern: ${title}`,
        description: blurb,
        currency: 'GBP',
        venueName: 'The Lantern Comedy Club',
        venueAddress: '41 Tib Street, Manchester M4 1LS',
        city: 'Manchester',
        thumbnail: thumbnail(title, '#7c3aed', '#312e81', 'stars'),
        hideBookingFee: i === 14,
        // The improv night is streamed, and its organiser writes to every buyer once they have paid.
        ...(i === 21
          ? {
              accessOnline: 'https://live.lanterncomedy.example/improv-jam',
              afterSaleMessage:
                'Doors open at 7:30 pm and the show starts at 8. Bring a suggestion or two: the best ones end up on stage. The stream link also works for ticket holders who cannot make it in person.',
            }
          : {}),
      });
      comedyEvents.push(e);
      const d = await date(e.id, ahead(now, i, 20), 120, `${title}: room`);
      comedySeats.push(
        (await ticket({ eventDateId: d.id, name: 'Standard seat', price: i === 14 ? 800 : 1500, bookingFee: 100 })).id,
      );
      if (i === 7) {
        cabaretId = (
          await ticket({
            eventDateId: d.id,
            name: 'Cabaret table (pairs)',
            price: 1800,
            bookingFee: 100,
            minPerCustomer: 2,
          })
        ).id;
      }
    }
    const comedyFriday = comedyEvents[0]!;

    /* Ashcombe: one event, two timeslots with their own capacity. */
    const lanterns = await event({
      organiserId: ashcombe.id,
      title: 'Ashcombe Winter Lantern Trail',
      description: 'A mile-long walk through the arboretum lit by hundreds of handmade lanterns.',
      currency: 'GBP',
      venueName: 'Ashcombe Arboretum',
      venueAddress: 'Ashcombe Lane, Tetbury GL8 8QS',
      city: 'Tetbury',
      thumbnail: thumbnail('Lantern Trail', '#0f172a', '#9333ea', 'stars'),
      timeslotWarning:
        'Your tickets are for different entry times. Everyone in your group must arrive at the time on their own ticket.',
    });
    const early = await date(lanterns.id, ahead(now, 30, 17), 60, 'Lantern Trail 5pm entry');
    const late = await date(lanterns.id, ahead(now, 30, 19), 60, 'Lantern Trail 7pm entry');
    const lanternEarlyAdult = await ticket({
      eventDateId: early.id,
      name: 'Adult (5pm entry)',
      price: 1650,
      bookingFee: 110,
    });
    const lanternEarlyChild = await ticket({
      eventDateId: early.id,
      name: 'Child (5pm entry)',
      price: 950,
      bookingFee: 70,
    });
    const lanternLateAdult = await ticket({
      eventDateId: late.id,
      name: 'Adult (7pm entry)',
      price: 1650,
      bookingFee: 110,
    });
    const lanternLateChild = await ticket({
      eventDateId: late.id,
      name: 'Child (7pm entry)',
      price: 950,
      bookingFee: 70,
    });

    /* Moonlight Screenings: a SaaS organiser that has not connected payments. */
    const cinema = await event({
      organiserId: popup.id,
      title: 'Open-Air Cinema: Jaws',
      description: 'Bring a blanket. Deckchairs and popcorn available on the night.',
      currency: 'GBP',
      venueName: 'Clifton Downs',
      venueAddress: 'Stoke Road, Bristol BS9 1FG',
      city: 'Bristol',
      thumbnail: thumbnail('Open-Air Cinema', '#1d4ed8', '#0f172a', 'sun'),
    });
    const cinemaDate = await date(cinema.id, ahead(now, 20, 20, 30), 250, 'Open-Air Cinema: field');
    const cinemaGa = await ticket({ eventDateId: cinemaDate.id, name: 'Blanket spot', price: 1200, bookingFee: 90 });

    /* Ashcombe Estate: a free event, so a basket with a zero total exists (claimed, not paid). */
    const openDay = await event({
      organiserId: ashcombe.id,
      title: 'Community Open Day',
      description: 'The gardens, the walled kitchen garden and the woodland trail open to everyone, free of charge.',
      currency: 'GBP',
      venueName: 'Ashcombe Estate',
      venueAddress: 'Ashcombe, Cirencester GL7 5HX',
      city: 'Cirencester',
      thumbnail: thumbnail('Open Day', '#16a34a', '#14532d', 'sun'),
      accessOnline: 'https://live.ashcombe-estate.example/open-day',
      rewardText:
        'Bring your friends to the Open Day: for every friend who books with your link, you get a free cream tea in the walled garden café.',
      rewardShortText: 'get a free cream tea',
    });
    const openDayDate = await date(openDay.id, ahead(now, 25, 10), 400, 'Community Open Day: grounds');
    const freeEntry = await ticket({ eventDateId: openDayDate.id, name: 'Free entry', price: 0, bookingFee: 0 });

    /*
     * Ashcombe's treetop ropes course: an activity whose organiser asks every participant to read
     * its terms (the waiver step, and the page at the sale's waiver link). The taster is free.
     */
    const ropes = await event({
      organiserId: ashcombe.id,
      title: 'Ashcombe Treetop Ropes Course',
      description:
        'Rope bridges, cargo nets and a 200-metre zip line through the oak canopy, with instructors all the way.',
      currency: 'GBP',
      venueName: 'Ashcombe Estate: Oak Wood',
      venueAddress: 'Ashcombe, Cirencester GL7 5HX',
      city: 'Cirencester',
      thumbnail: thumbnail('Treetop Ropes', '#15803d', '#422006', 'hills'),
      refundProtection: false,
      waiverText: [
        'Treetop climbing is an adventure activity with risks of injury. By taking part you accept those risks and agree to follow the instructors’ safety briefing and directions at all times.',
        'Participants must be at least 8 years old and 1.2 m tall, weigh no more than 120 kg, and wear closed-toe shoes. Under-16s must be accompanied by a climbing adult.',
        'Do not take part if you are pregnant, have a heart condition, or have had recent surgery, and tell the instructors about any condition that may affect your safety.',
        'You must wear the harness and helmet you are given, correctly fitted and checked by an instructor, and stay clipped to the safety line while off the ground.',
        'Ashcombe Estate may refuse or end a session, without refund, for anyone who ignores the safety rules or appears to be under the influence of alcohol or drugs.',
      ].join('\n\n'),
    });
    const ropesDate = await date(ropes.id, ahead(now, 28, 10), 60, 'Treetop Ropes Course: morning session');
    const ropesTaster = await ticket({ eventDateId: ropesDate.id, name: 'Taster climb', price: 0, bookingFee: 0 });
    const ropesFull = await ticket({ eventDateId: ropesDate.id, name: 'Full course', price: 2400, bookingFee: 150 });

    /* Peak Trail Events asks every buyer for a contact number at payment (race-day contact). */
    await tx.insert(t.organiserPaymentSettings).values({ organiserId: peak.id, requirePhoneNumber: true });
    /* Docklands Food Festivals sells by express checkout: a guest gives name and e-mail at payment. */
    await tx.insert(t.organiserPaymentSettings).values({ organiserId: docklands.id, expressCheckout: true });

    /* Docklands: the one event sold in euros. */
    const food = await event({
      organiserId: docklands.id,
      title: 'Docklands Street Food Weekend',
      description: 'Sixty traders, live cooking and a craft beer tent on Sir John Rogerson’s Quay.',
      currency: 'EUR',
      venueName: 'Sir John Rogerson’s Quay',
      venueAddress: 'Sir John Rogerson’s Quay, Dublin 2, D02 Y049',
      city: 'Dublin',
      thumbnail: thumbnail('Street Food', '#dc2626', '#7c2d12', 'sun'),
    });
    const foodDate = await date(food.id, ahead(now, 35, 11), 1000, 'Docklands Street Food: site');
    const foodDayPass = await ticket({ eventDateId: foodDate.id, name: 'Day pass', price: 1800, bookingFee: 120 });

    /* Payment plans: Meadowlands Festival can be paid in 2 or 3 monthly instalments (option '1' is paying in full). */
    const meadow = await org({
      slug: 'meadowlands-festivals',
      name: 'Meadowlands Festivals',
      description: 'A three-day music and arts festival in the Somerset levels.',
      paymentProvider: 'stripe',
      contactEmail: 'bookings@meadowlands.example',
      marketingSignupMessage: 'Be first to hear the Meadowlands line-up',
    });
    const festival = await event({
      organiserId: meadow.id,
      title: 'Meadowlands Festival',
      description:
        'Three days of bands, DJs, theatre and food in the fields by the river. Spread the cost with a payment plan.',
      currency: 'GBP',
      venueName: 'Meadowlands Farm',
      venueAddress: 'Moor Lane, Glastonbury BA6 8JR',
      city: 'Glastonbury',
      thumbnail: thumbnail('Meadowlands', '#65a30d', '#166534', 'sun'),
    });
    const festivalDate = await date(festival.id, ahead(now, 150, 12), 2000, 'Meadowlands Festival: site');
    const festivalWeekend = await ticket({
      eventDateId: festivalDate.id,
      name: 'Weekend camping ticket',
      price: 18_000,
      bookingFee: 900,
    });
    const festivalDay = await ticket({
      eventDateId: festivalDate.id,
      name: 'Day ticket (Saturday)',
      price: 7500,
      bookingFee: 400,
    });
    await tx.insert(t.eventPaymentPlans).values([
      { eventId: festival.id, option: '1', label: 'Pay in full', instalments: 1, intervalDays: 0 },
      { eventId: festival.id, option: '2', label: '2 monthly payments', instalments: 2, intervalDays: 30 },
      { eventId: festival.id, option: '3', label: '3 monthly payments', instalments: 3, intervalDays: 30 },
    ]);

    /* Square: Harbour Street Theatre takes its payments through Square, so Square is chosen for its baskets. */
    const harbourTheatre = await org({
      slug: 'harbour-street-theatre',
      name: 'Harbour Street Theatre',
      description: 'A small playhouse on Plymouth’s Barbican.',
      paymentProvider: 'square',
      contactEmail: 'box-office@harbourstreet.example',
    });
    const tempest = await event({
      organiserId: harbourTheatre.id,
      title: 'The Tempest on the Barbican',
      description: 'Shakespeare’s island comedy, played in the round in a converted fish market.',
      currency: 'GBP',
      venueName: 'Harbour Street Theatre',
      venueAddress: '12 Southside Street, Plymouth PL1 2LD',
      city: 'Plymouth',
      thumbnail: thumbnail('The Tempest', '#1d4ed8', '#0f172a', 'waves'),
    });
    const tempestDate = await date(tempest.id, ahead(now, 25, 19, 30), 180, 'The Tempest on the Barbican: house');
    const tempestStalls = await ticket({ eventDateId: tempestDate.id, name: 'Stalls', price: 2400, bookingFee: 150 });

    /* Printed tickets posted to the buyer: a basket with this event needs a delivery address. */
    const printed = await event({
      organiserId: lantern.id,
      title: 'Lantern Comedy Gala Night',
      description: 'The club’s annual gala at the Albert Hall, with souvenir printed tickets posted to every guest.',
      currency: 'GBP',
      venueName: 'Albert Hall Manchester',
      venueAddress: '27 Peter Street, Manchester M2 5QR',
      city: 'Manchester',
      thumbnail: thumbnail('Gala Night', '#0f766e', '#1e3a8a', 'ticket'),
    });
    const printedDate = await date(printed.id, ahead(now, 60, 19, 30), 400, 'Lantern Comedy Gala Night: hall');
    const printedStalls = await ticket({
      eventDateId: printedDate.id,
      name: 'Stalls (posted ticket)',
      price: 3500,
      bookingFee: 200,
    });
    await tx.insert(t.postalDeliveryEvents).values({ eventId: printed.id });

    const [riversideVoucher] = await tx
      .insert(t.giftVouchers)
      .values({
        organiserId: riverside.id,
        name: 'Riverside Arts gift voucher',
        currency: 'GBP',
        minValue: 1000,
        maxValue: 20_000,
        suggestedValues: [1000, 2500, 5000],
        validityMonths: 12,
        thumbnail: thumbnail('Gift voucher', '#db2777', '#9d174d', 'ticket'),
      })
      .returning();
    const [lanternVoucher] = await tx
      .insert(t.giftVouchers)
      .values({
        organiserId: lantern.id,
        name: 'Lantern Comedy gift card',
        currency: 'GBP',
        minValue: 2000,
        maxValue: 10_000,
        suggestedValues: [2000, 4000],
        validityMonths: 18,
        thumbnail: thumbnail('Gift card', '#7c3aed', '#db2777', 'ticket'),
      })
      .returning();

    const code = async (v: typeof t.discountCodes.$inferInsert) =>
      (await tx.insert(t.discountCodes).values(v).returning())[0]!;
    const summer10 = await code({ code: 'SUMMER10', kind: 'percent', amount: 1000, organiserId: riverside.id });
    const fiveOff = await code({ code: 'FIVEOFF', kind: 'fixed', amount: 500, eventId: trail.id });
    const laugh20 = await code({
      code: 'LAUGH20',
      kind: 'percent',
      amount: 2000,
      organiserId: lantern.id,
      usageLimit: 50,
    });
    const spring = await code({ code: 'SPRING25', kind: 'percent', amount: 2500, usageLimit: 100, used: 100 });

    const questions = await seedQuestions(tx, {
      ashcombe: ashcombe.id,
      improvJam: comedyEvents[2]!.id,
      lanternAdults: [lanternEarlyAdult.id, lanternLateAdult.id],
      lanternChildren: [lanternEarlyChild.id, lanternLateChild.id],
      improvSeat: comedySeats[2]!,
    });

    /* Harbour Folk Club takes instant bank transfers (TrueLayer, or the sandbox bank), so the payment step offers both. */
    const folkClub = await org({
      slug: 'harbour-folk-club',
      name: 'Harbour Folk Club',
      description: 'Acoustic sessions in the back room of the Old Ropewalk, Bristol.',
      paymentProvider: 'truelayer',
      // Its analytics, fed once a buyer accepts analytics cookies; in demo mode they go to this
      // server's stand-in for Google's tag and Meta's pixel (/dev/analytics/), not to Google or Meta.
      gaMeasurementId: 'G-HFOLK00001',
      gaConversionId: 'AW-100000001/folk-sale',
      fbPixelId: '100000000000001',
      gaUaProperties: ['UA-100000-1'],
    });
    // Each organiser with a provider has its own (demo) account there: the checkout's opoa.merchant_id.
    await tx.execute(
      sql`UPDATE organisers SET payment_merchant_id = 'acct_demo_' || replace(slug, '-', '_') WHERE payment_provider IS NOT NULL`,
    );
    const folk = await event({
      organiserId: folkClub.id,
      title: 'Folk at the Ropewalk',
      description: 'Two sets of songs from both sides of the Severn, and a singaround to close.',
      currency: 'GBP',
      venueName: 'The Old Ropewalk',
      venueAddress: '1 Prince Street, Bristol BS1 4QH',
      city: 'Bristol',
      thumbnail: thumbnail('Folk Night', '#0e7490', '#164e63', 'waves'),
    });
    const folkDate = await date(folk.id, ahead(now, 16, 19, 30), 80, 'Folk at the Ropewalk: back room');
    const folkSeat = await ticket({ eventDateId: folkDate.id, name: 'Session seat', price: 1400, bookingFee: 100 });

    const [amelia] = await tx
      .insert(t.users)
      .values({
        email: 'amelia.hughes@example.co.uk',
        firstName: 'Amelia',
        lastName: 'Hughes',
        subscribed: true,
        isEventSubscribed: true,
        isDarkMode: true,
        emailProvenAt: now,
      })
      .returning();
    const [tom] = await tx
      .insert(t.users)
      .values({
        email: 'tom.okafor@example.com',
        firstName: 'Tom',
        lastName: 'Okafor',
        subscribed: false,
        emailProvenAt: now,
      })
      .returning();

    /*
     * Harbour Nights Promotions runs demo mode's queued on-sales (server/domain/waitingRoom/demo.ts
     * adds their events at each start); Olivia Organiser has its organiser's role, so the
     * organiser's console (/organiser/) shows her those dates.
     */
    const harbourNights = await org({
      slug: 'harbour-nights',
      name: 'Harbour Nights Promotions',
      description: 'Big nights on the harbour, sold through a fair queue.',
      paymentProvider: 'stripe',
    });
    const [olivia] = await tx
      .insert(t.users)
      .values({
        email: 'olivia.organiser@example.com',
        firstName: 'Olivia',
        lastName: 'Organiser',
        viewType: 'organiser',
        emailProvenAt: now,
      })
      .returning();
    await tx.insert(t.organiserMembers).values({ organiserId: harbourNights.id, userId: olivia!.id, createdAt: now });

    /*
     * Harbour Folk Club's box office: two members of its team, who sell at the door into the club's
     * own payment account; the payment step names the team to them (get_opoa_users).
     */
    const boxOffice = await tx
      .insert(t.users)
      .values([
        {
          email: 'gareth.price@example.org',
          firstName: 'Gareth',
          lastName: 'Price',
          viewType: 'organiser',
          emailProvenAt: now,
        },
        {
          email: 'sian.morgan@example.org',
          firstName: 'Siân',
          lastName: 'Morgan',
          viewType: 'organiser',
          emailProvenAt: now,
        },
      ])
      .returning();
    await tx
      .insert(t.organiserMembers)
      .values(boxOffice.map((u) => ({ organiserId: folkClub.id, userId: u.id, createdAt: now })));

    // A saved address for the signed-in demo buyer, and the local address finder's index.
    await tx.insert(t.userAddresses).values({
      userId: amelia!.id,
      firstName: 'Amelia',
      lastName: 'Hughes',
      address1: '14 Quay Street',
      address2: '',
      town: 'Bristol',
      postcode: 'BS1 4RN',
      country: COUNTRY_UK,
      createdAt: now,
    });
    await tx.insert(t.addressIndex).values(indexedAddresses().map((a) => ({ ...a, search: searchTextOf(a) })));

    const seated = await seedSeatedEvent(tx, {
      organiserId: playhouse.id,
      startsAt: ahead(now, 30, 19, 30),
      thumbnail: thumbnail('Twelfth Night', '#be123c', '#4c0519', 'stars'),
    });

    return {
      seated,
      organisers: {
        riverside: riverside.id,
        peak: peak.id,
        lantern: lantern.id,
        popup: popup.id,
        ashcombe: ashcombe.id,
        docklands: docklands.id,
        folkClub: folkClub.id,
      },
      events: {
        printed: printed.id,
        jazz: jazz.id,
        trail: trail.id,
        comedyFriday: comedyFriday.id,
        lanterns: lanterns.id,
        cinema: cinema.id,
        food: food.id,
        openDay: openDay.id,
        folk: folk.id,
        ropes: ropes.id,
      },
      dates: { jazz: jazzDate.id, trail: trailDate.id, lanternEarly: early.id, lanternLate: late.id },
      pools: { jazz: jazzDate.poolId, earlyBird: earlyBirdPool.id, parking: parkingPool.id },
      tickets: {
        jazzGeneral: jazzGeneral.id,
        jazzTable: jazzTable.id,
        jazzEarly: jazzEarly.id,
        jazzPatron: jazzPatron.id,
        trail10k: trail10k.id,
        trailHalf: trailHalf.id,
        trailParking: trailParking.id,
        lanternEarlyAdult: lanternEarlyAdult.id,
        lanternLateAdult: lanternLateAdult.id,
        lanternEarlyChild: lanternEarlyChild.id,
        lanternLateChild: lanternLateChild.id,
        cinema: cinemaGa.id,
        comedyCabaret: cabaretId,
        foodDayPass: foodDayPass.id,
        freeEntry: freeEntry.id,
        ropesTaster: ropesTaster.id,
        ropesFull: ropesFull.id,
        printedStalls: printedStalls.id,
        folkSeat: folkSeat.id,
      },
      vouchers: { riverside: riversideVoucher!.id, lantern: lanternVoucher!.id },
      codes: { summer10: summer10.code, fiveOff: fiveOff.code, laugh20: laugh20.code, exhausted: spring.code },
      users: {
        subscribedDark: amelia!,
        notSubscribed: tom!,
        organiser: olivia!,
        boxOffice: boxOffice[0]!,
        boxOfficeToo: boxOffice[1]!,
      },
      harbourNights: harbourNights.id,
      charity: { id: charity!.id, downloadToken: DEMO_GIFT_AID_TOKEN },
      questions,
      plans: { organiser: meadow.id, event: festival.id, weekend: festivalWeekend.id, day: festivalDay.id },
      square: { organiser: harbourTheatre.id, event: tempest.id, stalls: tempestStalls.id },
    };
  });
}

export type Demo = Awaited<ReturnType<typeof seed>>;

/**
 * Ticket questions of every kind, before and after payment, per ticket and once per checkout:
 * on the Ashcombe Lantern Trail (with its organiser's intro for the Basket step), and one
 * once-per-checkout question on the Improv Jam (with the event's own intro).
 */
async function seedQuestions(
  tx: Pick<Database, 'insert'>,
  ids: { ashcombe: number; improvJam: number; lanternAdults: number[]; lanternChildren: number[]; improvSeat: number },
) {
  const lantern = [...ids.lanternAdults, ...ids.lanternChildren];
  type NewQuestion = Omit<typeof t.ticketQuestions.$inferInsert, 'ticketTypeId'>;
  let order = 0;
  const ask = async (ticketTypeIds: number[], q: NewQuestion) => {
    const sortOrder = order++;
    const rows = await tx
      .insert(t.ticketQuestions)
      .values(ticketTypeIds.map((ticketTypeId) => ({ ...q, ticketTypeId, sortOrder })))
      .returning();
    return rows.map((r) => r.id);
  };
  await tx.insert(t.questionIntros).values([
    {
      organiserId: ids.ashcombe,
      text: 'Ashcombe’s rangers look after every group on the trail. These answers go to Ashcombe Estate only, and help them plan the evening.',
    },
    {
      eventId: ids.improvJam,
      text: 'Tonight’s scenes are built from your suggestions. Leave one for the cast here: the best are read out on stage.',
    },
  ]);
  const before = {
    name: await ask(lantern, {
      question: 'Name of the person using this ticket',
      type: 'text',
      mandatory: true,
      beforeOrAfter: 'before',
    }),
    stepFree: await ask(lantern, {
      question: 'This person needs step-free paths',
      type: 'checkbox',
      beforeOrAfter: 'before',
    }),
    lanternChoice: await ask(ids.lanternAdults, {
      question: 'Which lantern would you like to carry?',
      type: 'dropdown',
      mandatory: true,
      options: ['Paper star', 'Crescent moon', 'Fox', 'No lantern, thanks'],
      beforeOrAfter: 'before',
    }),
    heardFrom: await ask(lantern, {
      question: 'How did you hear about the Lantern Trail?',
      type: 'dropdown',
      oncePerCheckout: true,
      osqId: 101,
      options: ['Friends or family', 'Social media', 'Newspaper or radio', 'We came last year'],
      beforeOrAfter: 'before',
    }),
    paths: await ask(lantern, {
      question: 'We will keep to the lit paths and follow the rangers’ directions',
      type: 'checkbox',
      mandatory: true,
      oncePerCheckout: true,
      osqId: 102,
      beforeOrAfter: 'before',
    }),
    suggestion: await ask([ids.improvSeat], {
      question: 'Your suggestion for the cast (a place, a job or a secret)',
      type: 'text',
      oncePerCheckout: true,
      beforeOrAfter: 'before',
    }),
  };
  const after = {
    firstAid: await ask(lantern, {
      question: 'Anything our first-aid team should know about this person?',
      type: 'text',
      beforeOrAfter: 'after',
    }),
    arrival: await ask(lantern, {
      question: 'Where will you arrive from?',
      type: 'dropdown',
      mandatory: true,
      oncePerCheckout: true,
      osqId: 103,
      options: ['Estate car park', 'Tetbury town centre', 'Kemble station shuttle'],
      beforeOrAfter: 'after',
    }),
    photo: await ask(lantern, {
      question: 'Send us one photo of our group from the trail',
      type: 'checkbox',
      oncePerCheckout: true,
      osqId: 104,
      beforeOrAfter: 'after',
    }),
  };
  return { before, after, improvSeat: ids.improvSeat };
}

/** Seeds only an empty catalogue, so restarts keep what people bought. */
export async function seedIfEmpty(db: Database): Promise<boolean> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(t.organisers);
  if ((row?.n ?? 0) > 0) return false;
  await seed(db);
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { parseConfig } = await import('./config.ts');
  const { openDatabase } = await import('./db/index.ts');
  const config = parseConfig(process.env);
  let seeded = false;
  const { close } = await openDatabase(config, async (db) => {
    seeded = await seedIfEmpty(db);
  });
  console.log(seeded ? 'Seeded the demo catalogue.' : 'The catalogue already has organisers; nothing to seed.');
  await close();
}
