import { Alert, Button, LinearProgress } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../api/client.js';

/** A detail page still loading, or not found / not allowed (the server's 404 or 403). */
export function PageState({ error, back }: { error: unknown; back: string }) {
  const { t } = useTranslation();
  if (!error) return <LinearProgress aria-label={t('list.loading')} />;
  const code = error instanceof ApiError ? error.code : 'GENERAL_ERROR';
  return (
    <Alert
      severity={code === 'NOT_FOUND' ? 'warning' : 'error'}
      action={
        <Button component={Link} to={back} color="inherit" size="small">
          {t('common.back')}
        </Button>
      }
    >
      {t(`errors.${code}`, { defaultValue: t('errors.GENERAL_ERROR') })}
    </Alert>
  );
}
