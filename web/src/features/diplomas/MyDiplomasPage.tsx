import PictureAsPdf from '@mui/icons-material/PictureAsPdf';
import {
  Box,
  Button,
  Chip,
  List,
  ListItem,
  ListItemText,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { editionAfterWord } from '../../../../shared/editions.js';
import type { MyDiploma } from '../../../../shared/schemas/diplomas.js';
import { ApiError } from '../../api/client.js';
import { DiplomaZipPanel } from '../../components/diplomas/DiplomaZipPanel.js';
import { QueryStatus } from '../../components/QueryStatus.js';
import { useAuth } from '../../lib/auth.js';
import { saveBlob } from '../../lib/download.js';
import { useSnackbar } from '../../lib/snackbar.js';
import { useDownloadDiploma } from './api/download-diploma.js';
import { useMyDiplomas } from './api/get-my-diplomas.js';

/** Codes that say more than "the download failed". */
const TELLING = new Set(['RESULTS_NOT_FINAL', 'PDF_UNAVAILABLE', 'NOT_FOUND']);

type PhaseGroup = { key: string; first: MyDiploma; rows: MyDiploma[] };

function groupByPhase(rows: readonly MyDiploma[]): PhaseGroup[] {
  const groups = new Map<string, PhaseGroup>();
  for (const row of rows) {
    const group = groups.get(row.phaseId) ?? { key: row.phaseId, first: row, rows: [] };
    group.rows.push(row);
    groups.set(row.phaseId, group);
  }
  return [...groups.values()];
}

/**
 * /diploma (a student's diplomas) and /diploma/teacher (a teacher's own and their students'):
 * each phase with a result, its distinction, and the PDF once the phase is closed. Teachers
 * also get their students' diplomas of a phase as one ZIP.
 */
export function MyDiplomasPage({ view }: { view: 'student' | 'teacher' }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const diplomas = useMyDiplomas();
  const download = useDownloadDiploma();
  const { notify, notifyError } = useSnackbar();

  const handleDownload = async (d: MyDiploma) => {
    // Opened at once so the browser lets it through; the PDF fills it when it arrives.
    const win = window.open('', '_blank');
    try {
      const blob = await download.mutateAsync({
        ids: { examId: d.examId, editionId: d.editionId, phaseId: d.phaseId, userId: d.userId },
        userType: user?.type ?? view,
      });
      const pdf = new Blob([blob], { type: 'application/pdf' });
      if (win) win.location.href = URL.createObjectURL(pdf);
      else saveBlob(pdf, `diploma-${d.familyName ?? ''}-${d.givenName ?? ''}.pdf`);
    } catch (e) {
      win?.close();
      if (e instanceof ApiError && e.status === 403)
        notify('msg_no_rights_download_diploma', 'error');
      else if (e instanceof ApiError && TELLING.has(e.code)) notifyError(e);
      else notify('msg_failed_download_diploma', 'error');
    }
  };

  const prizeOf = (d: MyDiploma) =>
    d.kind === 'teacher'
      ? t('diplomas.kind.teacher')
      : d.prize
        ? t(`diplomas.prize.${d.prize}`)
        : t('diplomas.prize.none');

  const groups = groupByPhase(diplomas.data ?? []);
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box>
        <Typography variant="h5" component="h1">
          {view === 'teacher' ? t('pages.diplomaTeacher') : t('pages.diploma')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {view === 'teacher' ? t('diplomas.teacherIntro') : t('diplomas.intro')}
        </Typography>
      </Box>
      <QueryStatus query={diplomas} empty={t('diplomas.none')} />
      {groups.map(({ key, first, rows }) => (
        <Stack key={key} spacing={1}>
          <Paper sx={{ p: 2 }} component="section" aria-label={first.phaseName}>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
              <Typography variant="h6" component="h2" sx={{ flex: 1, minWidth: 200 }}>
                {first.examName}
              </Typography>
              <Chip
                size="small"
                color={first.available ? 'success' : 'default'}
                label={first.available ? t('diplomas.final') : t('diplomas.notYet')}
              />
            </Box>
            <Typography variant="body2" color="text.secondary">
              {t('diplomas.phaseLine', {
                phase: first.phaseName,
                edition: editionAfterWord(first.editionName),
              })}
            </Typography>
            <List dense>
              {rows.map((d) => (
                <ListItem
                  key={`${d.kind}-${d.userId}`}
                  disableGutters
                  secondaryAction={
                    <Button
                      size="small"
                      variant={d.available ? 'contained' : 'outlined'}
                      startIcon={<PictureAsPdf />}
                      disabled={!d.available || download.isPending}
                      onClick={() => handleDownload(d)}
                      aria-label={t('diplomas.downloadFor', {
                        name: [d.givenName, d.familyName].filter(Boolean).join(' '),
                      })}
                    >
                      {t('diplomas.download')}
                    </Button>
                  }
                  // Room for the button, whose name begins with the words it shows (WCAG 2.5.3).
                  sx={{ pr: 24 }}
                >
                  <ListItemText
                    primary={
                      view === 'teacher'
                        ? [d.givenName, d.familyName].filter(Boolean).join(' ')
                        : prizeOf(d)
                    }
                    secondary={[
                      view === 'teacher' ? prizeOf(d) : null,
                      d.grade === null ? null : t(`grades.${d.grade}`),
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  />
                </ListItem>
              ))}
            </List>
            {!first.available && (
              <Typography variant="body2" color="text.secondary">
                {t('errors.RESULTS_NOT_FINAL')}
              </Typography>
            )}
          </Paper>
          {view === 'teacher' && user && first.available && (
            <DiplomaZipPanel
              ids={{ examId: first.examId, editionId: first.editionId, phaseId: first.phaseId }}
              teacherId={user._id}
              isClosed={first.available}
              title={t('diplomas.zip.teacherTitle', { phase: first.phaseName })}
            />
          )}
        </Stack>
      ))}
    </Box>
  );
}
