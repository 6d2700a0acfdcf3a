import CheckCircle from '@mui/icons-material/CheckCircle';
import { Box, Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ReviewQuestion } from '../../../../../shared/schemas/reviews.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { formatMark } from '../mark-form.js';
import type { EntryKind } from '../paths.js';
import { optionLetter } from './format.js';
import { ReviewStatement } from './ReviewStatement.js';

type Props = {
  ids: PhaseIds;
  kind: EntryKind;
  reviewId: string;
  question: ReviewQuestion;
  /** 'Întrebarea N' as the students had it. */
  title: string;
};

/** The question being marked: its statement, its options with the key, its points. */
export function QuestionPanel({ ids, kind, reviewId, question, title }: Props) {
  const { t, i18n } = useTranslation();
  const correct = Array.isArray(question.itemCorrectAnswers) ? question.itemCorrectAnswers : [];
  const hasOptions = question.itemType === 'single' || question.itemType === 'multiple';
  return (
    <Paper component="section" aria-label={t('reviews.question.title')} sx={{ p: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1, mb: 1 }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
          {title}
        </Typography>
        <Typography color="text.secondary" variant="body2">
          {t('reviews.question.points', { value: formatMark(question.maxScore, i18n.language) })}
        </Typography>
      </Box>
      <Box sx={{ maxHeight: { md: '32vh' }, overflow: 'auto', pr: 1 }}>
        <ReviewStatement ids={ids} kind={kind} reviewId={reviewId} markdown={question.itemQ} />
        {hasOptions && (
          <Stack component="ol" spacing={0.5} sx={{ listStyle: 'none', p: 0, mt: 1, mb: 0 }}>
            {question.itemAnswers.map((answer, i) => (
              <Box
                component="li"
                // biome-ignore lint/suspicious/noArrayIndexKey: options are positional
                key={i}
                sx={{
                  display: 'flex',
                  gap: 1,
                  alignItems: 'flex-start',
                  border: 1,
                  borderRadius: 1,
                  px: 1,
                  py: 0.5,
                  borderColor: correct.includes(i) ? 'success.main' : 'divider',
                }}
              >
                <strong>{optionLetter(i)}.</strong>
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <ReviewStatement ids={ids} kind={kind} reviewId={reviewId} markdown={answer} />
                </Box>
                {correct.includes(i) && (
                  <CheckCircle
                    color="success"
                    fontSize="small"
                    titleAccess={t('questionView.correct')}
                  />
                )}
              </Box>
            ))}
          </Stack>
        )}
        {question.itemType === 'numeric' && question.itemCorrectAnswers !== null && (
          <Typography sx={{ mt: 1 }}>
            <strong>{t('questionView.correctValue')}:</strong> {String(question.itemCorrectAnswers)}
          </Typography>
        )}
      </Box>
    </Paper>
  );
}
