import { Box, Button, Paper, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../lib/auth.js';
import { saveBlob } from '../../../lib/download.js';
import { useSnackbar } from '../../../lib/snackbar.js';
import { downloadMyData, type PersonalDataFormat } from '../api/download-my-data.js';

/**
 * The person's own copy of their data (GDPR access and portability): the profile, enrolments,
 * answers with their points, results, ranks and the audit events about them, as JSON, or as a
 * ZIP with the pages of their answers too.
 */
export function MyDataCard() {
  const { t } = useTranslation();
  const { user } = useAuth();
  // A student is addressed with "tu", everyone else with "dumneavoastră" (GLOSSARY.md).
  const context = user?.type === 'student' ? { context: 'student' } : {};
  const { notifyError } = useSnackbar();
  const [busy, setBusy] = useState<PersonalDataFormat | null>(null);

  const download = async (format: PersonalDataFormat) => {
    setBusy(format);
    try {
      saveBlob(await downloadMyData(format), `date-personale.${format}`);
    } catch (e) {
      notifyError(e, context.context ? 'profile.myData.error_student' : 'profile.myData.error');
    } finally {
      setBusy(null);
    }
  };

  return (
    <Paper sx={{ p: 3 }} component="section" aria-labelledby="my-data-title">
      <Typography id="my-data-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('profile.myData.title', context)}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('profile.myData.hint', context)}
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <Button variant="outlined" disabled={busy !== null} onClick={() => download('json')}>
          {t('profile.myData.json')}
        </Button>
        <Button variant="outlined" disabled={busy !== null} onClick={() => download('zip')}>
          {t('profile.myData.zip')}
        </Button>
      </Box>
    </Paper>
  );
}
