import { Chip, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { QuestionTeacherRole } from '../question-teachers.js';

/**
 * The appeal role that comes with a question's role (SPEC.md §3: appeal reviewer and appeal
 * mediator): appeals on a question are re-marked by its reviewers and settled by its mediator,
 * so whoever is chosen here takes that role too.
 */
export function AppealRoleLabel({ role }: { role: QuestionTeacherRole }) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', my: 0.5 }}>
      <Chip
        size="small"
        variant="outlined"
        label={t(`questions.questionTeachers.appealRole_${role}`)}
      />
      <Typography variant="caption" color="text.secondary">
        {t(`questions.questionTeachers.appealRoleHint_${role}`)}
      </Typography>
    </Stack>
  );
}
