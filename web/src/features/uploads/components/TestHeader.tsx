import { Box, Chip, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { TestSummary } from '../../../../../shared/schemas/uploads.js';
import type { TestIds } from '../../../components/answer-files/paths.js';
import type { PhaseContext } from '../../../components/phase/get-phase-context.js';
import { PhaseCrumbs } from '../../../components/phase/PhaseCrumbs.js';
import { formatWhen, testTitle } from '../format.js';
import { testStudentsPagePath, testsPagePath } from '../paths.js';

type Props = {
  ids: TestIds;
  context: PhaseContext;
  summary: TestSummary;
  /** This page's title: the test's name, or the student's. */
  current: string;
  /** The student's page sits under the test's. */
  underTest?: boolean;
};

/** Crumbs down to the test, the page title, and the test's subject, grades and window. */
export function TestHeader({ ids, context, summary, current, underTest }: Props) {
  const { t, i18n } = useTranslation();
  const { test } = summary;
  return (
    <Box>
      <PhaseCrumbs
        {...context}
        trail={[
          { label: t('phaseContent.tests'), to: testsPagePath(ids) },
          ...(underTest ? [{ label: test.name, to: testStudentsPagePath(ids) }] : []),
        ]}
        current={current}
      />
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h5" component="h1">
          {current}
        </Typography>
        <Chip size="small" variant="outlined" label={t(`uploads.type.${test.type}`)} />
        {!test.published && <Chip size="small" label={t('uploads.unpublished')} />}
      </Box>
      <Typography color="text.secondary">
        {underTest ? `${test.name} · ` : ''}
        {testTitle(test.subject, test.grades, t)} ·{' '}
        {t('uploads.window', {
          start: formatWhen(test.startDate, i18n.language),
          end: formatWhen(test.endDate, i18n.language),
        })}
      </Typography>
    </Box>
  );
}
