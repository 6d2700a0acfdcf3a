import type { SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Fold } from './fold.js';

/** The type of an API field; it decides which operators apply and how values are checked. */
export type FieldType = 'string' | 'number' | 'boolean' | 'date' | 'uuid' | 'stringArray';

/** One field a list exposes: where it lives in SQL and what clients may do with it. */
export type FieldSpec = {
  column: AnyPgColumn | SQL;
  type: FieldType;
  /** Default: true, except for `stringArray` fields. */
  sortable?: boolean;
  /** Default: true. */
  filterable?: boolean;
  /**
   * How the column's text was normalised when stored (fold.ts). Values and patterns are
   * normalised the same way before they are checked, so the check sees what will run.
   */
  fold?: Fold;
};

/** A list endpoint's allow-list: only these API names reach SQL. */
export type ListResource = {
  name: string;
  /** API name (`_id`, `familyName`) → its column. Every name a client may use is here. */
  fields: Record<string, FieldSpec>;
  /** Applied when the filter has no `order`, e.g. `['familyName ASC']`. */
  defaultOrder: string[];
  /** Largest `limit` accepted; default MAX_PAGE_SIZE. */
  maxLimit?: number;
  /** A unique field appended to every order so paging is stable; default `_id`. */
  tiebreak?: string;
};

export type Scalar = string | number | boolean | Date;

export type ComparisonOp = 'gt' | 'gte' | 'lt' | 'lte';
export type LikeOp = 'like' | 'nlike' | 'ilike' | 'nilike';

/** One checked condition on one field; values already have the field's type. */
export type Condition =
  | { op: 'eq' | 'neq'; field: string; value: Scalar | null }
  | { op: ComparisonOp; field: string; value: Scalar }
  | { op: 'between'; field: string; value: [Scalar, Scalar] }
  | { op: 'inq' | 'nin'; field: string; value: Scalar[] }
  | { op: LikeOp; field: string; value: string }
  | { op: 'regexp'; field: string; value: { source: string; ignoreCase: boolean } }
  | { op: 'exists'; field: string; value: boolean };

/** A checked `where` tree: and/or of conditions. Only `parseWhere` builds these from input. */
export type WhereNode = { op: 'and' | 'or'; nodes: WhereNode[] } | Condition;

export type OrderItem = { field: string; dir: 'ASC' | 'DESC' };

export type ParsedFilter = {
  limit: number;
  skip: number;
  /** As asked (or the resource's default), without the tiebreak `compileOrder` appends. */
  order: OrderItem[];
  where: WhereNode | undefined;
  /** API names to return; undefined means all. */
  fields: string[] | undefined;
  /** The raw `include` (relations such as `studentEditions`), for the module to interpret. */
  include: unknown;
  /** Raw values of the keys allowed by `opts.extraKeys` (e.g. the review list's `type`). */
  extra: Record<string, unknown>;
};

export type ParseFilterOptions = {
  /** Limit when none (or 0) is given; default DEFAULT_COUNT, never above the resource's max. */
  defaultLimit?: number;
  /** Further top-level filter keys this list understands; they are passed through raw. */
  extraKeys?: string[];
};
