/**
 * A charity's Gift Aid declarations as HMRC's Gift Aid schedule (the Charities Online
 * spreadsheet): title, first name, last name, house name or number, postcode, aggregated
 * donations, sponsored event, donation date (DD/MM/YY) and amount.
 *
 * HMRC lets small donations (20 pounds or less) be claimed together as one aggregated row of at
 * most 1,000 pounds without the donors' details, which is why the Gift Aid step asks for an
 * address only from 20. A declaration with a name and address is one row of its own; one without
 * them is aggregated when small enough, and left out otherwise (the donor never identified).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/index.ts';
import {
  charities,
  charityDownloadTokens,
  giftAidDeclarations,
  instalmentPlans,
  saleDonations,
  sales,
  users,
} from '../db/schema.ts';
import { GIFT_AID_ADDRESS_FROM } from '../../contract/index.ts';

/** HMRC's limit on one aggregated row, in pence. */
export const AGGREGATE_LIMIT = 100_000;
export const AGGREGATED_DESCRIPTION = 'One-off small donations';
export const SCHEDULE_COLUMNS = [
  'Title',
  'First name or initial',
  'Last name',
  'House name or number',
  'Postcode',
  'Aggregated donations',
  'Sponsored event',
  'Donation date',
  'Amount',
] as const;

