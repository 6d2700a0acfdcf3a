import {
  Alert,
  Box,
  Button,
  Checkbox,
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TableSortLabel,
  Typography,
} from '@mui/material';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { PagedList } from './use-paged-list.js';
import type { SortOrder } from './where.js';

export type Column<T> = {
  id: string;
  /** Translated header text. */
  label: string;
  /** The API field this column sorts by; no sort label when absent. */
  sortField?: string;
  render: (row: T) => ReactNode;
  align?: 'left' | 'right' | 'center';
  /** Keeps short values (states, codes) from wrapping. */
  noWrap?: boolean;
  /** Long free text (schools): cut to this width with an ellipsis; the full text on hover. */
  maxWidth?: number;
  /** The full text for the hover title of a cut cell. */
  title?: (row: T) => string | null | undefined;
};

export type PagedTableProps<T> = {
  /** Accessible name of the table (screen readers, tests). */
  label: string;
  columns: Column<T>[];
  /** The current page's rows; undefined before the first answer. */
  rows: T[] | undefined;
  rowKey: (row: T) => string;
  /** Names a row for its checkbox's accessible label (e.g. the person's name). */
  rowLabel?: (row: T) => string;
  /** All matching rows (the `/count` answer), for the pager. */
  total: number | undefined;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  /** More than one option shows a rows-per-page chooser; default: the page size, fixed. */
  rowsPerPageOptions?: number[];
  onPageSizeChange?: (size: number) => void;
  order: SortOrder;
  onSort: (field: string) => void;
  loading?: boolean;
  /** The list call failed (SPEC.md §8: list fetch failures set an error flag). */
  error?: boolean;
  onRetry?: () => void;
  emptyText?: string;
  /** Checkbox multi-select; `selected` holds row keys of the current page. */
  selectable?: boolean;
  selected?: readonly string[];
  onSelectedChange?: (keys: string[]) => void;
  /** Rows the user may not act on get a disabled checkbox (default: every row selectable). */
  isRowSelectable?: (row: T) => boolean;
  /** Per-row buttons (edit, delete) in a last column. */
  rowActions?: (row: T) => ReactNode;
  /** Shown above the table when rows are selected (bulk actions). */
  selectionToolbar?: ReactNode;
};

/**
 * A server-paged MUI table: sortable headers, optional checkbox selection with select-all on
 * the page, pager fed by the `/count` answer, and explicit loading, empty and error states.
 * State lives outside (see `usePagedList`); this only draws it and reports clicks.
 */
