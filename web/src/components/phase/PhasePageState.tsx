import { Alert, Button, LinearProgress } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../api/client.js';

type Props = {
  error: unknown;
  /** Where "Back" leads. */
  back: string;
  /** The message for a 403 (default: the code's own). */
  forbiddenKey?: string;
};

/** A page still loading, or refused: not found (404), not allowed (403) or another failure. */
export function PhasePageState({ error, back, forbiddenKey }: Props) {
  const { t } = useTranslation();
  if (!error) return <LinearProgress aria-label={t('list.loading')} />;
  const code = error instanceof ApiError ? error.code : 'GENERAL_ERROR';
  const message =
    code === 'OPERATION_NOT_PERMITTED' && forbiddenKey
      ? t(forbiddenKey)
      : t(`errors.${code}`, { defaultValue: t('errors.GENERAL_ERROR') });
  return (
    <Alert
      severity={code === 'NOT_FOUND' ? 'warning' : 'error'}
      action={
        <Button component={Link} to={back} color="inherit" size="small">
          {t('common.back')}
        </Button>
      }
    >
      {message}
    </Alert>
  );
}
