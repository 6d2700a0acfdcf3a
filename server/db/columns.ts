import { timestamp } from 'drizzle-orm/pg-core';

/** A timestamptz column read as a Date. */
export const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
/** The row's creation time, set by the database. */
export const createdAt = () => tz('created_at').notNull().defaultNow();
