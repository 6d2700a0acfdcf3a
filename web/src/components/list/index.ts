/**
 * Building blocks for server-paged lists (DESIGN.md "Lists"):
 * - `usePagedList` — page/size/order/filters state → LoopBack `filter` and `/count` `where`;
 * - `useSelection` — checkbox selection tied to the current view;
 * - `PagedTable` — the table (sort, select, pager, loading/empty/error states), and
 *   `pagedTableState`, its props from the list state and the page and `/count` queries;
 * - `SearchBox` — debounced, bounded search text; `nameSearchWhere` turns it into a `where`;
 * - `StudentFilters` — the name, county and grade filters every students list starts with;
 * - `ConfirmDialog` — the question before a destructive action;
 * - `studentColumns` — the columns every list of a competition's students shares;
 * - `where.ts` — `andWhere`, `equalsWhere`, `containsWhere`, `escapeLike`.
 */
export { ConfirmDialog } from './ConfirmDialog.js';
export { type Column, PagedTable, type PagedTableProps, pagedTableState } from './PagedTable.js';
export { SEARCH_DEBOUNCE_MS, SearchBox } from './SearchBox.js';
export { StudentFilters, type StudentFiltersProps } from './StudentFilters.js';
export { type StudentRowFields, studentColumns } from './student-columns.js';
export { type ListFilter, type PagedList, usePagedList } from './use-paged-list.js';
export { useSelection } from './use-selection.js';
export * from './where.js';
