import { asc, desc, is, SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type {
  Condition,
  FieldSpec,
  FieldType,
  ListResource,
  OrderItem,
  ParsedFilter,
  Scalar,
  WhereNode,
} from './types.js';
import { reject } from './values.js';

function fieldSpec(resource: ListResource, name: string): FieldSpec | undefined {
  return Object.hasOwn(resource.fields, name) ? resource.fields[name] : undefined;
}

/** A column as SQL; expressions are parenthesised so operators bind to the whole of them. */
const columnSql = (spec: FieldSpec): SQL =>
  is(spec.column, SQL) ? sql`(${spec.column})` : sql`${spec.column}`;

/**
 * A value as a typed parameter. The explicit cast fixes the parameter's type whatever the
 * column is (int or double, timestamptz or date, SQL expression), so a value that passed the
 * checks can never fail PostgreSQL's input conversion.
 */
function bind(type: FieldType, value: Scalar): SQL {
  switch (type) {
    case 'number':
      return Number.isSafeInteger(value) ? sql`${value}::int8` : sql`${value}::float8`;
    case 'boolean':
      return sql`${value}::boolean`;
    case 'date':
      return sql`${(value as Date).toISOString()}::timestamptz`;
    case 'uuid':
      return sql`${value}::uuid`;
    default:
      return sql`${value}::text`;
  }
}

const COMPARISON_SQL = {
  gt: sql.raw('>'),
  gte: sql.raw('>='),
  lt: sql.raw('<'),
  lte: sql.raw('<='),
};
const LIKE_SQL = {
  like: sql.raw('like'),
  nlike: sql.raw('not like'),
  ilike: sql.raw('ilike'),
  nilike: sql.raw('not ilike'),
};

/**
 * Negations (`neq`, `nin`, `nlike`, `nilike`) also match rows where the field is null, as
 * LoopBack's document connectors do: "not equal to x" includes "no value".
 */
function compileCondition(condition: Condition, spec: FieldSpec): SQL {
  const column = columnSql(spec);
  const isArray = spec.type === 'stringArray';
  const value = (v: Scalar) => bind(spec.type, v);
  const list = (values: Scalar[]) => sql.join(values.map(value), sql`, `);
  switch (condition.op) {
    case 'eq':
      if (condition.value === null) return sql`${column} is null`;
      return isArray
        ? sql`${column} @> array[${value(condition.value)}]`
        : sql`${column} = ${value(condition.value)}`;
    case 'neq':
      if (condition.value === null) return sql`${column} is not null`;
      return isArray
        ? sql`(${column} is null or not (${column} @> array[${value(condition.value)}]))`
        : sql`${column} is distinct from ${value(condition.value)}`;
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return sql`${column} ${COMPARISON_SQL[condition.op]} ${value(condition.value)}`;
    case 'between': {
      const [from, to] = condition.value;
      return sql`${column} between ${value(from)} and ${value(to)}`;
    }
    case 'inq':
      if (condition.value.length === 0) return sql`false`;
      return isArray
        ? sql`${column} && array[${list(condition.value)}]`
        : sql`${column} in (${list(condition.value)})`;
    case 'nin':
      if (condition.value.length === 0) return sql`true`;
      return isArray
        ? sql`(${column} is null or not (${column} && array[${list(condition.value)}]))`
        : sql`(${column} is null or ${column} not in (${list(condition.value)}))`;
    case 'like':
    case 'ilike':
      return sql`${column} ${LIKE_SQL[condition.op]} ${value(condition.value)}`;
    case 'nlike':
    case 'nilike':
      return sql`(${column} is null or ${column} ${LIKE_SQL[condition.op]} ${value(condition.value)})`;
    case 'regexp': {
      const pattern = sql`${condition.value.source}::text`;
      return condition.value.ignoreCase
        ? sql`${column} ~* ${pattern}`
        : sql`${column} ~ ${pattern}`;
    }
    case 'exists':
      return condition.value ? sql`${column} is not null` : sql`${column} is null`;
  }
}

function compileNode(node: WhereNode, resource: ListResource): SQL {
  if ('nodes' in node) {
    if (node.nodes.length === 0) return node.op === 'and' ? sql`true` : sql`false`;
    const parts = node.nodes.map((child) => compileNode(child, resource));
    return sql`(${sql.join(parts, node.op === 'and' ? sql` and ` : sql` or `)})`;
  }
  // Trees normally come from parseWhere; one assembled by a module is checked again here.
  const spec = fieldSpec(resource, node.field);
  if (!spec || spec.filterable === false) return reject(['where', node.field]);
  return compileCondition(node, spec);
}

/** A checked where tree → one parameterised SQL condition (undefined: no condition). */
export function compileWhere(
  where: WhereNode | undefined,
  resource: ListResource,
): SQL | undefined {
  return where === undefined ? undefined : compileNode(where, resource);
}

/**
 * Order items → ORDER BY terms, always ending with the resource's unique tiebreak (`_id`
 * unless the resource says otherwise) so that pages never overlap or skip rows.
 */
export function compileOrder(order: OrderItem[], resource: ListResource): SQL[] {
  const tiebreak = resource.tiebreak ?? '_id';
  if (!fieldSpec(resource, tiebreak)) {
    throw new Error(`list resource ${resource.name} has no tiebreak field ${tiebreak}`);
  }
  const items: OrderItem[] = order.some((item) => item.field === tiebreak)
    ? order
    : [...order, { field: tiebreak, dir: 'ASC' }];
  return items.map(({ field, dir }) => {
    const spec = fieldSpec(resource, field);
    if (!spec) return reject(['order']);
    return dir === 'DESC' ? desc(columnSql(spec)) : asc(columnSql(spec));
  });
}

/** The columns to select for `fields` (all of the resource's when undefined), by API name. */
export function compileSelection(
  resource: ListResource,
  fields?: string[],
): Record<string, AnyPgColumn | SQL> {
  const names = fields ?? Object.keys(resource.fields);
  const selection: Record<string, AnyPgColumn | SQL> = {};
  for (const name of names) {
    const spec = fieldSpec(resource, name);
    if (spec) selection[name] = spec.column;
  }
  return selection;
}

/** Everything a repo needs for `select … where … order by … limit … offset`. */
export function compileFilter(filter: ParsedFilter, resource: ListResource) {
  return {
    where: compileWhere(filter.where, resource),
    orderBy: compileOrder(filter.order, resource),
    limit: filter.limit,
    offset: filter.skip,
  };
}

/** Keeps only the asked fields of a row (all of them when `fields` is undefined). */
export function projectFields<T extends Record<string, unknown>>(
  row: T,
  fields: string[] | undefined,
): Partial<T> {
  if (!fields) return row;
  const projected: Partial<T> = {};
  for (const name of fields) {
    if (Object.hasOwn(row, name)) projected[name as keyof T] = row[name as keyof T];
  }
  return projected;
}
