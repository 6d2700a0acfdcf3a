import { Breadcrumbs, Link, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { PhaseContext } from './get-phase-context.js';

type Props = PhaseContext & {
  /** Pages between the phase and this one (e.g. the question list above a question). */
  trail?: { label: string; to: string }[];
  /** This page's name, the last crumb. */
  current: string;
};

/** Concursuri › concurs › ediție › etapă › … › this page. */
export function PhaseCrumbs({ exam, edition, phase, trail = [], current }: Props) {
  const { t } = useTranslation();
  const examTo = `/examene/${exam._id}`;
  const editionTo = `${examTo}/editii/${edition._id}`;
  const links = [
    { label: t('nav.exams'), to: '/examene' },
    { label: exam.name, to: examTo },
    { label: edition.name, to: editionTo },
    { label: phase.name, to: `${editionTo}/phases/${phase._id}` },
    ...trail,
  ];
  return (
    <Breadcrumbs aria-label={t('phaseContent.breadcrumbs')} sx={{ mb: 1 }}>
      {links.map((c) => (
        <Link key={c.to} component={RouterLink} to={c.to} underline="hover" color="inherit">
          {c.label}
        </Link>
      ))}
      <Typography color="text.primary" aria-current="page">
        {current}
      </Typography>
    </Breadcrumbs>
  );
}
