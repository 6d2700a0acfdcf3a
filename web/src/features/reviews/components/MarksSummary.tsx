import { Box, Chip, Stack, Table, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { AppealInfo, Mark, ReviewInfo } from '../../../../../shared/schemas/reviews.js';
import { formatMark } from '../mark-form.js';

type Row = { key: string; label: string; value: string; note?: string | null; strong?: boolean };

function MarkRows({ rows, label }: { rows: Row[]; label: string }) {
  const hasNotes = rows.some((r) => r.note);
  return (
    <Table size="small" aria-label={label}>
      <TableBody>
        {rows.map((r) => (
          <TableRow key={r.key}>
            <TableCell component="th" scope="row" sx={{ pl: 0, fontWeight: r.strong ? 700 : 500 }}>
              {r.label}
            </TableCell>
            <TableCell
              align="right"
              sx={{ fontWeight: r.strong ? 700 : 400, whiteSpace: 'nowrap' }}
            >
              {r.value}
            </TableCell>
            {hasNotes && (
              <TableCell sx={{ pr: 0, color: 'text.secondary', width: '45%' }}>
                {r.note ?? ''}
              </TableCell>
            )}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function markRows(
  marks: Mark[],
  t: (k: string, o?: Record<string, unknown>) => string,
  lang: string,
) {
  return marks.map((m) => ({
    key: m._id,
    label: m.isMine
      ? t('reviews.summary.mine', { n: m.reviewer })
      : t('reviews.summary.reviewerN', { n: m.reviewer }),
    value: formatMark(m.reviewerScore, lang),
    note: m.note,
  }));
}

/** Where a paper's marking stands: the marks the caller may see, the average or mediator, the final. */
export function ReviewSummary({ marks, info }: { marks: Mark[]; info: ReviewInfo }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const rows: Row[] = markRows(marks, t, lang);
  if (info.average !== null) {
    rows.push({
      key: 'avg',
      label: t('reviews.summary.average'),
      value: formatMark(info.average, lang),
    });
  }
  if (info.mediatorScore !== null) {
    rows.push({
      key: 'med',
      label: t('reviews.summary.mediator'),
      value: formatMark(info.mediatorScore, lang),
      note: info.mediatorNote,
    });
  }
  if (info.finalScore !== null) {
    rows.push({
      key: 'final',
      label: t('reviews.summary.final'),
      value: formatMark(info.finalScore, lang),
      note: info.finalBy ? t(`reviews.summary.finalBy.${info.finalBy}`) : null,
      strong: true,
    });
  }
  // Until they give theirs, a reviewer sees the other mark left out or without its score;
  // once theirs is given, the other shows when its reviewer gives it.
  const otherMissing =
    info.status === 'marking' &&
    marks.every((m) => m.isMine || m.reviewerScore === null) &&
    marks.some((m) => m.isMine);
  const mineGiven = marks.some((m) => m.isMine && m.reviewerScore !== null);
  return (
    <Stack spacing={1}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Chip
          size="small"
          color={STATUS_COLOR[info.status]}
          label={t(`reviews.status.${info.status}`)}
        />
        {info.hasAppeal && (
          <Chip size="small" variant="outlined" label={t('reviews.summary.appealed')} />
        )}
        <Typography variant="body2" color="text.secondary">
          {t('reviews.summary.threshold', { points: formatMark(info.thresholdPoints, lang) })}
        </Typography>
      </Box>
      {rows.length > 0 && <MarkRows rows={rows} label={t('reviews.summary.title')} />}
      {otherMissing && (
        <Typography variant="body2" color="text.secondary">
          {t(mineGiven ? 'reviews.summary.waitingOther' : 'reviews.summary.blind')}
        </Typography>
      )}
    </Stack>
  );
}

const STATUS_COLOR = { marking: 'warning', needs_mediation: 'error', final: 'success' } as const;
const APPEAL_COLOR = { pending: 'warning', needs_mediation: 'error', resolved: 'success' } as const;

/** Where an appeal stands: the student's reason, the original score, the appeal's marks, the result. */
export function AppealSummary({ marks, info }: { marks: Mark[]; info: AppealInfo }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const rows: Row[] = [];
  if (info.originalScore !== null) {
    rows.push({
      key: 'orig',
      label: t('reviews.summary.original'),
      value: formatMark(info.originalScore, lang),
    });
  }
  rows.push(...markRows(marks, t, lang));
  if (info.average !== null) {
    rows.push({
      key: 'avg',
      label: t('reviews.summary.average'),
      value: formatMark(info.average, lang),
    });
  }
  if (info.mediatorScore !== null) {
    rows.push({
      key: 'med',
      label: t('reviews.summary.mediator'),
      value: formatMark(info.mediatorScore, lang),
      note: info.mediatorNote,
    });
  }
  if (info.resultScore !== null) {
    rows.push({
      key: 'res',
      label: t('reviews.summary.result'),
      value: formatMark(info.resultScore, lang),
    });
  }
  if (info.finalScore !== null) {
    rows.push({
      key: 'final',
      label: t('reviews.summary.final'),
      value: formatMark(info.finalScore, lang),
      note: info.outcome ? t(`reviews.summary.outcome.${info.outcome}`) : null,
      strong: true,
    });
  }
  return (
    <Stack spacing={1}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Chip
          size="small"
          color={APPEAL_COLOR[info.status]}
          label={t(`reviews.appealStatus.${info.status}`)}
        />
        <Chip size="small" variant="outlined" label={t(`reviews.appealKind.${info.kind}`)} />
      </Box>
      <Box sx={{ bgcolor: 'action.hover', p: 1.5, borderRadius: 1 }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {t('reviews.summary.reason')}
        </Typography>
        <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {info.reason}
        </Typography>
      </Box>
      <Typography variant="body2" color="text.secondary">
        {t('reviews.summary.threshold', { points: formatMark(info.thresholdPoints, lang) })}
        {info.minChangePoints > 0 &&
          ` ${t('reviews.summary.minChange', { points: formatMark(info.minChangePoints, lang) })}`}
      </Typography>
      {rows.length > 0 && <MarkRows rows={rows} label={t('reviews.summary.title')} />}
      {info.decisionNote && (
        <Typography variant="body2">
          <strong>{t('reviews.summary.decision')}:</strong> {info.decisionNote}
        </Typography>
      )}
    </Stack>
  );
}
