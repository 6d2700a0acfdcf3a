import { Grid, Paper } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { County } from '../../../../shared/constants.js';
import { CountySelect } from '../pickers/CountySelect.js';
import { GradeSelect } from '../pickers/GradeSelect.js';
import { SearchBox } from './SearchBox.js';

type Span = { xs?: number; sm?: number; md?: number; lg?: number };

export type StudentFiltersProps = {
  /** The section's accessible name. */
  label: string;
  search: { label: string; placeholder: string; value: string; onChange(value: string): void };
  county: { value: County | ''; onChange(value: County | ''): void };
  /** The grades to offer (the competition's); all school grades when left out. */
  grade: { grades?: readonly number[]; value: number | ''; onChange(value: number | ''): void };
  /** Grid spans of the search box and of the county and grade pickers. */
  spans?: { search: Span; picker: Span };
  /** Further filters, each in its own `<Grid>` cell. */
  children?: ReactNode;
};

const DEFAULT_SPANS = { search: { xs: 12, md: 6 }, picker: { xs: 12, sm: 6, md: 3 } };

/**
 * The filter bar every list of a competition's students starts with: a name search, the
 * county and the grade, then the list's own filters.
 */
export function StudentFilters({
  label,
  search,
  county,
  grade,
  spans = DEFAULT_SPANS,
  children,
}: StudentFiltersProps) {
  const { t } = useTranslation();
  return (
    <Paper sx={{ p: 2 }} aria-label={label} component="section">
      <Grid container spacing={2} sx={{ alignItems: 'center' }}>
        <Grid size={spans.search}>
          <SearchBox fullWidth {...search} />
        </Grid>
        <Grid size={spans.picker}>
          <CountySelect fullWidth size="small" withAll label={t('fields.county')} {...county} />
        </Grid>
        <Grid size={spans.picker}>
          <GradeSelect fullWidth size="small" withAll label={t('fields.grade')} {...grade} />
        </Grid>
        {children}
      </Grid>
    </Paper>
  );
}
