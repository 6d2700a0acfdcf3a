import UploadFile from '@mui/icons-material/UploadFile';
import { Alert, Box, Button, LinearProgress, Paper, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PaperJob } from '../../../../../../shared/schemas/paper.js';
import { ApiError } from '../../../../api/client.js';
import type { TestIds } from '../../../../components/answer-files/paths.js';
import {
  forgetUpload,
  getJob,
  isRunning,
  paperKey,
  rememberedUpload,
  rememberUpload,
  SCAN_CHUNK_BYTES,
  sendChunk,
  startScan,
} from '../../api/paper.js';

/** Tries of one piece after the connection dropped, waiting 1, 2, 4… s (at most 30 s) between. */
const MAX_RETRIES = 8;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Upload = {
  fileName: string;
  size: number;
  sent: number;
  /** Bytes the server had already when this upload began (a resumed one). */
  resumedFrom: number;
  state: 'sending' | 'retrying' | 'done' | 'failed';
  errorCode?: string;
};

const megabytes = (bytes: number, lng: string) =>
  (bytes / (1024 * 1024)).toLocaleString(lng, { maximumFractionDigits: 1 });

/**
 * The scanner's file (a multi-page PDF or a ZIP of images, hundreds of megabytes) sent in
 * pieces with its progress; a dropped connection is waited out and the upload goes on from the
 * bytes the server has, and the same file chosen again after a reload resumes too. Then the
 * scan is read in the background: its progress in pages.
 */
export function ScanUploadPanel({ ids, jobs }: { ids: TestIds; jobs: readonly PaperJob[] }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [upload, setUpload] = useState<Upload | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);
  const scans = jobs.filter((j) => j.kind === 'scan' && j.state !== 'uploading').slice(0, 5);

  async function send(file: File) {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    let job: PaperJob | undefined;
    const remembered = rememberedUpload(ids.testId, file);
    if (remembered) {
      const known = await getJob(ids, remembered).catch(() => undefined);
      if (known?.state === 'uploading' && known.size === file.size) job = known;
    }
    try {
      if (!job) {
        job = await startScan(ids, file.name, file.size);
        rememberUpload(ids.testId, file, job._id);
      }
      let offset = job.received;
      const base = { fileName: file.name, size: file.size, resumedFrom: offset };
      setUpload({ ...base, sent: offset, state: 'sending' });
      let failures = 0;
      while (offset < file.size) {
        const end = Math.min(file.size, offset + SCAN_CHUNK_BYTES);
        const from = offset;
        try {
          const next = await sendChunk(
            ids,
            job._id,
            from,
            file.slice(from, end),
            (sent) => setUpload({ ...base, sent: from + sent, state: 'sending' }),
            controller.signal,
          );
          offset = next.received;
          failures = 0;
          setUpload({ ...base, sent: offset, state: 'sending' });
        } catch (e) {
          if (!(e instanceof ApiError)) throw e;
          const details = e.details as { received?: number; state?: string } | undefined;
          if (e.code === 'SCAN_OFFSET_MISMATCH' && typeof details?.received === 'number') {
            // The server has more (or less) than thought: go on from what it has.
            if (details.state !== 'uploading') break;
            offset = details.received;
            continue;
          }
          if (e.status !== 0 || failures >= MAX_RETRIES) throw e;
          failures += 1;
          setUpload({ ...base, sent: offset, state: 'retrying' });
          await sleep(Math.min(30_000, 1000 * 2 ** (failures - 1)));
          if (controller.signal.aborted) return;
          const now = await getJob(ids, job._id).catch(() => undefined);
          if (now) offset = now.received;
        }
      }
      forgetUpload(ids.testId, file);
      setUpload({ ...base, sent: file.size, state: 'done' });
      await queryClient.invalidateQueries({ queryKey: paperKey(ids.testId) });
    } catch (e) {
      if ((e as Error).name === 'AbortError') return;
      setUpload({
        fileName: file.name,
        size: file.size,
        sent: 0,
        resumedFrom: 0,
        state: 'failed',
        errorCode: e instanceof ApiError ? e.code : 'GENERAL_ERROR',
      });
    }
  }

  const busy = upload?.state === 'sending' || upload?.state === 'retrying';
  const percent = upload ? Math.floor((upload.sent / upload.size) * 100) : 0;
  return (
    <Paper sx={{ p: 2 }} component="section" aria-labelledby="paper-scan">
      <Stack spacing={1.5}>
        <Typography variant="h6" component="h2" id="paper-scan">
          {t('uploads.paper.scan.title')}
        </Typography>
        <Typography color="text.secondary">{t('uploads.paper.scan.hint')}</Typography>
        <Box>
          <input
            ref={input}
            type="file"
            accept=".pdf,.zip,application/pdf,application/zip"
            hidden
            aria-label={t('uploads.paper.scan.choose')}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void send(file);
            }}
          />
          <Button
            variant="contained"
            startIcon={<UploadFile />}
            onClick={() => input.current?.click()}
            disabled={busy}
          >
            {t('uploads.paper.scan.choose')}
          </Button>
        </Box>
        {upload && (
          <Box>
            <Typography variant="body2" sx={{ fontWeight: 500 }}>
              {upload.fileName}
            </Typography>
            {upload.state !== 'failed' && (
              <LinearProgress
                sx={{ my: 0.5, height: 8, borderRadius: 1 }}
                variant="determinate"
                value={percent}
                aria-label={t('uploads.paper.scan.progressLabel')}
              />
            )}
            <Typography variant="body2" role="status">
              {upload.state === 'done'
                ? t('uploads.paper.scan.sent', { size: megabytes(upload.size, i18n.language) })
                : upload.state === 'failed'
                  ? ''
                  : t('uploads.paper.scan.progress', {
                      sent: megabytes(upload.sent, i18n.language),
                      size: megabytes(upload.size, i18n.language),
                      percent,
                    })}
              {upload.resumedFrom > 0 && upload.state !== 'failed'
                ? ` · ${t('uploads.paper.scan.resumed', {
                    sent: megabytes(upload.resumedFrom, i18n.language),
                  })}`
                : ''}
            </Typography>
            {upload.state === 'retrying' && (
              <Alert severity="warning" sx={{ mt: 1 }}>
                {t('uploads.paper.scan.retrying')}
              </Alert>
            )}
            {upload.state === 'failed' && (
              <Alert severity="error" sx={{ mt: 1 }}>
                {t(`errors.${upload.errorCode ?? 'GENERAL_ERROR'}`, {
                  defaultValue: t('errors.GENERAL_ERROR'),
                })}{' '}
                {t('uploads.paper.scan.chooseAgain')}
              </Alert>
            )}
          </Box>
        )}
        {scans.length > 0 && (
          <Box component="ul" sx={{ m: 0, pl: 2.5 }} aria-label={t('uploads.paper.scan.list')}>
            {scans.map((job) => (
              <li key={job._id}>
                <Typography variant="body2" role={isRunning(job) ? 'status' : undefined}>
                  {job.fileName} ·{' '}
                  {job.state === 'done'
                    ? t('uploads.paper.scan.read', { count: job.total })
                    : job.state === 'failed'
                      ? `${t('uploads.paper.failed')}: ${t(`errors.${job.errorCode ?? 'GENERAL_ERROR'}`, { defaultValue: t('errors.GENERAL_ERROR') })}`
                      : job.state === 'queued'
                        ? t('uploads.paper.queued')
                        : t('uploads.paper.scan.reading', { count: job.done })}
                </Typography>
              </li>
            ))}
          </Box>
        )}
      </Stack>
    </Paper>
  );
}
