import Build from '@mui/icons-material/Build';
import Print from '@mui/icons-material/Print';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  LinearProgress,
  Stack,
  Typography,
} from '@mui/material';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Test, TestDetailItem, TestItem } from '../../../../../shared/schemas/tests.js';
import { KeyFixForm } from '../../../components/key-fix/KeyFixForm.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { QuestionView } from '../../../components/statement/QuestionView.js';
import { gradesTitle } from '../../../lib/grades-title.js';
import { formatScore } from '../../../lib/scores.js';
import { useTestPreview } from '../api/get-test.js';
import { useTestDetails } from '../api/get-test-details.js';
import { itemMarkdown, subjectLabel } from '../format.js';
import { printViewPath } from '../paths.js';
import { useReport } from '../use-report.js';

type Props = {
  ids: PhaseIds;
  /** The test to preview; the dialog is closed without one. */
  test: Test | null;
  /** Managers see the correct answers; the commission sees the paper as students do. */
  showsCorrect: boolean;
  /**
   * The exam's admins may correct a question's answer key here once the test has started, while
   * the phase is open (the same correction, with its preview, an appeal on the question offers).
   */
  fixesKey?: boolean;
  onClose: () => void;
};

/** A test's questions as they will be printed, with formulas and images rendered. */
export function TestPreviewDialog({ ids, test, showsCorrect, fixesKey = false, onClose }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Dialog
      open={test !== null}
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth="md"
      fullWidth
      scroll="paper"
    >
      {test && (
        <>
          <DialogTitle id={titleId}>
            {t('tests.previewTitle', { title: gradesTitle(test.grades, t) })}
            <Typography
              variant="body2"
              color="text.secondary"
              component="span"
              sx={{ display: 'block' }}
            >
              {test.name}
            </Typography>
          </DialogTitle>
          {/* A long paper scrolls here: focusable, so the keyboard can scroll it too. */}
          <DialogContent dividers tabIndex={0} role="region" aria-label={test.name}>
            <PreviewBody
              ids={{ ...ids, testId: test._id }}
              test={test}
              showsCorrect={showsCorrect}
              fixesKey={fixesKey && showsCorrect && Date.parse(test.startDate) <= Date.now()}
            />
          </DialogContent>
          <DialogActions>
            <Button
              href={printViewPath({ ...ids, testId: test._id })}
              target="_blank"
              rel="noopener"
              startIcon={<Print />}
            >
              {t('tests.printView')}
            </Button>
            <Button onClick={onClose} variant="contained">
              {t('common.close')}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}

function PreviewBody({
  ids,
  test,
  showsCorrect,
  fixesKey,
}: {
  ids: PhaseIds & { testId: string };
  test: Test;
  showsCorrect: boolean;
  fixesKey: boolean;
}) {
  const { t, i18n } = useTranslation();
  /** The question whose key is being corrected (one at a time). */
  const [fixing, setFixing] = useState<string | null>(null);
  const report = useReport();
  // Only managers fetch the details: other viewers' browsers never receive the answers.
  const details = useTestDetails(ids, showsCorrect);
  const preview = useTestPreview(ids, !showsCorrect);
  const query = showsCorrect ? details : preview;
  const items: (TestItem | TestDetailItem)[] | undefined = query.data?.items;

  useEffect(() => {
    if (query.error) report.failure(query.error, 'msg_preview_test_error');
  }, [query.error, report]);

  if (query.error) return <Alert severity="error">{t('msg_preview_test_error')}</Alert>;
  if (!items) return <LinearProgress aria-label={t('list.loading')} />;
  const sorted = [...items].sort((a, b) => a.position - b.position);
  return (
    <Stack spacing={2}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        <Chip label={subjectLabel(test.subject, t)} />
        <Chip label={t('tests.minutes', { count: test.duration })} />
        <Chip
          label={t('tests.points', {
            count: test.totalScore,
            score: formatScore(test.totalScore, i18n.language),
          })}
        />
        <Chip label={t('tests.questions', { count: sorted.length })} />
      </Box>
      {sorted.length === 0 && <Typography color="text.secondary">{t('tests.noItems')}</Typography>}
      {sorted.map((item, index) => (
        <Box component="section" key={item._id} aria-label={t('tests.itemTitle', { n: index + 1 })}>
          {index > 0 && <Divider sx={{ mb: 2 }} />}
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 1 }}>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700, flex: 1 }}>
              {t('tests.itemTitle', { n: index + 1 })}
            </Typography>
            <Chip
              size="small"
              color="primary"
              variant="outlined"
              label={t('tests.points', {
                count: item.score,
                score: formatScore(item.score, i18n.language),
              })}
            />
            <Chip size="small" variant="outlined" label={t(`tests.itemTypes.${item.itemType}`)} />
            <Chip size="small" label={t(`tests.difficulty.${item.difficulty}`)} />
            {item.itemCategory && (
              <Chip size="small" variant="outlined" label={item.itemCategory} />
            )}
            {fixesKey && item.itemType !== 'open' && (
              <Button
                size="small"
                color="warning"
                startIcon={<Build />}
                aria-expanded={fixing === item._id}
                onClick={() => setFixing((f) => (f === item._id ? null : item._id))}
              >
                {t('tests.fixKey', { n: index + 1 })}
              </Button>
            )}
          </Box>
          <QuestionView
            itemQ={itemMarkdown(item)}
            itemType={item.itemType}
            itemAnswers={item.itemAnswers}
            itemCorrectAnswers={
              showsCorrect && 'itemCorrectAnswers' in item ? item.itemCorrectAnswers : undefined
            }
          />
          {fixing === item._id && 'itemCorrectAnswers' in item && (
            <Box sx={{ mt: 2, p: 2, border: 1, borderColor: 'divider', borderRadius: 1 }}>
              <KeyFixForm
                ids={ids}
                question={item}
                onApplied={() => {
                  setFixing(null);
                  void details.refetch();
                }}
              />
            </Box>
          )}
        </Box>
      ))}
    </Stack>
  );
}