export interface ScheduleRow {
  title: string;
  firstName: string;
  lastName: string;
  house: string;
  postcode: string;
  aggregated: string;
  sponsored: string;
  date: Date;
  /** Pence. */
  amount: number;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The charity a download token belongs to, or null. Only the token's hash is stored. */
export async function charityForToken(
  db: Pick<Executor, 'select'>,
  token: string,
): Promise<{ id: number; name: string } | null> {
  if (token.length < 16 || token.length > 200) return null;
  const hash = hashToken(token);
  const [found] = await db
    .select({ id: charities.id, name: charities.name, tokenHash: charityDownloadTokens.tokenHash })
    .from(charityDownloadTokens)
    .innerJoin(charities, eq(charities.id, charityDownloadTokens.charityId))
    .where(eq(charityDownloadTokens.tokenHash, hash));
  if (!found || !timingSafeEqual(Buffer.from(found.tokenHash), Buffer.from(hash))) return null;
  return { id: found.id, name: found.name };
}

/**
 * HMRC wants the house name or number only: '12' of '12 Harbour Road', 'Flat 3' of
 * 'Flat 3, 8 Quay Street', 'Rose Cottage' of 'Rose Cottage, Mill Lane'.
 */
export function houseNameOrNumber(address1: string): string {
  const first = address1.split(',')[0]!.trim();
  const numbered = /^(\d+[a-zA-Z]?)\b/.exec(first);
  return (numbered ? numbered[1]! : first).slice(0, 40);
}

interface Declaration {
  firstName: string | null;
  lastName: string | null;
  ukBased: boolean;
  address1: string;
  postcode: string;
  amount: number;
  declaredAt: Date;
}

/** The schedule's rows for a list of declarations in date order (a pure function of them). */
export function scheduleRows(declarations: Declaration[]): ScheduleRow[] {
  const rows: ScheduleRow[] = [];
  let aggregate: ScheduleRow | null = null;
  for (const d of declarations) {
    const named = Boolean(d.firstName?.trim() && d.lastName?.trim());
    const addressed = d.address1.trim() !== '' && (!d.ukBased || d.postcode.trim() !== '');
    if (named && addressed) {
      rows.push({
        title: '',
        firstName: d.firstName!.trim().slice(0, 35),
        lastName: d.lastName!.trim().slice(0, 35),
        house: houseNameOrNumber(d.address1),
        // HMRC's mark for a donor who lives outside the UK.
        postcode: d.ukBased ? d.postcode.trim().toUpperCase() : 'X',
        aggregated: '',
        sponsored: '',
        date: d.declaredAt,
        amount: d.amount,
      });
    } else if (d.amount <= GIFT_AID_ADDRESS_FROM) {
      if (!aggregate || aggregate.amount + d.amount > AGGREGATE_LIMIT) {
        aggregate = {
          title: '',
          firstName: '',
          lastName: '',
          house: '',
          postcode: '',
          aggregated: AGGREGATED_DESCRIPTION,
          sponsored: '',
          date: d.declaredAt,
          amount: 0,
        };
        rows.push(aggregate);
      }
      aggregate.amount += d.amount;
      // An aggregated row carries the date of its last donation.
      aggregate.date = d.declaredAt;
    }
  }
  return rows;
}

/**
 * The charity's declarations whose donation was paid with its sale (the reservation it was given
 * in, paid; by a plan, paid in full), in pounds only (Gift Aid is a UK tax relief), dated the day it was paid. The donor's name comes from the declaration, or from the
 * sale's buyer once identified.
 */
export async function giftAidSchedule(db: Pick<Executor, 'select'>, charityId: number): Promise<ScheduleRow[]> {
  const found = await db
    .select({
      firstName: sql<string | null>`coalesce(${giftAidDeclarations.firstName}, ${users.firstName})`,
      lastName: sql<string | null>`coalesce(${giftAidDeclarations.lastName}, ${users.lastName})`,
      ukBased: giftAidDeclarations.ukBased,
      address1: giftAidDeclarations.address1,
      postcode: giftAidDeclarations.postcode,
      amount: giftAidDeclarations.amount,
      // The donation date is the day it was paid: a plan's, the day its final instalment was.
      declaredAt: sql<Date>`coalesce(${instalmentPlans.completedAt}, ${sales.paidAt})`.mapWith(sales.paidAt),
    })
    .from(giftAidDeclarations)
    .innerJoin(saleDonations, eq(saleDonations.saleId, giftAidDeclarations.saleId))
    .innerJoin(
      sales,
      and(
        eq(sales.id, saleDonations.saleId),
        eq(sales.reference, saleDonations.saleReference),
        isNotNull(sales.paidAt),
      ),
    )
    .leftJoin(instalmentPlans, eq(instalmentPlans.saleId, sales.id))
    .leftJoin(users, eq(users.id, sql`coalesce(${giftAidDeclarations.userId}, ${sales.userId})`))
    // A plan's donation is received only when the plan is paid in full; a plan that fails never gives it.
    .where(
      and(
        eq(giftAidDeclarations.charityId, charityId),
        eq(giftAidDeclarations.currency, 'GBP'),
        or(isNull(instalmentPlans.saleId), eq(instalmentPlans.status, 'completed')),
      ),
    )
    .orderBy(asc(giftAidDeclarations.declaredAt), asc(giftAidDeclarations.id));
  return scheduleRows(found);
}

/** A spreadsheet cell: quoted when needed, and never read as a formula. */
function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** DD/MM/YY, the schedule's date format, in UK time. */
export function scheduleDate(date: Date): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    day: '2-digit',
    month: '2-digit',
    year: '2-digit',
    timeZone: 'Europe/London',
  }).formatToParts(date);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('day')}/${part('month')}/${part('year')}`;
}

/** Pence as the schedule's plain amount: 2500 is '25.00' (no currency sign, no separators). */
export function scheduleAmount(pence: number): string {
  return `${Math.floor(pence / 100)}.${String(pence % 100).padStart(2, '0')}`;
}

export function scheduleCsv(rows: ScheduleRow[]): string {
  const lines = [SCHEDULE_COLUMNS.join(',')];
  for (const r of rows) {
    lines.push(
      [
        r.title,
        r.firstName,
        r.lastName,
        r.house,
        r.postcode,
        r.aggregated,
        r.sponsored,
        scheduleDate(r.date),
        scheduleAmount(r.amount),
      ]
        .map(cell)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
