import Cancel from '@mui/icons-material/Cancel';
import CheckCircle from '@mui/icons-material/CheckCircle';
import HelpOutline from '@mui/icons-material/HelpOutline';
import { Box, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { AnswerItem } from '../../../../../shared/schemas/uploads.js';
import { QuestionView } from '../../../components/statement/QuestionView.js';
import { formatScore } from '../../../lib/scores.js';
import { optionLetter } from '../format.js';

/** What the student submitted, as the screen names it: option letters or the typed value. */
function submittedText(submitted: number[] | string | null | undefined): string | null {
  if (submitted === null || submitted === undefined) return null;
  if (typeof submitted === 'string') return submitted.trim() === '' ? null : submitted;
  if (submitted.length === 0) return null;
  return [...submitted]
    .sort((a, b) => a - b)
    .map(optionLetter)
    .join(', ');
}

/**
 * An online item: the statement with its options (the correct one marked for those who may
 * see it), the student's submitted answer and the points it earned.
 */
export function OnlineAnswer({ item }: { item: AnswerItem }) {
  const { t, i18n } = useTranslation();
  const submitted = submittedText(item.answer?.submittedAnswer);
  const awarded = item.answer?.score ?? null;
  const isCorrect = awarded !== null && awarded > 0;
  const Icon =
    submitted === null || awarded === null ? HelpOutline : isCorrect ? CheckCircle : Cancel;
  const color = submitted === null || awarded === null ? 'action' : isCorrect ? 'success' : 'error';
  return (
    <Stack spacing={1.5}>
      <QuestionView
        itemQ={item.itemQ}
        itemType={item.itemType}
        itemAnswers={item.itemAnswers}
        itemCorrectAnswers={item.itemCorrectAnswers}
      />
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          flexWrap: 'wrap',
          p: 1.5,
          borderRadius: 1,
          bgcolor: 'action.hover',
        }}
      >
        <Icon color={color} fontSize="small" aria-hidden />
        <Typography sx={{ flex: 1 }}>
          <strong>{t('uploads.online.submitted')}:</strong>{' '}
          {submitted ?? (
            <Typography component="span" color="text.secondary">
              {t('uploads.online.none')}
            </Typography>
          )}
        </Typography>
        {awarded !== null && (
          <Typography variant="body2" sx={{ fontWeight: 500 }}>
            {t('uploads.online.awarded', {
              score: formatScore(awarded, i18n.language),
              total: formatScore(item.score, i18n.language),
            })}
          </Typography>
        )}
      </Box>
      {item.itemCorrectAnswers === undefined && (
        <Typography variant="body2" color="text.secondary">
          {t('uploads.online.correctHidden')}
        </Typography>
      )}
    </Stack>
  );
}
