import { Chip, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { QuestionListItem } from '../../../../../shared/schemas/questions.js';
import { disciplineLabel } from '../format.js';

/** The bank fields of a question as small chips: subject, grade, category, difficulty, type. */
export function QuestionMeta({ question }: { question: QuestionListItem }) {
  const { t } = useTranslation();
  const q = question;
  return (
    <Stack direction="row" useFlexGap spacing={0.75} sx={{ flexWrap: 'wrap' }}>
      {q.itemDiscipline && <Chip size="small" label={disciplineLabel(t, q.itemDiscipline)} />}
      {q.itemGrade !== undefined && <Chip size="small" label={t(`grades.${q.itemGrade}`)} />}
      {q.itemCategory && <Chip size="small" variant="outlined" label={q.itemCategory} />}
      {q.difficulty && (
        <Chip size="small" variant="outlined" label={t(`questions.difficulty.${q.difficulty}`)} />
      )}
      {q.itemType && (
        <Chip size="small" variant="outlined" label={t(`questions.types.${q.itemType}`)} />
      )}
      {q.inTest && <Chip size="small" color="info" label={t('questions.inTest')} />}
    </Stack>
  );
}