export function PagedTable<T>(props: PagedTableProps<T>) {
  const { t } = useTranslation();
  const {
    columns,
    rows,
    rowKey,
    selectable = false,
    selected = [],
    onSelectedChange,
    rowActions,
  } = props;
  const isRowSelectable = props.isRowSelectable ?? (() => true);
  const pageKeys = rows?.filter(isRowSelectable).map(rowKey) ?? [];
  const selectedOnPage = pageKeys.filter((k) => selected.includes(k));
  const allSelected = pageKeys.length > 0 && selectedOnPage.length === pageKeys.length;
  const someSelected = selectedOnPage.length > 0 && !allSelected;
  const span = columns.length + (selectable ? 1 : 0) + (rowActions ? 1 : 0);
  const options = props.rowsPerPageOptions ?? [props.pageSize];

  // Rows deleted meanwhile can leave the page past the last one: step back to the last page.
  const lastPage = clampPage(props.page, props.total, props.pageSize);
  const { onPageChange } = props;
  const isPastEnd = props.total !== undefined && lastPage !== props.page;
  useEffect(() => {
    if (isPastEnd) onPageChange(lastPage);
  }, [isPastEnd, lastPage, onPageChange]);

  const toggleAll = () => onSelectedChange?.(allSelected ? [] : pageKeys);
  const toggleOne = (key: string) =>
    onSelectedChange?.(
      selected.includes(key) ? selected.filter((k) => k !== key) : [...selected, key],
    );

  return (
    <Box>
      {selectable && selected.length > 0 && props.selectionToolbar}
      <Box sx={{ height: 4 }}>{props.loading && <LinearProgress aria-hidden />}</Box>
      {props.error && (
        <Alert
          severity="error"
          sx={{ my: 1 }}
          action={
            props.onRetry && (
              <Button color="inherit" size="small" onClick={props.onRetry}>
                {t('list.retry')}
              </Button>
            )
          }
        >
          {t('list.loadError')}
        </Alert>
      )}
      {/* Positioned, so that nothing inside (the hidden header text) widens the page. */}
      <TableContainer sx={{ position: 'relative' }}>
        <Table
          size="small"
          aria-label={props.label}
          aria-busy={props.loading || undefined}
          // Many columns share a narrow main area: half MUI's side padding keeps them in view.
          sx={{
            '& .MuiTableCell-root:not(.MuiTableCell-paddingCheckbox)': { px: 1 },
            '& .MuiTableCell-root:first-of-type:not(.MuiTableCell-paddingCheckbox)': { pl: 2 },
          }}
        >
          <TableHead>
            <TableRow>
              {selectable && (
                <TableCell padding="checkbox">
                  <Checkbox
                    checked={allSelected}
                    indeterminate={someSelected}
                    // MUI says "mixed" in aria-checked only; the box itself must say it too, or
                    // the two states disagree for assistive technology.
                    inputRef={(input: HTMLInputElement | null) => {
                      if (input) input.indeterminate = someSelected;
                    }}
                    disabled={pageKeys.length === 0}
                    onChange={toggleAll}
                    slotProps={{ input: { 'aria-label': t('list.selectPage') } }}
                  />
                </TableCell>
              )}
              {columns.map((c) => {
                const active = c.sortField !== undefined && props.order.field === c.sortField;
                return (
                  <TableCell
                    key={c.id}
                    align={c.align}
                    sortDirection={active ? props.order.direction : false}
                    sx={{ fontWeight: 600, verticalAlign: 'bottom' }}
                  >
                    {c.sortField ? (
                      <TableSortLabel
                        active={active}
                        direction={active ? props.order.direction : 'asc'}
                        onClick={() => c.sortField && props.onSort(c.sortField)}
                      >
                        {c.label}
                      </TableSortLabel>
                    ) : (
                      c.label
                    )}
                  </TableCell>
                );
              })}
              {rowActions && (
                <TableCell align="right" sx={{ fontWeight: 600 }}>
                  <Box component="span" sx={visuallyHidden}>
                    {t('list.actions')}
                  </Box>
                </TableCell>
              )}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows?.map((row) => {
              const key = rowKey(row);
              const isSelected = selected.includes(key);
              return (
                <TableRow key={key} hover selected={isSelected}>
                  {selectable && (
                    <TableCell padding="checkbox">
                      <Checkbox
                        checked={isSelected}
                        disabled={!isRowSelectable(row)}
                        onChange={() => toggleOne(key)}
                        slotProps={{
                          input: {
                            'aria-label': t('list.selectRow', {
                              name: props.rowLabel ? props.rowLabel(row) : key,
                            }),
                          },
                        }}
                      />
                    </TableCell>
                  )}
                  {columns.map((c) => (
                    <TableCell
                      key={c.id}
                      align={c.align}
                      title={c.title?.(row) ?? undefined}
                      sx={cellSx(c)}
                    >
                      {c.render(row)}
                    </TableCell>
                  ))}
                  {rowActions && (
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap', py: 0 }}>
                      {rowActions(row)}
                    </TableCell>
                  )}
                </TableRow>
              );
            })}
            {rows?.length === 0 && !props.error && (
              <TableRow>
                <TableCell colSpan={span}>
                  <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
                    {props.emptyText ?? t('list.empty')}
                  </Typography>
                </TableCell>
              </TableRow>
            )}
            {rows === undefined && !props.error && (
              <TableRow>
                <TableCell colSpan={span}>
                  <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
                    {t('list.loading')}
                  </Typography>
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={props.total ?? 0}
        page={lastPage}
        rowsPerPage={props.pageSize}
        rowsPerPageOptions={options.length > 1 ? options : []}
        onPageChange={(_, p) => props.onPageChange(p)}
        onRowsPerPageChange={(e) => props.onPageSizeChange?.(Number(e.target.value))}
      />
    </Box>
  );
}

function cellSx<T>(c: Column<T>) {
  if (c.maxWidth) {
    return {
      maxWidth: c.maxWidth,
      overflow: 'hidden',
      textOverflow: 'ellipsis',
      whiteSpace: 'nowrap',
    } as const;
  }
  return c.noWrap ? { whiteSpace: 'nowrap' } : undefined;
}

function clampPage(page: number, total: number | undefined, size: number) {
  if (total === undefined || total === 0) return 0;
  return Math.min(page, Math.max(0, Math.ceil(total / size) - 1));
}

// Strings, not numbers: MUI's sx reads 1 as 100% and -1 as a theme spacing.
const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;

/** What a list screen's queries expose to the table (a TanStack Query result fits). */
type ListQuery<D> = {
  data: D | undefined;
  isFetching: boolean;
  isError: boolean;
  refetch: () => unknown;
};

/**
 * The table props every list screen wires alike from its state (`usePagedList`), its page
 * query and its `/count` query: rows, pager, sort, loading, error and a retry of both calls.
 * Spread it into `PagedTable` and add what is the screen's own (columns, labels, actions).
 */
export function pagedTableState<T>(
  list: Pick<
    PagedList<Record<string, unknown>>,
    'page' | 'pageSize' | 'setPage' | 'order' | 'sortBy'
  >,
  rows: ListQuery<T[]>,
  count: ListQuery<number>,
) {
  return {
    rows: rows.data,
    total: count.data,
    page: list.page,
    pageSize: list.pageSize,
    onPageChange: list.setPage,
    order: list.order,
    onSort: list.sortBy,
    loading: rows.isFetching || count.isFetching,
    error: rows.isError || count.isError,
    onRetry: () => {
      void rows.refetch();
      void count.refetch();
    },
  } satisfies Partial<PagedTableProps<T>>;
}
