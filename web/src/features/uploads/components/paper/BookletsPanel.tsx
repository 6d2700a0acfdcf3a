import Download from '@mui/icons-material/Download';
import Print from '@mui/icons-material/Print';
import {
  Alert,
  Box,
  Button,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PaperJob, PaperSeat } from '../../../../../../shared/schemas/paper.js';
import type { TestIds } from '../../../../components/answer-files/paths.js';
import { SelectField } from '../../../../components/pickers/select-field.js';
import { saveBlob } from '../../../../lib/download.js';
import { useSnackbar } from '../../../../lib/snackbar.js';
import { bookletsBlob, isRunning, paperKey, requestBooklets } from '../../api/paper.js';

const ALL = '*';

/** The rooms the students sit in, in order; '' for students without a room yet. */
export const roomsOf = (seats: readonly PaperSeat[]) =>
  [...new Set(seats.map((s) => s.room))].sort((a, b) =>
    a.localeCompare(b, 'ro', { numeric: true }),
  );

/**
 * The answer booklets of a room (or of every student): asked for, made in the background with
 * its progress shown, then downloaded as one PDF to print.
 */
export function BookletsPanel({
  ids,
  seats,
  jobs,
  canManage,
}: {
  ids: TestIds;
  seats: readonly PaperSeat[];
  jobs: readonly PaperJob[];
  canManage: boolean;
}) {
  const { t } = useTranslation();
  const { notify, notifyError } = useSnackbar();
  const queryClient = useQueryClient();
  const rooms = roomsOf(seats).filter((r) => r !== '');
  const [room, setRoom] = useState<string>(rooms[0] ?? ALL);
  const booklets = jobs.filter((j) => j.kind === 'booklets').slice(0, 5);

  const create = useMutation({
    mutationFn: () => requestBooklets(ids, room === ALL ? undefined : room),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: paperKey(ids.testId) }),
  });
  const download = useMutation({
    mutationFn: async (job: PaperJob) =>
      saveBlob(await bookletsBlob(ids, job._id), job.fileName ?? 'caiete.pdf'),
  });

  const handleCreate = async () => {
    try {
      await create.mutateAsync();
      notify('uploads.paper.booklets.started', 'info');
    } catch (e) {
      notifyError(e);
    }
  };
  const handleDownload = async (job: PaperJob) => {
    try {
      await download.mutateAsync(job);
    } catch (e) {
      notifyError(e, 'msg_download_failed');
    }
  };
  const roomLabel = (r: string | null) =>
    r === null ? t('uploads.paper.allRooms') : r || t('uploads.paper.noRoom');

  return (
    <Paper sx={{ p: 2 }} component="section" aria-labelledby="paper-booklets">
      <Stack spacing={1.5}>
        <Typography variant="h6" component="h2" id="paper-booklets">
          {t('uploads.paper.booklets.title')}
        </Typography>
        <Typography color="text.secondary">{t('uploads.paper.booklets.hint')}</Typography>
        {canManage && (
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
            <SelectField
              size="small"
              sx={{ minWidth: 220 }}
              label={t('uploads.paper.room')}
              value={room}
              onChange={(v) => setRoom(v)}
              options={[
                ...rooms.map((r) => ({ value: r, label: r })),
                { value: ALL, label: t('uploads.paper.allRooms') },
              ]}
            />
            <Button
              variant="contained"
              startIcon={<Print />}
              onClick={handleCreate}
              disabled={create.isPending}
            >
              {t('uploads.paper.booklets.make')}
            </Button>
          </Box>
        )}
        {booklets.length > 0 && (
          <List dense aria-label={t('uploads.paper.booklets.list')}>
            {booklets.map((job) => (
              <ListItem
                key={job._id}
                disableGutters
                secondaryAction={
                  job.state === 'done' ? (
                    <Button
                      size="small"
                      startIcon={<Download />}
                      onClick={() => handleDownload(job)}
                      disabled={download.isPending}
                      aria-label={t('uploads.paper.booklets.downloadOf', {
                        room: roomLabel(job.room),
                      })}
                    >
                      {t('uploads.paper.booklets.download')}
                    </Button>
                  ) : undefined
                }
              >
                <ListItemText
                  primary={roomLabel(job.room)}
                  slotProps={{ secondary: { component: 'div' } }}
                  secondary={
                    <Box sx={{ pr: 14 }}>
                      {isRunning(job) && (
                        <LinearProgress
                          sx={{ my: 0.5 }}
                          variant={job.total > 0 ? 'determinate' : 'indeterminate'}
                          value={job.total > 0 ? (job.done / job.total) * 100 : 0}
                          aria-label={t('uploads.paper.booklets.progressOf', {
                            room: roomLabel(job.room),
                          })}
                        />
                      )}
                      <span role={isRunning(job) ? 'status' : undefined}>
                        {job.state === 'done'
                          ? t('uploads.paper.booklets.ready', { count: job.total })
                          : job.state === 'failed'
                            ? t('uploads.paper.failed')
                            : job.state === 'queued'
                              ? t('uploads.paper.queued')
                              : t('uploads.paper.booklets.progress', {
                                  done: job.done,
                                  total: job.total,
                                })}
                      </span>
                    </Box>
                  }
                />
              </ListItem>
            ))}
          </List>
        )}
        {booklets.some((j) => j.state === 'failed') && (
          <Alert severity="error">
            {t(
              `errors.${booklets.find((j) => j.state === 'failed')?.errorCode ?? 'GENERAL_ERROR'}`,
              {
                defaultValue: t('errors.GENERAL_ERROR'),
              },
            )}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
