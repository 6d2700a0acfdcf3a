import CheckCircle from '@mui/icons-material/CheckCircle';
import { alpha, Box, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ItemType } from '../../../../shared/schemas/questions.js';
import { Statement } from './Statement.js';

type Props = {
  itemQ: string;
  itemType: ItemType;
  itemAnswers: readonly string[];
  /** Indices (single/multiple) or the value (numeric); undefined hides the correct answer. */
  itemCorrectAnswers?: readonly number[] | string | null;
  /** Shown instead of an empty statement (the live preview of a new question). */
  emptyText?: string;
  /** Says that an open question is answered on paper and uploaded (false: typed online). */
  paperNote?: boolean;
};

const letter = (index: number) => String.fromCharCode(65 + index);

/**
 * A question as a reader sees it: the rendered statement, its options A, B, C… and, for
 * those who may see it, the correct answer marked.
 */
export function QuestionView({
  itemQ,
  itemType,
  itemAnswers,
  itemCorrectAnswers,
  emptyText,
  paperNote = true,
}: Props) {
  const { t } = useTranslation();
  const correct = Array.isArray(itemCorrectAnswers) ? itemCorrectAnswers : [];
  const showsCorrect = itemCorrectAnswers !== undefined;
  const hasOptions = itemType === 'single' || itemType === 'multiple';
  return (
    <Stack spacing={1.5}>
      {itemQ.trim() ? (
        <Statement markdown={itemQ} />
      ) : (
        <Typography color="text.secondary">{emptyText}</Typography>
      )}
      {hasOptions && itemAnswers.length > 0 && (
        <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 0.75 }}>
          {itemAnswers.map((answer, i) => {
            const isCorrect = showsCorrect && correct.includes(i);
            return (
              <Box
                component="li"
                // Options are positional: their index is their identity.
                // biome-ignore lint/suspicious/noArrayIndexKey: the letter is the option's name
                key={i}
                sx={(theme) => ({
                  display: 'flex',
                  alignItems: 'flex-start',
                  gap: 1,
                  px: 1,
                  py: 0.5,
                  borderRadius: 1,
                  border: 1,
                  borderColor: isCorrect ? 'success.main' : 'divider',
                  bgcolor: isCorrect ? alpha(theme.palette.success.main, 0.08) : undefined,
                })}
              >
                <Typography component="span" sx={{ fontWeight: 700, minWidth: 20 }}>
                  {letter(i)}.
                </Typography>
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  {answer.trim() ? (
                    <Statement markdown={answer} inline />
                  ) : (
                    <Typography color="text.disabled">…</Typography>
                  )}
                </Box>
                {isCorrect && (
                  <CheckCircle
                    color="success"
                    fontSize="small"
                    titleAccess={t('questionView.correct')}
                  />
                )}
              </Box>
            );
          })}
        </Box>
      )}
      {showsCorrect && itemType === 'numeric' && (
        <Typography>
          <strong>{t('questionView.correctValue')}:</strong> {String(itemCorrectAnswers ?? '')}
        </Typography>
      )}
      {itemType === 'open' && paperNote && (
        <Typography variant="body2" color="text.secondary">
          {t('questionView.openAnswer')}
        </Typography>
      )}
    </Stack>
  );
}
