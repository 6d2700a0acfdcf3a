import { createHmac, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { serverKeys } from './server-keys.schema.js';

/**
 * The key of one use, drawn by the first process that asks and read by every other: the
 * insert that loses the race changes nothing, and all read the one row. Call it outside any
 * transaction, so a key is never handed out that a rollback then takes back.
 */
export async function serverKey(db: Db, name: string): Promise<Buffer> {
  await db
    .insert(serverKeys)
    .values({ name, secret: randomBytes(32).toString('hex') })
    .onConflictDoNothing();
  const [row] = await db.select().from(serverKeys).where(eq(serverKeys.name, name));
  if (!row) throw new Error(`server key ${name} missing`);
  return Buffer.from(row.secret, 'hex');
}

/**
 * `serverKey` read on first use and kept: building the server reads no table (the API
 * description builds it on an empty database). A failed read is tried again next time.
 */
export function lazyServerKey(db: Db, name: string): () => Promise<Buffer> {
  let key: Promise<Buffer> | undefined;
  return () => {
    key ??= serverKey(db, name).catch((error: unknown) => {
      key = undefined;
      throw error;
    });
    return key;
  };
}

/** Maps an id to a stand-in for it: the same id and use always give the same stand-in. */
export type IdMask = (use: string, id: string) => string;

/**
 * Stand-ins for ids that must not be shown as they are (a UUIDv7 carries its creation time):
 * a version-4 UUID made of the HMAC of the use and the id. Without the key nobody learns the
 * id, its time or the order of two ids from their stand-ins; the server finds the id again by
 * masking the few it may be (an answer's pages).
 */
export function idMask(key: Buffer): IdMask {
  return (use, id) => {
    const bytes = createHmac('sha256', key).update(`${use}\0${id}`).digest().subarray(0, 16);
    bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
    bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
}
