import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableFooter,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Test, TestDetailItem } from '../../../../../shared/schemas/tests.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { gradesTitle } from '../../../lib/grades-title.js';
import { formatScore } from '../../../lib/scores.js';
import { useTestDetails } from '../api/get-test-details.js';
import type { TestIds } from '../api/keys.js';
import { useSetTestPoints } from '../api/set-test-points.js';
import { checkPoints, formatPointsInput, pointsRefusalKey } from '../points.js';
import { useReport } from '../use-report.js';

type Props = {
  ids: PhaseIds;
  /** The test whose points are edited; the dialog is closed without one. */
  test: Test | null;
  onClose: () => void;
};

/**
 * Managers set each question's points (SPEC.md §3 `assignedItems`): the running sum against
 * the test's total is always in view and saving waits until they are equal; the server's
 * refusals (a sum that is not the total, an item already marked, a closed phase) are said in
 * words; the students already scored are scored again, and the message says how many.
 */
export function TestPointsDialog({ ids, test, onClose }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Dialog
      open={test !== null}
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
      scroll="paper"
    >
      {test && (
        <PointsBody
          ids={{ ...ids, testId: test._id }}
          test={test}
          titleId={titleId}
          title={t('tests.pointsEditor.title', { title: gradesTitle(test.grades, t) })}
          onClose={onClose}
        />
      )}
    </Dialog>
  );
}

type BodyProps = {
  ids: TestIds;
  test: Test;
  titleId: string;
  title: string;
  onClose: () => void;
};

function PointsBody({ ids, test, titleId, title, onClose }: BodyProps) {
  const { t } = useTranslation();
  const details = useTestDetails(ids);
  const items = details.data?.items;
  return (
    <>
      <DialogTitle id={titleId}>
        {title}
        <Typography
          variant="body2"
          color="text.secondary"
          component="span"
          sx={{ display: 'block' }}
        >
          {test.name}
        </Typography>
      </DialogTitle>
      {items ? (
        <PointsForm
          ids={ids}
          totalScore={details.data?.totalScore ?? test.totalScore}
          items={[...items].sort((a, b) => a.position - b.position)}
          onClose={onClose}
        />
      ) : (
        <>
          <DialogContent dividers>
            {details.error ? (
              <Alert severity="error">{t('list.loadError')}</Alert>
            ) : (
              <LinearProgress aria-label={t('list.loading')} />
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
          </DialogActions>
        </>
      )}
    </>
  );
}

type FormProps = {
  ids: TestIds;
  totalScore: number;
  items: TestDetailItem[];
  onClose: () => void;
};

function PointsForm({ ids, totalScore, items, onClose }: FormProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const report = useReport();
  const save = useSetTestPoints(ids);
  const [texts, setTexts] = useState(() => items.map((i) => formatPointsInput(i.score, lang)));
  const [refusal, setRefusal] = useState<string | null>(null);
  const check = checkPoints(texts, totalScore);
  const busy = save.isPending;
  const points = (cents: number) =>
    t('tests.points', { count: cents / 100, score: formatScore(cents / 100, lang) });

  const handleSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!check.isValid || busy) return;
    setRefusal(null);
    try {
      const result = await save.mutateAsync({
        assignedItems: items.map((item, i) => ({
          itemId: item.itemId,
          score: check.rows[i] as number,
        })),
      });
      if (result.rescoredStudents === 0) report.success('tests.pointsEditor.savedNone');
      else report.success('tests.pointsEditor.saved', { count: result.rescoredStudents });
      onClose();
    } catch (error) {
      const key = pointsRefusalKey(error);
      setRefusal(key ?? 'tests.pointsEditor.failed');
      report.failure(error, 'tests.pointsEditor.failed');
    }
  };

  const hasBadRow = check.rows.some((r) => typeof r !== 'number');
  let hint: string;
  if (hasBadRow) hint = t('tests.pointsEditor.fixRows');
  else if (check.differenceCents < 0) {
    hint = t('tests.pointsEditor.missing', { points: points(-check.differenceCents) });
  } else if (check.differenceCents > 0) {
    hint = t('tests.pointsEditor.excess', { points: points(check.differenceCents) });
  } else hint = t('tests.pointsEditor.matches');

  return (
    <Box
      component="form"
      onSubmit={(e) => void handleSubmit(e)}
      noValidate
      sx={{ display: 'contents' }}
    >
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('tests.pointsEditor.intro', { total: formatScore(totalScore, lang) })}
        </Typography>
        <Table size="small" aria-label={t('tests.pointsEditor.tableLabel')}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ fontWeight: 600, pl: 0 }}>
                {t('tests.pointsEditor.question')}
              </TableCell>
              <TableCell align="right" sx={{ fontWeight: 600, pr: 0 }}>
                {t('tests.pointsEditor.points')}
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {items.map((item, i) => {
              const row = check.rows[i];
              const code = typeof row === 'number' ? undefined : row;
              const n = i + 1;
              return (
                <TableRow key={item.itemId}>
                  <TableCell sx={{ pl: 0 }}>
                    <Typography variant="body2" sx={{ fontWeight: 600 }}>
                      {t('tests.itemTitle', { n })}
                    </Typography>
                    <Typography variant="caption" color="text.secondary">
                      {[
                        t(`tests.itemTypes.${item.itemType}`),
                        t(`tests.difficulty.${item.difficulty}`),
                        item.itemCategory,
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </Typography>
                  </TableCell>
                  <TableCell align="right" sx={{ pr: 0, verticalAlign: 'top' }}>
                    <TextField
                      size="small"
                      value={texts[i] ?? ''}
                      disabled={busy}
                      onChange={(e) => {
                        const next = [...texts];
                        next[i] = e.target.value;
                        setTexts(next);
                        setRefusal(null);
                      }}
                      error={code !== undefined}
                      helperText={code ? t(`error_${code}`) : undefined}
                      autoComplete="off"
                      slotProps={{
                        htmlInput: {
                          inputMode: 'decimal',
                          'aria-label': t('tests.pointsEditor.pointsOf', { n }),
                          style: { textAlign: 'right' },
                        },
                      }}
                      sx={{ width: 120 }}
                    />
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
          <TableFooter>
            <TableRow>
              <TableCell sx={{ pl: 0, borderBottom: 0 }}>
                <Typography sx={{ fontWeight: 700 }} color="text.primary">
                  {t('tests.pointsEditor.sumLabel')}
                </Typography>
              </TableCell>
              <TableCell align="right" sx={{ pr: 0, borderBottom: 0 }}>
                <Typography
                  sx={{ fontWeight: 700 }}
                  color={check.differenceCents === 0 ? 'success.main' : 'error.main'}
                  data-testid="points-sum"
                >
                  {t('tests.pointsEditor.sum', {
                    sum: formatScore(check.sumCents / 100, lang),
                    total: formatScore(totalScore, lang),
                  })}
                </Typography>
              </TableCell>
            </TableRow>
          </TableFooter>
        </Table>
        <Typography
          role="status"
          variant="body2"
          color={check.isValid ? 'text.secondary' : 'error.main'}
          sx={{ mt: 1 }}
          data-testid="points-hint"
        >
          {hint}
        </Typography>
        {refusal && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {t(refusal)}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" variant="contained" disabled={!check.isValid || busy}>
          {t('tests.pointsEditor.save')}
        </Button>
      </DialogActions>
    </Box>
  );
}
