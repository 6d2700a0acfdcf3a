import { DEFAULT_COUNT, MAX_PAGE_SIZE } from '../../../shared/constants.js';
import { type Fold, foldPattern, foldValue } from './fold.js';
import { MAX_REGEXP_COST, MAX_REGEXP_LENGTH, readRegexp, regexpCost } from './regexp.js';
import type {
  Condition,
  FieldSpec,
  FieldType,
  ListResource,
  OrderItem,
  ParsedFilter,
  ParseFilterOptions,
  Scalar,
  WhereNode,
} from './types.js';
import { checkText, checkValue, isPlainObject, type Path, reject } from './values.js';

/** Deepest nesting of `and`/`or` arrays in one `where`. */
export const MAX_WHERE_DEPTH = 8;
/** Most items in one `inq`/`nin` list. */
export const MAX_INQ_ITEMS = 1000;
/** Conditions and bound values in one `where`; keeps queries far below PostgreSQL's limits. */
export const MAX_CONDITIONS = 200;
export const MAX_VALUES = 5000;
/** Patterns (`like`, `regexp`) in one where: each is compiled and run on every row. */
export const MAX_PATTERNS = 20;
export const MAX_JSON_LENGTH = 100_000;
export const MAX_ORDER_ITEMS = 10;
export const MAX_SKIP = 10_000_000;

const PATTERN_OPS = new Set(['like', 'nlike', 'ilike', 'nilike', 'regexp']);
const COMPARE = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'between', 'inq', 'nin', 'exists'];
const EQUALITY = ['eq', 'neq', 'inq', 'nin', 'exists'];

/** Operators each field type understands; anything else is refused. */
export const OPERATORS: Record<FieldType, ReadonlySet<string>> = {
  string: new Set([...COMPARE, 'like', 'nlike', 'ilike', 'nilike', 'regexp']),
  number: new Set(COMPARE),
  date: new Set(COMPARE),
  uuid: new Set(COMPARE),
  boolean: new Set(EQUALITY),
  // eq: the array contains the value; inq: the array shares an element with the list.
  stringArray: new Set(EQUALITY),
};

const CASELESS_LIKE = { like: 'ilike', nlike: 'nilike', ilike: 'ilike', nilike: 'nilike' } as const;

type Budget = { conditions: number; values: number; patterns: number; regexpCost: number };

export const isSortable = (spec: FieldSpec) => spec.sortable ?? spec.type !== 'stringArray';

function lookupField(resource: ListResource, name: string): FieldSpec | undefined {
  return Object.hasOwn(resource.fields, name) ? resource.fields[name] : undefined;
}

function parseJson(text: string, path: Path): unknown {
  if (text.length > MAX_JSON_LENGTH) return reject(path, 'too_long');
  try {
    return JSON.parse(text);
  } catch {
    return reject(path);
  }
}

function spend(budget: Budget, path: Path, values: number): void {
  budget.conditions += 1;
  budget.values += values;
  if (budget.conditions > MAX_CONDITIONS || budget.values > MAX_VALUES) reject(path, 'too_long');
}

function spendPattern(budget: Budget, path: Path, cost: number): void {
  budget.patterns += 1;
  budget.regexpCost += cost;
  if (budget.patterns > MAX_PATTERNS || budget.regexpCost > MAX_REGEXP_COST) {
    reject(path, 'too_long');
  }
}

/** A plain text value, normalised as the field's column is. */
function foldedText(text: string, fold: Fold | undefined): string {
  return fold ? foldValue(fold, text) : text;
}

/**
 * A `like` pattern as it will run: normalised as the column is, then checked. `\` is
 * PostgreSQL's escape character; a trailing lone one is an SQL error, so it is refused here.
 */
function checkLikePattern(value: unknown, spec: FieldSpec, path: Path): string {
  const sent = checkText(value, path);
  const pattern = spec.fold ? checkText(foldPattern(spec.fold, sent, true), path) : sent;
  const trailing = pattern.length - pattern.replace(/\\+$/, '').length;
  return trailing % 2 === 1 ? reject(path) : pattern;
}

