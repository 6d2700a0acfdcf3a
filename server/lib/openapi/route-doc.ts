import type { ErrorCode } from '../../../shared/errors.js';
import type { ListDoc } from '../filter/describe.js';

/** One part of a multipart/form-data body. */
export type MultipartField = {
  description: string;
  required?: boolean;
  enum?: readonly string[];
  /** A file part that may be sent several times under the same name. */
  many?: boolean;
};

/**
 * A multipart/form-data body, for the description only: Fastify does not validate it (the
 * route reads it with readMultipart, which checks each part's name and bytes).
 */
export type MultipartDoc = {
  /** File parts by name. */
  files?: Readonly<Record<string, MultipartField>>;
  /** File parts under numbered names (`item_0`, `item_1`, …). */
  numbered?: { prefix: string; max: number; description: string };
  /** Text parts by name. */
  fields?: Readonly<Record<string, MultipartField>>;
};

declare module 'fastify' {
  interface FastifySchema {
    /**
     * Error codes the route can answer beyond those the description infers from the route
     * itself (validation, the guard's 401/403, 404 for a path with ids, 413/415 for a body,
     * 429 when rate-limited) and those its description names.
     */
    errors?: readonly ErrorCode[];
    /** The route's multipart/form-data body, described. */
    multipart?: MultipartDoc;
    /**
     * A body of raw bytes (a chunk of a large upload), for the description only: the route
     * reads it as a Buffer through its content-type parser.
     */
    binaryBody?: { contentType: string; description: string };
    /** The list behind the route's `filter` or `where` query parameter. */
    list?: ListDoc;
    /** The route answers a redirect (302), not a body: where it sends the browser. */
    redirect?: string;
  }
}

/** `list` of a route's schema, typed where it is written. */
export const listDoc = (doc: ListDoc): ListDoc => doc;
