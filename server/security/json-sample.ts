// A valid value for a JSON Schema (the dialect zod writes), built from the schema alone: the
// access matrix sends it so that a call passes validation and meets the guard, and the fuzzer
// starts each of its cases from it. `pick` fills strings by the property's name (ids of the
// seeded world, an e-mail address) where any value of the type would not do.

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
};

export type Pick = (name: string, schema: JsonSchema) => unknown;

const SAMPLE_DATE = '2026-11-23T10:00:00.000Z';

/** The schema a `$ref` names (only local `#/$defs/…` references occur). */
export function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace(/^#\/(\$defs|definitions|components\/schemas)\//, '');
  return root.$defs?.[name] ?? {};
}

const typeOf = (schema: JsonSchema): string | undefined =>
  Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;

/** A valid value of `schema` (required properties only), or undefined when none can be made. */
export function sampleOf(
  schema: JsonSchema,
  pick: Pick = () => undefined,
  name = '',
  root: JsonSchema = schema,
): unknown {
  const s = resolve(schema, root);
  if (s.const !== undefined) return s.const;
  const picked = pick(name, s);
  if (picked !== undefined) return picked;
  if (s.enum) return s.enum[0];
  if (s.default !== undefined) return s.default;
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) {
    // The first alternative that is not null: a real value meets more of the handler.
    const real = alternatives.find((a) => typeOf(resolve(a, root)) !== 'null') ?? alternatives[0];
    return real ? sampleOf(real, pick, name, root) : null;
  }
  if (s.allOf) {
    return Object.assign({}, ...s.allOf.map((part) => sampleOf(part, pick, name, root) ?? {}));
  }
  switch (typeOf(s)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of s.required ?? []) {
        const prop = s.properties?.[key];
        if (prop) out[key] = sampleOf(prop, pick, key, root);
      }
      return out;
    }
    case 'array': {
      const n = Math.max(s.minItems ?? 0, 1);
      const item = s.items ?? s.prefixItems?.[0];
      if (!item || (s.maxItems ?? 1) < 1) return [];
      return Array.from({ length: n }, () => sampleOf(item, pick, name, root));
    }
    case 'string':
      return sampleString(s);
    case 'integer':
    case 'number':
      return sampleNumber(s);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return undefined;
  }
}

function sampleString(s: JsonSchema): string {
  switch (s.format) {
    case 'uuid':
      return '0190a000-0000-7000-8000-000000000001';
    case 'email':
      return 'proba@example.ro';
    case 'date-time':
      return SAMPLE_DATE;
    case 'date':
      return '2013-05-04';
    case 'uri':
      return 'https://example.ro/regulament';
  }
  const min = s.minLength ?? 0;
  if (s.pattern === '^[A-Z0-9-]+$') return 'COD-PROBA'.slice(0, Math.max(min, 9));
  if (s.pattern?.includes('@')) return 'proba@example.ro';
  return 'Proba de text'.padEnd(min, 'x').slice(0, s.maxLength ?? 13);
}

function sampleNumber(s: JsonSchema): number {
  let n = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
  if (n < -1e6) n = 1;
  if (s.maximum !== undefined && n > s.maximum) n = s.maximum;
  return n;
}
