import { Alert, AlertTitle, Checkbox, FormControlLabel } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { RuleOutcomeRow } from '../../../../../shared/schemas/rankings.js';
import { rowName } from '../format.js';

/**
 * The Bucharest students the sectors rule cannot place (their sector is not set), by name, and
 * the explicit choice to apply anyway: without it the server refuses (SECTOR_MISSING).
 */
export function MissingSectors(props: {
  students: RuleOutcomeRow[];
  accepted: boolean;
  onAccept: (accepted: boolean) => void;
}) {
  const { t } = useTranslation();
  if (props.students.length === 0) return null;
  return (
    <Alert severity="warning" data-testid="missing-sectors">
      <AlertTitle>
        {t('rankings.sectors.missingTitle', { count: props.students.length })}
      </AlertTitle>
      {t('rankings.sectors.missingText')}{' '}
      {props.students
        .map((s) =>
          s.studentGrade === null ? rowName(s) : `${rowName(s)} (${t(`grades.${s.studentGrade}`)})`,
        )
        .join(', ')}
      <FormControlLabel
        sx={{ display: 'flex', mt: 1 }}
        control={
          <Checkbox checked={props.accepted} onChange={(e) => props.onAccept(e.target.checked)} />
        }
        label={t('rankings.sectors.accept')}
      />
    </Alert>
  );
}
