import Archive from '@mui/icons-material/Archive';
import Download from '@mui/icons-material/Download';
import { Alert, Box, Button, LinearProgress, Paper, Stack, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DiplomaJob, DiplomaJobRequest } from '../../../../shared/schemas/diplomas.js';
import { ApiError, api, apiBlob } from '../../api/client.js';
import { saveBlob } from '../../lib/download.js';
import { useSnackbar } from '../../lib/snackbar.js';

const JOBS = '/diploma-generator/jobs';
const jobsKey = ['diploma-jobs'] as const;
/** How often a running ZIP's progress is asked for. */
const POLL_MS = 1_000;

const isRunning = (job: DiplomaJob | undefined) =>
  job?.state === 'queued' || job?.state === 'running';

/**
 * A ZIP of diplomas made in the background: every diploma of a phase (organisers), or one
 * teacher's and their students' (`teacherId`). Shows the latest such job of the caller, its
 * progress while it runs (polled), and its file once done.
 */
export function DiplomaZipPanel({
  ids,
  teacherId,
  isClosed,
  title,
}: {
  ids: { examId: string; editionId: string; phaseId: string };
  teacherId?: string;
  /** Diplomas exist once the phase is closed; before, the panel says so. */
  isClosed: boolean;
  title?: string;
}) {
  const { t } = useTranslation();
  const { notify, notifyError } = useSnackbar();
  const queryClient = useQueryClient();
  const jobs = useQuery({
    queryKey: jobsKey,
    queryFn: () => api<DiplomaJob[]>(JOBS),
    enabled: isClosed,
  });
  const latest = jobs.data?.find(
    (j) => j.phaseId === ids.phaseId && (j.teacherId ?? undefined) === teacherId,
  );
  const progress = useQuery({
    queryKey: [...jobsKey, latest?._id],
    queryFn: () => api<DiplomaJob>(`${JOBS}/${latest?._id}`),
    enabled: isRunning(latest),
    refetchInterval: (q) => (isRunning(q.state.data) ? POLL_MS : false),
  });
  const job = progress.data?._id === latest?._id ? (progress.data ?? latest) : latest;
  if (latest && progress.data && !isRunning(progress.data) && isRunning(latest)) {
    // The list still shows it running: refresh it once it finished.
    void queryClient.invalidateQueries({ queryKey: jobsKey, exact: true });
  }

  const create = useMutation({
    mutationFn: (body: DiplomaJobRequest) => api<DiplomaJob>(JOBS, { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: jobsKey }),
  });
  const fetchFile = useMutation({
    mutationFn: async (j: DiplomaJob) => {
      const blob = await apiBlob(`${JOBS}/${j._id}/file`);
      saveBlob(blob, j.fileName ?? 'diplome.zip');
    },
  });

  const handleCreate = async () => {
    try {
      await create.mutateAsync({ ...ids, ...(teacherId ? { teacherId } : {}) });
      notify('diplomas.zip.started', 'info');
    } catch (e) {
      if (e instanceof ApiError && e.status === 403)
        notify('msg_no_rights_download_diploma', 'error');
      else notifyError(e, 'msg_failed_download_diploma');
    }
  };
  const handleDownload = async (j: DiplomaJob) => {
    try {
      await fetchFile.mutateAsync(j);
    } catch (e) {
      notifyError(e, 'msg_failed_download_diploma');
    }
  };

  const running = isRunning(job);
  const percent = job && job.total > 0 ? Math.round((job.done / job.total) * 100) : 0;
  return (
    <Paper sx={{ p: 2 }} component="section" aria-label={title ?? t('diplomas.zip.title')}>
      <Stack spacing={1.5}>
        <Typography variant="h6" component="h2">
          {title ?? t('diplomas.zip.title')}
        </Typography>
        {!isClosed ? (
          <Typography color="text.secondary">{t('diplomas.zip.afterClose')}</Typography>
        ) : (
          <>
            <Typography color="text.secondary">
              {teacherId ? t('diplomas.zip.teacherHint') : t('diplomas.zip.phaseHint')}
            </Typography>
            {job && running && (
              <Box>
                <LinearProgress
                  variant={job.total > 0 ? 'determinate' : 'indeterminate'}
                  value={percent}
                  aria-label={t('diplomas.zip.progressLabel')}
                />
                <Typography variant="body2" sx={{ mt: 0.5 }} role="status">
                  {job.state === 'queued'
                    ? t('diplomas.zip.queued')
                    : t('diplomas.zip.progress', {
                        done: job.done,
                        total: job.total,
                        count: job.total,
                      })}
                </Typography>
              </Box>
            )}
            {job?.state === 'failed' && (
              <Alert severity="error">
                {t(`errors.${job.errorCode ?? 'GENERAL_ERROR'}`, {
                  defaultValue: t('errors.GENERAL_ERROR'),
                })}
              </Alert>
            )}
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              <Button
                variant="outlined"
                startIcon={<Archive />}
                onClick={handleCreate}
                disabled={create.isPending || running}
              >
                {job ? t('diplomas.zip.makeAgain') : t('diplomas.zip.make')}
              </Button>
              {job?.state === 'done' && (
                <Button
                  variant="contained"
                  startIcon={<Download />}
                  onClick={() => handleDownload(job)}
                  disabled={fetchFile.isPending}
                >
                  {t('diplomas.zip.download', { count: job.total })}
                </Button>
              )}
            </Box>
          </>
        )}
      </Stack>
    </Paper>
  );
}
