import { Alert, AlertTitle } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { PhaseState } from '../../../../../shared/schemas/exams.js';
import type { ResultState } from '../../../../../shared/schemas/results.js';
import { formatDateTime } from '../format.js';

type Props = {
  scoreState: ResultState;
  phaseState: PhaseState;
  awaitingItems: number;
  runningAttempts: number;
  appealEndDate: string | null;
};

/**
 * Whether a ranking may still move, said plainly: questions still waiting for marking (or
 * students still writing), provisional while appeals may change scores, or final.
 */
export function RankingState(props: Props) {
  const { t, i18n } = useTranslation();
  if (props.scoreState === 'awaiting_marking') {
    const reasons = [
      props.awaitingItems > 0 && t('rankings.state.awaitingItems', { count: props.awaitingItems }),
      props.runningAttempts > 0 &&
        t('rankings.state.runningAttempts', { count: props.runningAttempts }),
    ].filter(Boolean);
    return (
      <Alert severity="warning" data-testid="ranking-state" data-state="awaiting_marking">
        <AlertTitle>{t('rankings.state.awaiting_marking')}</AlertTitle>
        {reasons.join(' ')} {t('rankings.state.awaitingHint')}
      </Alert>
    );
  }
  if (props.scoreState === 'provisional') {
    return (
      <Alert severity="info" data-testid="ranking-state" data-state="provisional">
        <AlertTitle>{t('rankings.state.provisional')}</AlertTitle>
        {props.appealEndDate
          ? t('rankings.state.provisionalUntil', {
              date: formatDateTime(props.appealEndDate, i18n.language),
            })
          : t('rankings.state.provisionalHint')}
      </Alert>
    );
  }
  return (
    <Alert severity="success" data-testid="ranking-state" data-state="final">
      <AlertTitle>{t('rankings.state.final')}</AlertTitle>
      {props.phaseState === 'closed'
        ? t('rankings.state.finalClosed')
        : t('rankings.state.finalHint')}
    </Alert>
  );
}
