import Key from '@mui/icons-material/Key';
import {
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Chip,
  Grid,
  Link,
  Stack,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OpenExam } from '../../../../shared/schemas/exams.js';
import { QueryStatus } from '../../components/QueryStatus.js';
import { useAuth } from '../../lib/auth.js';
import { useOpenExams } from './api/get-open-exams.js';
import { type SignUpAction, useChangeSignUp } from './api/register-open-exam.js';
import { CredentialsDialog } from './components/CredentialsDialog.js';
import { formatDateTime, subjectLabel } from './format.js';
import { useReport } from './use-report.js';

const MESSAGES = {
  register: { ok: 'message_register_success', failed: 'message_register_failed' },
  unregister: { ok: 'message_unregister_success', failed: 'message_unregister_failed' },
} as const;

/** /test/inscriere: competitions open for the student's grade, sign up or withdraw. */
export function SignUpPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const report = useReport();
  const openExams = useOpenExams();
  const change = useChangeSignUp();
  const [showCredentials, setShowCredentials] = useState(false);

  const handle = async (exam: OpenExam, action: SignUpAction) => {
    try {
      await change.mutateAsync({ id: exam._id, action });
      report.success(MESSAGES[action].ok);
    } catch (e) {
      report.failure(e, MESSAGES[action].failed);
    }
  };

  return (
    <Stack spacing={2}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Box sx={{ flex: 1, minWidth: 200 }}>
          <Typography variant="h5" component="h1">
            {t('exams.signUp.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {user?.grade === null || user?.grade === undefined
              ? t('exams.signUp.intro')
              : t('exams.signUp.introGrade', { grade: t(`grades.${user.grade}`) })}
          </Typography>
        </Box>
        <Button variant="outlined" startIcon={<Key />} onClick={() => setShowCredentials(true)}>
          {t('exams.signUp.viewCredentials')}
        </Button>
      </Box>
      <QueryStatus query={openExams} empty={t('exams.signUp.none')} />
      <Grid container spacing={2}>
        {openExams.data?.map((exam) => (
          <Grid key={exam._id} size={{ xs: 12, md: 6 }}>
            <OpenExamCard
              exam={exam}
              busy={change.isPending}
              onAction={(action) => void handle(exam, action)}
            />
          </Grid>
        ))}
      </Grid>
      <CredentialsDialog open={showCredentials} onClose={() => setShowCredentials(false)} />
    </Stack>
  );
}

type CardProps = { exam: OpenExam; busy: boolean; onAction: (action: SignUpAction) => void };

function OpenExamCard({ exam, busy, onAction }: CardProps) {
  const { t, i18n } = useTranslation();
  const title = `${exam.examName} — ${exam.editionName}`;
  return (
    <Card
      component="article"
      aria-label={title}
      sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
    >
      <CardContent sx={{ flex: 1 }}>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
          <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
            {exam.examName}
          </Typography>
          {exam.registered && (
            <Chip color="success" size="small" label={t('exams.signUp.registered')} />
          )}
        </Box>
        <Typography color="text.secondary">
          {exam.editionName}
          {/* "Ediția 2026 · 2026" says the year twice. */}
          {exam.year && !exam.editionName.includes(String(exam.year)) ? ` · ${exam.year}` : ''} ·{' '}
          {subjectLabel(exam.subject, t)}
        </Typography>
        <Typography sx={{ mt: 1 }}>
          {t('exams.signUp.phase', {
            name: exam.phaseName,
            start: formatDateTime(exam.startDate, i18n.language),
            end: formatDateTime(exam.endDate, i18n.language),
          })}
        </Typography>
        {exam.description && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1, whiteSpace: 'pre-line' }}>
            {exam.description}
          </Typography>
        )}
        {exam.termsUrl && (
          <Link
            href={exam.termsUrl}
            target="_blank"
            rel="noopener noreferrer"
            sx={{ display: 'inline-block', mt: 1 }}
          >
            {t('exams.editions.termsLink')}
          </Link>
        )}
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2 }}>
        {exam.registered ? (
          <Button
            variant="outlined"
            color="error"
            disabled={busy}
            onClick={() => onAction('unregister')}
          >
            {t('exams.signUp.unregister')}
          </Button>
        ) : (
          <Button variant="contained" disabled={busy} onClick={() => onAction('register')}>
            {t('exams.signUp.register')}
          </Button>
        )}
      </CardActions>
    </Card>
  );
}
