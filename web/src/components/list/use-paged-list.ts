import { useCallback, useMemo, useState } from 'react';
import { PAGE_SIZE } from '../../../../shared/constants.js';
import { orderParam, type SortOrder, type Where } from './where.js';

/** The LoopBack `filter` a list endpoint takes (DESIGN.md "Lists"). */
export type ListFilter = {
  limit: number;
  skip: number;
  order: string;
  where?: Where;
};

/** `{limit, skip: size × page, order, where}`; `where` left out when there is no condition. */
export function buildListFilter(
  page: number,
  pageSize: number,
  order: SortOrder,
  where: Where | undefined,
): ListFilter {
  return {
    limit: pageSize,
    skip: pageSize * page,
    order: orderParam(order),
    ...(where ? { where } : {}),
  };
}

export type PagedListOptions<F> = {
  /** SPEC.md §9: students and teachers `familyName` asc, exams `name` asc, … */
  defaultOrder: SortOrder;
  /** The screen's filter values; '' / undefined mean "all". */
  initialFilters: F;
  /** Filter values → `where`; the same `where` goes to the list and to `/count`. */
  toWhere: (filters: F) => Where | undefined;
  /** Rows per page; SPEC.md §9 default 10. */
  pageSize?: number;
};

/**
 * State of a server-paged list: page (from 0), page size, order and filters. Any change of
 * filter, order or page size goes back to page 0 (SPEC.md §9), so a narrower search never
 * lands on an empty page. `filter` is ready for `GET /things?filter=` and `where` for
 * `GET /things/count?where=`; `viewKey` changes whenever the rows shown may change (use it
 * to drop a selection).
 */
export function usePagedList<F extends Record<string, unknown>>(options: PagedListOptions<F>) {
  const { toWhere } = options;
  const [page, setPageState] = useState(0);
  const [pageSize, setPageSizeState] = useState(options.pageSize ?? PAGE_SIZE);
  const [order, setOrderState] = useState<SortOrder>(options.defaultOrder);
  const [filters, setFiltersState] = useState<F>(options.initialFilters);
  const [initialFilters] = useState<F>(options.initialFilters);

  const setFilter = useCallback(<K extends keyof F>(key: K, value: F[K]) => {
    setFiltersState((f) => (Object.is(f[key], value) ? f : { ...f, [key]: value }));
    setPageState(0);
  }, []);

  const setFilters = useCallback((patch: Partial<F>) => {
    setFiltersState((f) => ({ ...f, ...patch }));
    setPageState(0);
  }, []);

  const resetFilters = useCallback(() => {
    setFiltersState(initialFilters);
    setPageState(0);
  }, [initialFilters]);

  /** Same column: flips the direction; another column: sorts it ascending. */
  const sortBy = useCallback((field: string) => {
    setOrderState((o) =>
      o.field === field
        ? { field, direction: o.direction === 'asc' ? 'desc' : 'asc' }
        : { field, direction: 'asc' },
    );
    setPageState(0);
  }, []);

  const setPageSize = useCallback((size: number) => {
    setPageSizeState(size);
    setPageState(0);
  }, []);

  const setPage = useCallback((p: number) => setPageState(Math.max(0, p)), []);

  const where = useMemo(() => toWhere(filters), [toWhere, filters]);
  const filter = useMemo(
    () => buildListFilter(page, pageSize, order, where),
    [page, pageSize, order, where],
  );
  const viewKey = useMemo(() => JSON.stringify(filter), [filter]);

  return {
    page,
    pageSize,
    order,
    filters,
    where,
    filter,
    viewKey,
    setPage,
    setPageSize,
    sortBy,
    setFilter,
    setFilters,
    resetFilters,
  };
}

export type PagedList<F extends Record<string, unknown>> = ReturnType<typeof usePagedList<F>>;
