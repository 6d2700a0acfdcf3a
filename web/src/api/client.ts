import type { ErrorBody, ErrorCode, FieldErrors, ValidationIssue } from '../../../shared/errors.js';
import { DEVICE_HEADER } from '../../../shared/schemas/auth-values.js';
import { deviceToken } from '../lib/device.js';
import { readLocal, STORAGE_KEYS, writeLocal } from '../lib/storage.js';

export const API_BASE = '/api/v1';

export type StoredSession = { token: string; userId: string };

export const getSession = () => readLocal<StoredSession | null>(STORAGE_KEYS.session, null);
export const setSession = (s: StoredSession | null) =>
  writeLocal(STORAGE_KEYS.session, s ?? undefined);

/** A failed call: the server's code (or GENERAL_ERROR when there was no usable answer). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: unknown;

  constructor(status: number, code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }

  /** Field → codes, from CLIENT_ERROR's map or VALIDATION_FAILED's list (last path segment). */
  get fieldErrors(): FieldErrors {
    // CLIENT_ERROR, and codes such as TEACHER_CODE_NOT_FOUND, carry a field → codes map.
    if (this.details && typeof this.details === 'object' && !Array.isArray(this.details)) {
      const entries = Object.entries(this.details).filter(([, v]) => Array.isArray(v));
      return Object.fromEntries(entries) as FieldErrors;
    }
    if (this.code === 'VALIDATION_FAILED' && Array.isArray(this.details)) {
      const out: FieldErrors = {};
      for (const issue of this.details as ValidationIssue[]) {
        const field = issue.path.at(-1);
        if (typeof field !== 'string') continue;
        out[field] = [...(out[field] ?? []), issue.code];
      }
      return out;
    }
    return {};
  }
}

type Unauthorized = () => void;
let onUnauthorized: Unauthorized = () => {};
/** The app decides what a 401 means (SPEC.md §7: go to /deconectare). */
export const setUnauthorizedHandler = (fn: Unauthorized) => {
  onUnauthorized = fn;
};

type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | object | undefined>;
  /** Skip the 401 redirect (the auth check itself handles a dead session). */
  quiet401?: boolean;
  /** Send this browser's token (calls that sign in: a known browser is never made to wait). */
  device?: boolean;
  signal?: AbortSignal;
};

function buildUrl(path: string, query?: RequestOptions['query']): string {
  const url = `${API_BASE}${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    params.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const session = getSession();
  const headers: Record<string, string> = { accept: 'application/json' };
  if (session) {
    headers.authorization = `Bearer ${session.token}`;
    headers.userid = session.userId;
  }
  if (options.device) headers[DEVICE_HEADER] = deviceToken();
  const isForm = options.body instanceof FormData;
  if (options.body !== undefined && !isForm) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body: isForm
        ? (options.body as FormData)
        : options.body === undefined
          ? undefined
          : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError(0, 'GENERAL_ERROR', 'Network error');
  }
  if (res.ok) return res;
  if (res.status === 401 && !options.quiet401) onUnauthorized();
  let parsed: ErrorBody | undefined;
  try {
    parsed = (await res.json()) as ErrorBody;
  } catch {
    parsed = undefined;
  }
  const err = parsed?.error;
  throw new ApiError(
    res.status,
    err?.code ?? (res.status === 401 ? 'UNAUTHORIZED' : 'GENERAL_ERROR'),
    err?.message ?? res.statusText,
    err?.details,
  );
}

/** JSON call to the API; throws ApiError. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const res = await send(path, options);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Binary download from the API (spreadsheets, PDFs). */
export async function apiBlob(path: string, options: RequestOptions = {}): Promise<Blob> {
  const res = await send(path, options);
  return res.blob();
}
