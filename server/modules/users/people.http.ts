import type { FastifyRequest } from 'fastify';
import { z } from 'zod';

/** The site origin for links in mails (server/lib/origin.ts: never the request's own Host). */
export type OriginOf = (request: FastifyRequest) => string;

/** A spreadsheet answer: the bytes of an xlsx file (never serialized as JSON). */
export const xlsxSchema = z.instanceof(Buffer).describe('xlsx spreadsheet');
