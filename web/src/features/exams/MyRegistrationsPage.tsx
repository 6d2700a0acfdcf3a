import HowToReg from '@mui/icons-material/HowToReg';
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { ExternalRegistration } from '../../../../shared/schemas/exams.js';
import { useMyRegistrations } from './api/get-my-registrations.js';
import { useOpenExams } from './api/get-open-exams.js';
import { useChangeSignUp } from './api/register-open-exam.js';
import { SimpleTable } from './components/SimpleTable.js';
import { formatDate, subjectLabel } from './format.js';
import { useReport } from './use-report.js';

/**
 * /examene for a student: the competitions they are enrolled in (GET /external-registrations).
 * Withdrawing is offered where SPEC.md §6 and the server allow it: while the edition still
 * takes sign-ups (it is among the open competitions); after that the row says so.
 */
export function MyRegistrationsPage() {
  const { t, i18n } = useTranslation();
  const report = useReport();
  const registrations = useMyRegistrations();
  const openExams = useOpenExams();
  const change = useChangeSignUp();
  const canWithdraw = (r: ExternalRegistration) =>
    (openExams.data ?? []).some((o) => o._id === r.editionId && o.registered);

  const handleWithdraw = async (r: ExternalRegistration) => {
    try {
      await change.mutateAsync({ id: r.editionId, action: 'unregister' });
      report.success('message_unregister_success');
    } catch (e) {
      report.failure(e, 'message_unregister_failed');
    }
  };

  return (
    <Stack spacing={2}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Box sx={{ flex: 1, minWidth: 200 }}>
          <Typography variant="h5" component="h1">
            {t('exams.mine.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('exams.mine.intro')}
          </Typography>
        </Box>
        <Button
          variant="outlined"
          startIcon={<HowToReg />}
          component={RouterLink}
          to="/test/inscriere"
        >
          {t('exams.mine.signUp')}
        </Button>
      </Box>
      <Paper sx={{ p: { xs: 1, sm: 2 } }}>
        <SimpleTable<ExternalRegistration>
          label={t('exams.mine.title')}
          rows={registrations.data}
          error={registrations.isError}
          rowKey={(r) => r.editionId}
          emptyText={t('exams.mine.none')}
          columns={[
            { id: 'exam', label: t('exams.mine.fields.exam'), render: (r) => r.examName },
            {
              id: 'edition',
              label: t('exams.mine.fields.edition'),
              render: (r) =>
                r.year && !r.editionName.includes(String(r.year))
                  ? `${r.editionName} · ${r.year}`
                  : r.editionName,
            },
            {
              id: 'subject',
              label: t('exams.fields.subject'),
              render: (r) => subjectLabel(r.subject, t),
            },
            {
              id: 'grade',
              label: t('exams.mine.fields.grade'),
              render: (r) => (r.grade === null ? '' : t(`grades.${r.grade}`)),
            },
            {
              id: 'centre',
              label: t('exams.mine.fields.centre'),
              render: (r) => r.studentCentre ?? '',
            },
            {
              id: 'since',
              label: t('exams.mine.fields.since'),
              render: (r) => formatDate(r.createdAt, i18n.language),
            },
            {
              id: 'action',
              label: t('exams.mine.fields.action'),
              render: (r) =>
                canWithdraw(r) ? (
                  <Button
                    size="small"
                    color="error"
                    variant="outlined"
                    disabled={change.isPending}
                    aria-label={t('exams.mine.withdrawFrom', { name: r.examName })}
                    onClick={() => void handleWithdraw(r)}
                  >
                    {t('exams.signUp.unregister')}
                  </Button>
                ) : (
                  <Typography variant="body2" color="text.secondary">
                    {t('exams.mine.closed')}
                  </Typography>
                ),
            },
          ]}
        />
      </Paper>
    </Stack>
  );
}
