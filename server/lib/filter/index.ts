/**
 * The one place where the API's LoopBack-style `filter`/`where` objects become SQL: parse and
 * check them against a resource's allow-list, then compile them to parameterised drizzle SQL.
 */
export {
  compileFilter,
  compileOrder,
  compileSelection,
  compileWhere,
  projectFields,
} from './compile.js';
export { type Fold, foldPattern, foldValue } from './fold.js';
export {
  MAX_INQ_ITEMS,
  MAX_PATTERNS,
  MAX_WHERE_DEPTH,
  parseFilter,
  parseWhere,
} from './parse.js';
export { isSafeRegexp, MAX_REGEXP_COST, MAX_REGEXP_LENGTH, regexpCost } from './regexp.js';
export type {
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
