import { REQUEST_EXAMPLES } from './examples.js';

// Examples for the description, made from each operation's own schemas: a value of every
// property (the optional ones too, so a reader sees the whole shape), with words a reader
// recognises where the property's name says what it holds. The description's lint checks
// each example against its schema, and a test parses them with the routes' zod schemas.

type Schema = {
  type?: string;
  nullable?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  multipleOf?: number;
  minItems?: number;
  maxItems?: number;
  $ref?: string;
};

const SAMPLE_ID = '0190a3c2-5b7e-7f41-9c2d-3e8f6a1b2c4d';
const SAMPLE_TIME = '2026-03-14T09:00:00.000Z';

/** Texts by the property that holds them. */
const WORDS: Record<string, string> = {
  email: 'ana.popescu@example.ro',
  familyName: 'Popescu',
  givenName: 'Ana',
  familyNameNormalized: 'popescu',
  givenNameNormalized: 'ana',
  name: 'Olimpiada de Matematică',
  nameNormalized: 'olimpiada de matematica',
  subject: 'Matematică',
  discipline: 'Matematică',
  itemDiscipline: 'Matematică',
  itemCategory: 'Algebră',
  county: 'Cluj',
  studentCounty: 'Cluj',
  country: 'România',
  city: 'Cluj-Napoca',
  school: 'Colegiul Național „Emil Racoviță”',
  studentCentre: 'Cluj-Napoca',
  description: 'Etapa județeană, clasele V–VIII.',
  itemQ: 'Cât face $2 + 2$?',
  password: 'o-parola-lunga-2026',
  filename: 'pagina-1.pdf',
  message: 'Not enough rights',
  callbackUrl: 'https://podium.example.ro/teacher',
  token: 'k3Jx9QvT0wY1bZ8mN5pR2sU7',
  dateOfBirth: '2013-05-04',
  picture: 'https://podium.example.ro/poze/ana.png',
};

const MAX_DEPTH = 8;

function resolve(schema: Schema, schemas: Record<string, unknown>): Schema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace(/^#\/components\/schemas\//, '');
  return (schemas[name] as Schema | undefined) ?? {};
}

function sampleString(s: Schema, name: string): string {
  switch (s.format) {
    case 'uuid':
      return SAMPLE_ID;
    case 'email':
      return WORDS.email as string;
    case 'date-time':
      return SAMPLE_TIME;
    case 'date':
      return '2013-05-04';
    case 'uri':
    case 'url':
      return 'https://podium.example.ro/diplome';
    case 'binary':
      return '';
  }
  let text = WORDS[name] ?? (/email/i.test(name) ? (WORDS.email as string) : undefined);
  if (text === undefined && /Id$/.test(name)) text = SAMPLE_ID;
  text ??= 'text';
  if (s.pattern && !new RegExp(s.pattern).test(text)) text = patternSample(s.pattern) ?? text;
  const min = s.minLength ?? 0;
  if (text.length < min) text = text.padEnd(min, 'x');
  if (s.maxLength !== undefined && text.length > s.maxLength) text = text.slice(0, s.maxLength);
  return text;
}

/** A text for the few patterns the schemas use. */
function patternSample(pattern: string): string | undefined {
  const candidates = [
    '2013-05-04',
    'ABC123',
    'abc123',
    '123456',
    'COD-PROBA',
    'a1b2c3d4e5',
    '0712345678',
    'ro',
  ];
  return candidates.find((c) => new RegExp(pattern).test(c));
}

function sampleNumber(s: Schema): number {
  const low =
    typeof s.exclusiveMinimum === 'number'
      ? s.exclusiveMinimum + (s.multipleOf ?? 1)
      : s.exclusiveMinimum === true && s.minimum !== undefined
        ? s.minimum + (s.multipleOf ?? 1)
        : s.minimum;
  let n = low ?? 1;
  if (n < -1e9) n = 1;
  if (s.maximum !== undefined && n > s.maximum) n = s.maximum;
  return s.type === 'integer' ? Math.ceil(n) : n;
}

/** A valid value of `schema`, or undefined when none is made. */
export function sample(
  schema: Schema,
  schemas: Record<string, unknown>,
  name = '',
  depth = 0,
): unknown {
  const s = resolve(schema, schemas);
  // Copies: a value shared with the schema would print as a YAML alias in /api/docs/yaml.
  if (s.example !== undefined) return structuredClone(s.example);
  if (s.const !== undefined) return structuredClone(s.const);
  if (s.enum) return s.enum.find((v) => v !== null) ?? s.enum[0];
  if (s.default !== undefined) return structuredClone(s.default);
  if (depth > MAX_DEPTH) return s.nullable ? null : undefined;
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives?.length) {
    const real =
      alternatives.find((a) => {
        const r = resolve(a, schemas);
        return !(r.nullable && r.enum?.length === 1 && r.enum[0] === null);
      }) ?? alternatives[0];
    return real ? sample(real, schemas, name, depth + 1) : null;
  }
  if (s.allOf?.length) {
    return Object.assign(
      {},
      ...s.allOf.map((part) => (sample(part, schemas, name, depth + 1) as object) ?? {}),
    );
  }
  switch (s.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries(s.properties ?? {})) {
        const value = sample(prop, schemas, key, depth + 1);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
    case 'array': {
      if (!s.items || (s.maxItems ?? 1) < 1) return [];
      const count = Math.max(s.minItems ?? 0, 1);
      const item = sample(s.items, schemas, name, depth + 1);
      return item === undefined ? [] : Array.from({ length: count }, () => structuredClone(item));
    }
    case 'string':
      return sampleString(s, name);
    case 'integer':
    case 'number':
      return sampleNumber(s);
    case 'boolean':
      return true;
    default:
      return s.nullable ? null : undefined;
  }
}

type Media = { schema?: Schema; example?: unknown; examples?: unknown };
type Operation = {
  operationId?: string;
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
};

function fill(media: Media | undefined, schemas: Record<string, unknown>, given?: unknown): void {
  if (!media?.schema || media.example !== undefined || media.examples !== undefined) return;
  const value = given ?? sample(media.schema, schemas);
  if (value !== undefined) media.example = value;
}

/**
 * Gives the JSON request body and the JSON success responses of `op` an example each: the
 * hand-written one of examples.ts, else one made from the schema.
 */
export function addExamples(op: Operation, schemas: Record<string, unknown>): void {
  const given = op.operationId ? REQUEST_EXAMPLES[op.operationId] : undefined;
  fill(op.requestBody?.content?.['application/json'], schemas, given);
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    if (/^2\d\d$/.test(status)) fill(response.content?.['application/json'], schemas);
  }
}
