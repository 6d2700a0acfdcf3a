import { useQuery } from '@tanstack/react-query';
import type { ErrorBody } from '../../../../../shared/errors.js';
import type {
  PageMatch,
  PaperJob,
  PaperSeat,
  PaperSummary,
  ScanPage,
} from '../../../../../shared/schemas/paper.js';
import { API_BASE, ApiError, api, apiBlob, getSession } from '../../../api/client.js';
import {
  type TestIds,
  uploadsTestKey,
  uploadTestPath,
} from '../../../components/answer-files/paths.js';

/** `…/tests/{testId}/paper`: the paper exam of a hybrid test (shared/schemas/paper.ts). */
export const paperPath = (ids: TestIds) => `${uploadTestPath(ids)}/paper`;
export const paperKey = (testId: string) => [...uploadsTestKey(testId), 'paper'] as const;

/** How often running jobs and the pages they read are asked for. */
export const PAPER_POLL_MS = 1_500;
/**
 * A scan is sent in pieces of this size (the server takes up to 8 MiB): a dropped connection
 * loses at most one piece (seconds on a school's slow line), and 300 MB are 300 requests.
 */
export const SCAN_CHUNK_BYTES = 1024 * 1024;

export const isRunning = (job: PaperJob | undefined) =>
  job?.state === 'queued' || job?.state === 'running';

export const usePaperSeats = (ids: TestIds) =>
  useQuery({
    queryKey: [...paperKey(ids.testId), 'seats'],
    queryFn: () => api<PaperSeat[]>(`${paperPath(ids)}/seats`),
  });

/** The test's booklet and scan jobs, polled while one of them runs. */
export const usePaperJobs = (ids: TestIds) =>
  useQuery({
    queryKey: [...paperKey(ids.testId), 'jobs'],
    queryFn: () => api<PaperJob[]>(`${paperPath(ids)}/jobs`),
    refetchInterval: (q) => (q.state.data?.some(isRunning) ? PAPER_POLL_MS : false),
  });

export const usePaperPages = (ids: TestIds, polling: boolean) =>
  useQuery({
    queryKey: [...paperKey(ids.testId), 'pages'],
    queryFn: () => api<ScanPage[]>(`${paperPath(ids)}/pages`),
    refetchInterval: polling ? PAPER_POLL_MS : false,
  });

export const usePaperSummary = (ids: TestIds, polling: boolean) =>
  useQuery({
    queryKey: [...paperKey(ids.testId), 'summary'],
    queryFn: () => api<PaperSummary>(`${paperPath(ids)}/summary`),
    refetchInterval: polling ? PAPER_POLL_MS : false,
  });

export const requestBooklets = (ids: TestIds, room: string | undefined) =>
  api<PaperJob>(`${paperPath(ids)}/booklets`, {
    method: 'POST',
    body: room === undefined ? {} : { room },
  });

export const bookletsBlob = (ids: TestIds, jobId: string) =>
  apiBlob(`${paperPath(ids)}/jobs/${jobId}/file`);

export const pageImageBlob = (ids: TestIds, pageId: string) =>
  apiBlob(`${paperPath(ids)}/pages/${pageId}/image`);

export const matchPage = (ids: TestIds, pageId: string, body: PageMatch) =>
  api<ScanPage>(`${paperPath(ids)}/pages/${pageId}/match`, { method: 'POST', body });

export const setPageAside = (ids: TestIds, pageId: string) =>
  api<ScanPage>(`${paperPath(ids)}/pages/${pageId}/set-aside`, { method: 'POST' });

export const startScan = (ids: TestIds, fileName: string, size: number) =>
  api<PaperJob>(`${paperPath(ids)}/scans`, { method: 'POST', body: { fileName, size } });

export const getJob = (ids: TestIds, jobId: string) =>
  api<PaperJob>(`${paperPath(ids)}/jobs/${jobId}`);

/**
 * One piece of a scan, from `offset` on, with its bytes' progress as they leave
 * (XMLHttpRequest: fetch tells nothing of an upload's progress). A dropped connection is
 * ApiError status 0; the server's refusal is its code (SCAN_OFFSET_MISMATCH tells where to
 * resume in `details.received`).
 */
export function sendChunk(
  ids: TestIds,
  jobId: string,
  offset: number,
  chunk: Blob,
  onProgress: (sent: number) => void,
  signal?: AbortSignal,
): Promise<PaperJob> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', `${API_BASE}${paperPath(ids)}/scans/${jobId}`);
    const session = getSession();
    if (session) {
      xhr.setRequestHeader('authorization', `Bearer ${session.token}`);
      xhr.setRequestHeader('userid', session.userId);
    }
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('content-type', 'application/offset+octet-stream');
    xhr.setRequestHeader('upload-offset', String(offset));
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onerror = () => reject(new ApiError(0, 'GENERAL_ERROR', 'Network error'));
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body as PaperJob);
        return;
      }
      const err = (body as ErrorBody | undefined)?.error;
      reject(
        new ApiError(xhr.status, err?.code ?? 'GENERAL_ERROR', err?.message ?? '', err?.details),
      );
    };
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(chunk);
  });
}

/** Where an unfinished upload of this very file is remembered, to resume it after a reload. */
const resumeKey = (testId: string, file: File) =>
  `podium.scan.${testId}.${file.name}.${file.size}.${file.lastModified}`;

export const rememberUpload = (testId: string, file: File, jobId: string) => {
  try {
    localStorage.setItem(resumeKey(testId, file), jobId);
  } catch {
    // Private mode: the upload still resumes within the page.
  }
};
export const rememberedUpload = (testId: string, file: File) => {
  try {
    return localStorage.getItem(resumeKey(testId, file));
  } catch {
    return null;
  }
};
export const forgetUpload = (testId: string, file: File) => {
  try {
    localStorage.removeItem(resumeKey(testId, file));
  } catch {
    // Nothing remembered.
  }
};
