import { Breadcrumbs, Link, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

export type Crumb = { label: string; to?: string };

/** Where the page sits: Concursuri › concurs › ediție › etapă (the last one is the page). */
export function ExamBreadcrumbs({ items }: { items: Crumb[] }) {
  const { t } = useTranslation();
  return (
    <Breadcrumbs aria-label={t('exams.breadcrumbs')} sx={{ mb: 1 }}>
      {items.map((c, i) =>
        c.to && i < items.length - 1 ? (
          <Link key={c.to} component={RouterLink} to={c.to} underline="hover" color="inherit">
            {c.label}
          </Link>
        ) : (
          <Typography key={c.label} color="text.primary" aria-current="page">
            {c.label}
          </Typography>
        ),
      )}
    </Breadcrumbs>
  );
}