/**
 * A `regexp` as it will run. The pattern is normalised as the column is (a folded column
 * holds lower-case text, so it is matched ignoring case) and then checked: the check judges
 * exactly the text PostgreSQL runs, and the pattern as sent must pass it too.
 */
function checkRegexp(
  arg: unknown,
  spec: FieldSpec,
  caseless: boolean,
  path: Path,
  budget: Budget,
): { source: string; ignoreCase: boolean } {
  if (typeof arg === 'string') checkText(arg, path, MAX_REGEXP_LENGTH + 3);
  else if (arg instanceof RegExp) checkText(arg.source, path, MAX_REGEXP_LENGTH);
  const sent = readRegexp(arg) ?? reject(path);
  const source = spec.fold ? foldPattern(spec.fold, sent.source, false) : sent.source;
  const cost = regexpCost(source);
  if (cost === undefined || regexpCost(sent.source) === undefined) return reject(path);
  checkText(source, path, MAX_REGEXP_LENGTH);
  spendPattern(budget, path, cost);
  return { source, ignoreCase: sent.ignoreCase || caseless || spec.fold !== undefined };
}

/**
 * One operator and its argument → a checked condition whose values are what will run.
 * `caseless` is LoopBack's `options: 'i'` next to it: `like` becomes `ilike`, a regexp
 * ignores case.
 */
function parseOperator(
  op: string,
  field: string,
  spec: FieldSpec,
  arg: unknown,
  path: Path,
  budget: Budget,
  caseless = false,
): Condition {
  const value = (v: unknown, at: Path): Scalar => {
    const checked = checkValue(spec.type, v, at);
    return typeof checked === 'string' ? checkText(foldedText(checked, spec.fold), at) : checked;
  };
  switch (op) {
    case 'eq':
    case 'neq':
      spend(budget, path, 1);
      return { op, field, value: arg === null ? null : value(arg, path) };
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      spend(budget, path, 1);
      return { op, field, value: value(arg, path) };
    case 'between': {
      if (!Array.isArray(arg) || arg.length !== 2) return reject(path);
      spend(budget, path, 2);
      return { op, field, value: [value(arg[0], [...path, 0]), value(arg[1], [...path, 1])] };
    }
    case 'inq':
    case 'nin': {
      if (!Array.isArray(arg)) return reject(path);
      if (arg.length > MAX_INQ_ITEMS) return reject(path, 'too_long');
      spend(budget, path, arg.length);
      return { op, field, value: arg.map((item, i) => value(item, [...path, i])) };
    }
    case 'like':
    case 'nlike':
    case 'ilike':
    case 'nilike': {
      spend(budget, path, 1);
      spendPattern(budget, path, 0);
      const like = caseless ? CASELESS_LIKE[op] : op;
      return { op: like, field, value: checkLikePattern(arg, spec, path) };
    }
    case 'regexp':
      spend(budget, path, 1);
      return { op, field, value: checkRegexp(arg, spec, caseless, path, budget) };
    case 'exists':
      spend(budget, path, 0);
      return { op, field, value: checkValue('boolean', arg, path) as boolean };
    default:
      return reject(path);
  }
}

/** One `field: value` entry of a where object: a value, null, a RegExp or an operator object. */
function parseFieldEntry(
  field: string,
  spec: FieldSpec,
  raw: unknown,
  path: Path,
  budget: Budget,
): Condition[] {
  if (raw instanceof RegExp) {
    if (!OPERATORS[spec.type].has('regexp')) return reject(path);
    return [parseOperator('regexp', field, spec, raw, path, budget)];
  }
  if (Array.isArray(raw)) return reject(path);
  if (!isPlainObject(raw)) return [parseOperator('eq', field, spec, raw, path, budget)];
  const ops = Object.keys(raw).filter((key) => key !== 'options');
  if (ops.length === 0)
    return reject([...path, ...(Object.hasOwn(raw, 'options') ? ['options'] : [])]);
  const caseless = parseOptions(raw, spec, ops, path);
  return ops.map((op) => {
    if (!OPERATORS[spec.type].has(op)) return reject([...path, op]);
    return parseOperator(op, field, spec, raw[op], [...path, op], budget, caseless);
  });
}

