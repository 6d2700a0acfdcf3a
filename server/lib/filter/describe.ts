import { DEFAULT_COUNT, MAX_PAGE_SIZE } from '../../../shared/constants.js';
import {
  FILTER_KEYS,
  isSortable,
  MAX_CONDITIONS,
  MAX_INQ_ITEMS,
  MAX_JSON_LENGTH,
  MAX_ORDER_ITEMS,
  MAX_PATTERNS,
  MAX_SKIP,
  MAX_VALUES,
  MAX_WHERE_DEPTH,
  OPERATORS,
} from './parse.js';
import { MAX_REGEXP_LENGTH } from './regexp.js';
import type { FieldSpec, FieldType, ListResource } from './types.js';

// What a list's `filter` and its count's `where` accept, in words, for the OpenAPI
// description: written from the same allow-list and limits the parser checks, so the
// description cannot promise a field or an operator the parser refuses.

/** One list as its route describes it. */
export type ListDoc = {
  /** The list's allow-list; several when the caller decides (staff and students). */
  resources: readonly { resource: ListResource; who?: string }[];
  /** The `limit` when none is given, as the list's service passes it to parseFilter. */
  defaultLimit?: number;
  /** Further top-level filter keys the list understands (`include`), and what they do. */
  extraKeys?: Readonly<Record<string, string>>;
};

const n = (value: number) => value.toLocaleString('en');

const typeWords: Record<FieldType, string> = {
  string: 'string',
  number: 'number',
  boolean: 'boolean',
  date: 'date-time',
  uuid: 'uuid',
  stringArray: 'list of strings',
};

function fieldLine(name: string, spec: FieldSpec): string {
  const notes: string[] = [typeWords[spec.type]];
  if (spec.filterable === false) notes.push('not in where');
  if (isSortable(spec)) notes.push('sortable');
  if (spec.fold) notes.push('compared without case or diacritics');
  return `\`${name}\` (${notes.join(', ')})`;
}

function operatorLines(resource: ListResource): string {
  const byOps = new Map<string, FieldType[]>();
  for (const spec of Object.values(resource.fields)) {
    if (spec.filterable === false) continue;
    const ops = [...OPERATORS[spec.type]].join(', ');
    const types = byOps.get(ops) ?? [];
    if (!types.includes(spec.type)) types.push(spec.type);
    byOps.set(ops, types);
  }
  return [...byOps]
    .map(([ops, types]) => `${types.map((t) => typeWords[t]).join(', ')}: ${ops}`)
    .join('; ');
}

function fieldsPart(doc: ListDoc): string {
  return doc.resources
    .map(({ resource, who }) => {
      const fields = Object.entries(resource.fields).map(([name, spec]) => fieldLine(name, spec));
      return `${who ? `Fields for ${who}` : 'Fields'}: ${fields.join(', ')}. Operators by type: ${operatorLines(resource)}.`;
    })
    .join(' ');
}

const WHERE_SHAPE =
  '`where` is `{field: value}` (equal; `null` for no value) or `{field: {operator: value}}`, ' +
  `several fields and-ed, \`and\`/\`or\` lists nested at most ${MAX_WHERE_DEPTH} deep. ` +
  '`like` patterns use `%` and `_`; `options: "i"` beside `like`, `nlike` or `regexp` ignores ' +
  'case; `between` takes two values, `inq`/`nin` a list, `exists` true or false.';

const LIMITS =
  `Limits: at most ${n(MAX_JSON_LENGTH)} characters of JSON, ${n(MAX_CONDITIONS)} conditions ` +
  `and ${n(MAX_VALUES)} values, ${n(MAX_INQ_ITEMS)} in one \`inq\`/\`nin\`, ${MAX_PATTERNS} ` +
  `patterns (\`like\`, \`regexp\`); a \`regexp\` at most ${MAX_REGEXP_LENGTH} characters, ` +
  'within a cost budget (nested or overlapping repetition and back-references are refused). ' +
  'A field, operator, value or key the list does not understand is 400 VALIDATION_FAILED ' +
  'with its path, never ignored.';

/** The `filter` query parameter of a list, in words. */
export function describeFilter(doc: ListDoc): string {
  const first = doc.resources[0]?.resource;
  const maxLimit = first?.maxLimit ?? MAX_PAGE_SIZE;
  const defaultLimit = Math.min(doc.defaultLimit ?? DEFAULT_COUNT, maxLimit);
  const order = doc.resources
    .map(({ resource, who }) => `${who ? `${who}: ` : ''}\`${resource.defaultOrder.join(', ')}\``)
    .join('; ');
  const extras = Object.entries(doc.extraKeys ?? {})
    .map(([key, what]) => ` \`${key}\`: ${what}.`)
    .join('');
  return (
    `A LoopBack filter as JSON text, with the keys ${BASE_KEYS.map((k) => `\`${k}\``).join(', ')}` +
    `${Object.keys(doc.extraKeys ?? {})
      .map((k) => `, \`${k}\``)
      .join('')}. ${fieldsPart(doc)} ` +
    `${WHERE_SHAPE} \`order\`: \`"field ASC|DESC"\`, comma-separated or a list, at most ` +
    `${MAX_ORDER_ITEMS} sortable fields (default ${order}). \`limit\`: 1 to ${n(maxLimit)}, ` +
    `default ${defaultLimit}; \`skip\` (or \`offset\`) at most ${n(MAX_SKIP)}. \`fields\`: a list ` +
    `of field names or \`{name: true|false}\`.${extras} ${LIMITS}`
  );
}

/** The `where` query parameter of a list's count, in words. */
export function describeWhere(doc: ListDoc): string {
  return `The list's \`where\` as JSON text: only rows it matches are counted. ${fieldsPart(doc)} ${WHERE_SHAPE} ${LIMITS}`;
}

/** The keys every list reads; `include` only where a list names it among its extra keys. */
const BASE_KEYS = FILTER_KEYS.filter((key) => key !== 'include');

const SAMPLE_UUID = '0190a000-0000-7000-8000-000000000001';

/** A condition on one field that the parser accepts, to show the shape. */
function sampleCondition(spec: FieldSpec): unknown {
  switch (spec.type) {
    case 'string':
      return { like: 'a%', options: 'i' };
    case 'number':
      return { gte: 5 };
    case 'date':
      return { gt: '2026-01-01T00:00:00.000Z' };
    case 'uuid':
      return { inq: [SAMPLE_UUID] };
    case 'boolean':
      return true;
    case 'stringArray':
      return 'a';
  }
}

/** A `where` of the list's first filterable field (its text fields first). */
export function exampleWhere(resource: ListResource): Record<string, unknown> {
  const entries = Object.entries(resource.fields).filter(([, s]) => s.filterable !== false);
  const [name, spec] = entries.find(([, s]) => s.type === 'string') ?? entries[0] ?? [];
  return name && spec ? { [name]: sampleCondition(spec) } : {};
}

/** A filter the list accepts: a where, its default order and a page of 10. */
export function exampleFilter(resource: ListResource): Record<string, unknown> {
  return {
    where: exampleWhere(resource),
    order: resource.defaultOrder.join(', '),
    limit: 10,
    skip: 0,
  };
}
