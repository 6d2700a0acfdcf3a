import CloudOff from '@mui/icons-material/CloudOff';
import { Alert, AlertTitle } from '@mui/material';
import { useTranslation } from 'react-i18next';

/**
 * No network: the student keeps working, answers wait on this device (DESIGN.md "Exam day").
 * Where the browser keeps nothing on the device, the student is told not to leave the page.
 */
export function OfflineBanner({
  durable,
  pendingCount,
}: {
  durable: boolean;
  pendingCount: number;
}) {
  const { t } = useTranslation();
  return (
    <Alert
      severity={durable ? 'warning' : 'error'}
      icon={<CloudOff />}
      data-testid="offline-banner"
      sx={{ alignItems: 'center' }}
    >
      <AlertTitle sx={{ mb: 0.25 }}>
        {t(durable ? 'player.offline.title' : 'player.offline.titleVolatile')}
      </AlertTitle>
      {t(durable ? 'player.offline.text' : 'player.offline.textVolatile')}
      {pendingCount > 0 && ` ${t('player.offline.pending', { count: pendingCount })}`}
    </Alert>
  );
}