/**
 * LoopBack's `options` beside `like`/`nlike`/`regexp`: `'i'` (ignore case) or `''`. Anything
 * else, or options beside other operators, is refused rather than ignored.
 */
function parseOptions(
  raw: Record<string, unknown>,
  spec: FieldSpec,
  ops: string[],
  path: Path,
): boolean {
  if (!Object.hasOwn(raw, 'options')) return false;
  const options = raw.options;
  const patternsOnly = ops.every((op) => PATTERN_OPS.has(op));
  if (spec.type !== 'string' || !patternsOnly || (options !== 'i' && options !== '')) {
    return reject([...path, 'options']);
  }
  return options === 'i';
}

/** A where object → its conditions, and-ed; undefined when it places no condition. */
function parseWhereObject(
  raw: unknown,
  resource: ListResource,
  path: Path,
  depth: number,
  budget: Budget,
): WhereNode | undefined {
  if (!isPlainObject(raw)) return reject(path);
  const nodes: WhereNode[] = [];
  for (const key of Object.keys(raw)) {
    const value = raw[key];
    const at = [...path, key];
    if (key === 'and' || key === 'or') {
      if (!Array.isArray(value) || depth >= MAX_WHERE_DEPTH) return reject(at);
      if (value.length > MAX_CONDITIONS) return reject(at, 'too_long');
      const children = value.map((item, i) =>
        parseWhereObject(item, resource, [...at, i], depth + 1, budget),
      );
      // An empty object places no condition: it is neutral in `and` and makes `or` true.
      const placed = children.filter((child): child is WhereNode => child !== undefined);
      if (key === 'and' && placed.length > 0) nodes.push({ op: 'and', nodes: placed });
      if (key === 'or' && placed.length === children.length)
        nodes.push({ op: 'or', nodes: placed });
      continue;
    }
    const spec = lookupField(resource, key);
    if (!spec || spec.filterable === false) return reject(at);
    nodes.push(...parseFieldEntry(key, spec, value, at, budget));
  }
  if (nodes.length <= 1) return nodes[0];
  return { op: 'and', nodes };
}

function parseWhereAt(raw: unknown, resource: ListResource, path: Path): WhereNode | undefined {
  if (raw === undefined || raw === null) return undefined;
  return parseWhereObject(raw, resource, path, 0, {
    conditions: 0,
    values: 0,
    patterns: 0,
    regexpCost: 0,
  });
}

/**
 * `?where=` (the `count` twin of a list) → a checked where tree. Accepts the JSON text or an
 * object. Every field must be a filterable field of `resource` and every value of its type;
 * anything else is VALIDATION_FAILED with the path of the offending key (`['where', …]`).
 */
export function parseWhere(raw: unknown, resource: ListResource): WhereNode | undefined {
  if (raw === '') return undefined;
  const value = typeof raw === 'string' ? parseJson(raw, ['where']) : raw;
  return parseWhereAt(value, resource, ['where']);
}

function parseInteger(raw: unknown, path: Path, max: number): number | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const n = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) return reject(path, 'not_number');
  return n < 0 || n > max ? reject(path) : n;
}

function parseOrderItem(text: unknown, resource: ListResource, path: Path): OrderItem {
  const m = typeof text === 'string' ? /^\s*(\S+)(?:\s+(asc|desc))?\s*$/i.exec(text) : null;
  const field = m?.[1];
  const spec = field === undefined ? undefined : lookupField(resource, field);
  if (!m || field === undefined || !spec || !isSortable(spec)) return reject(path);
  return { field, dir: m[2]?.toUpperCase() === 'DESC' ? 'DESC' : 'ASC' };
}

