import { Alert, Button, LinearProgress } from '@mui/material';
import { useTranslation } from 'react-i18next';

type ListQuery = {
  isPending: boolean;
  isError: boolean;
  data?: readonly unknown[] | undefined;
  refetch(): unknown;
};

/**
 * What a page says about a list it is loading: a progress bar while it loads, the error with
 * a retry button when it failed, and `empty` when it came back with nothing.
 */
export function QueryStatus({ query, empty }: { query: ListQuery; empty: string }) {
  const { t } = useTranslation();
  if (query.isPending) return <LinearProgress aria-label={t('list.loading')} />;
  if (query.isError)
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void query.refetch()}>
            {t('list.retry')}
          </Button>
        }
      >
        {t('list.loadError')}
      </Alert>
    );
  if (query.data?.length === 0) return <Alert severity="info">{empty}</Alert>;
  return null;
}
