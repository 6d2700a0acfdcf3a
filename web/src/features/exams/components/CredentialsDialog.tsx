import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useCmsCredentials } from '../api/get-cms-credentials.js';
import { useReport } from '../use-report.js';

/** The student's user name and password on the programming judge, per edition. */
export function CredentialsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const report = useReport();
  const credentials = useCmsCredentials(open);
  const failed = open && credentials.isError;

  useEffect(() => {
    if (failed) report.failure(undefined, 'message_view_credentials_failed');
  }, [failed, report]);

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{t('exams.signUp.credentialsTitle')}</DialogTitle>
      <DialogContent>
        {credentials.isFetching && <LinearProgress aria-label={t('list.loading')} />}
        {failed && <Alert severity="error">{t('message_view_credentials_failed')}</Alert>}
        {credentials.data?.length === 0 && (
          <Typography color="text.secondary">{t('exams.signUp.noCredentials')}</Typography>
        )}
        {credentials.data && credentials.data.length > 0 && (
          <>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {t('exams.signUp.credentialsHint')}
            </Typography>
            <Table size="small" aria-label={t('exams.signUp.credentialsTitle')}>
              <TableHead>
                <TableRow>
                  <TableCell sx={{ fontWeight: 600 }}>{t('exams.signUp.competition')}</TableCell>
                  <TableCell sx={{ fontWeight: 600 }}>{t('exams.signUp.username')}</TableCell>
                  <TableCell sx={{ fontWeight: 600 }}>{t('exams.signUp.password')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {credentials.data.map((c) => (
                  <TableRow key={c.editionId}>
                    <TableCell>
                      {c.examName} — {c.editionName}
                    </TableCell>
                    <TableCell sx={{ fontFamily: 'monospace' }}>{c.username}</TableCell>
                    <TableCell sx={{ fontFamily: 'monospace' }}>{c.password}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