/** `'name ASC'`, `'a ASC, b DESC'` or a list of them; empty → the resource's default. */
function parseOrder(raw: unknown, resource: ListResource): OrderItem[] {
  if (raw === undefined || raw === null || raw === '' || (Array.isArray(raw) && !raw.length)) {
    const fallback = resource.defaultOrder;
    return fallback.length ? parseOrder(fallback, { ...resource, defaultOrder: [] }) : [];
  }
  if (typeof raw === 'string' && raw.length > 1000) return reject(['order'], 'too_long');
  const items =
    typeof raw === 'string'
      ? raw.split(',').map((text) => parseOrderItem(text, resource, ['order']))
      : Array.isArray(raw)
        ? raw.map((text, i) => parseOrderItem(text, resource, ['order', i]))
        : reject(['order']);
  if (items.length > MAX_ORDER_ITEMS) return reject(['order'], 'too_long');
  return items.filter((item, i) => items.findIndex((o) => o.field === item.field) === i);
}

/** LoopBack's `fields`: a list of names, or `{ name: true }` (only these) / `{ name: false }`. */
function parseFields(raw: unknown, resource: ListResource): string[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  const known = (name: unknown, path: Path) =>
    typeof name === 'string' && lookupField(resource, name) ? name : reject(path);
  if (Array.isArray(raw)) {
    if (raw.length === 0) return undefined;
    const names = raw.map((name, i) => known(name, ['fields', i]));
    return [...new Set(names)];
  }
  if (!isPlainObject(raw)) return reject(['fields']);
  const wanted: string[] = [];
  const unwanted = new Set<string>();
  for (const [name, flag] of Object.entries(raw)) {
    known(name, ['fields', name]);
    const on = flag === true || flag === 'true' || flag === 1;
    if (!on && flag !== false && flag !== 'false' && flag !== 0) reject(['fields', name]);
    if (on) wanted.push(name);
    else unwanted.add(name);
  }
  if (wanted.length > 0) return wanted;
  if (unwanted.size === 0) return undefined;
  const kept = Object.keys(resource.fields).filter((name) => !unwanted.has(name));
  return kept.length > 0 ? kept : reject(['fields']);
}

export const FILTER_KEYS = ['where', 'limit', 'skip', 'offset', 'order', 'fields', 'include'];

/**
 * `?filter=` → a checked filter: limit within 0..maxLimit (0 or none → the default), skip,
 * order (never empty: the resource's default applies), where, fields and the raw include.
 * Text that is not JSON is VALIDATION_FAILED at `['filter']`; other issues carry the path
 * inside the filter (`['limit']`, `['order', 0]`, `['where', 'and', 1, 'name', 'like']`).
 */
export function parseFilter(
  raw: unknown,
  resource: ListResource,
  opts: ParseFilterOptions = {},
): ParsedFilter {
  const parsed = typeof raw === 'string' && raw !== '' ? parseJson(raw, ['filter']) : raw;
  const filter = parsed === undefined || parsed === null || parsed === '' ? {} : parsed;
  if (!isPlainObject(filter)) return reject(['filter']);
  const extraKeys = opts.extraKeys ?? [];
  for (const key of Object.keys(filter)) {
    if (!FILTER_KEYS.includes(key) && !extraKeys.includes(key)) reject([key]);
  }
  const maxLimit = resource.maxLimit ?? MAX_PAGE_SIZE;
  const defaultLimit = Math.min(opts.defaultLimit ?? DEFAULT_COUNT, maxLimit);
  const skipKey = filter.skip !== undefined && filter.skip !== null ? 'skip' : 'offset';
  const extra: Record<string, unknown> = {};
  for (const key of extraKeys) {
    if (Object.hasOwn(filter, key)) extra[key] = filter[key];
  }
  return {
    limit: parseInteger(filter.limit, ['limit'], maxLimit) || defaultLimit,
    skip: parseInteger(filter[skipKey], [skipKey], MAX_SKIP) ?? 0,
    order: parseOrder(filter.order, resource),
    where: parseWhereAt(filter.where, resource, ['where']),
    fields: parseFields(filter.fields, resource),
    include: filter.include,
    extra,
  };
}
