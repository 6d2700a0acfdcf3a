import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { Config } from '../../config.js';
import { AppError } from '../errors.js';

/** Where file bytes live; metadata (names, owners, types) lives in the database. */
export type FileStorage = {
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /**
   * A new path on this machine's disk where a large file may be written (by a worker thread,
   * bit by bit) and then stored with `putFile`; where the storage is the local directory, on
   * its disk, so storing it is a rename.
   */
  scratchPath(): Promise<string>;
  /**
   * Removes scratch files last written before `before` and answers how many: what a process
   * stopped in the middle of writing one left behind (a finished one is moved by `putFile`).
   */
  removeScratchBefore(before: Date): Promise<number>;
  /** Stores a finished file of this machine's disk (flushed by its writer) and removes it. */
  putFile(key: string, file: string, contentType: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  /** The file as a stream with its size, for sending a large one without holding it whole. */
  read(key: string): Promise<{ stream: Readable; size: number }>;
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /**
   * Resolves when the storage answers and holds the configured bucket (or the directory is
   * usable); rejects with STORAGE_UNAVAILABLE saying why otherwise.
   */
  check(): Promise<void>;
  kind: 's3' | 'directory';
};

const KEY_RE = /^[a-z0-9][a-z0-9/_.-]{0,200}$/i;

/**
 * Keys are built by our code, never taken from users, so a strange key is a bug; rejecting
 * it here also keeps a local key from ever escaping the storage directory.
 */
export function assertValidKey(key: string): void {
  const isValid =
    KEY_RE.test(key) &&
    !key.includes('//') &&
    !key.endsWith('/') &&
    key.split('/').every((segment) => segment !== '.' && segment !== '..');
  if (!isValid) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
}

const missing = () => new AppError('NOT_FOUND', 'file not found');

/** Retryable: the storage did not answer, or not as configured. */
export const storageUnavailable = (why: string) =>
  new AppError('STORAGE_UNAVAILABLE', `File storage unavailable: ${why}`);

/** S3-compatible storage when S3_BUCKET is set, else the local directory DATA_DIR/files. */
export function createStorage(config: Config): FileStorage {
  return config.files.s3.bucket
    ? createS3Storage(
        config.files.s3,
        config.files.s3.bucket,
        config.files.timeoutSeconds,
        path.join(config.dataDir, 'tmp'),
      )
    : createLocalStorage(path.join(config.dataDir, 'files'));
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** A new file name in `dir` (made if missing), for a file written before it is stored. */
async function scratchFileIn(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  return path.join(dir, `${randomBytes(12).toString('hex')}.tmp`);
}

/** scratchFileIn's files in `dir` last written before `before`, removed; how many. */
async function removeScratchIn(dir: string, before: Date): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names.filter((n) => n.endsWith('.tmp'))) {
    const file = path.join(dir, name);
    try {
      const info = await stat(file);
      if (!info.isFile() || info.mtimeMs >= before.getTime()) continue;
      await unlink(file);
      removed += 1;
    } catch (error) {
      // Stored or removed by its writer meanwhile.
      if (errorCode(error) !== 'ENOENT') throw error;
    }
  }
  return removed;
}

function createLocalStorage(root: string): FileStorage {
  // Keys start with a letter or digit, so no key can reach this directory.
  const tmpDir = path.join(root, '.tmp');
  const fileOf = (key: string) => {
    assertValidKey(key);
    return path.join(root, ...key.split('/'));
  };

  return {
    kind: 'directory',
    async check() {
      try {
        await mkdir(tmpDir, { recursive: true });
      } catch (error) {
        throw storageUnavailable(`directory ${root}: ${errorCode(error) ?? 'unusable'}`);
      }
    },

    async put(key, data) {
      const target = fileOf(key);
      await mkdir(path.dirname(target), { recursive: true });
      const tmp = await scratchFileIn(tmpDir);
      try {
        const handle = await open(tmp, 'wx');
        try {
          await handle.writeFile(data);
          // Flushed before the rename: an upload we acknowledged must survive a power cut.
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(tmp, target);
      } catch (error) {
        await rm(tmp, { force: true });
        throw error;
      }
    },

    scratchPath: () => scratchFileIn(tmpDir),
    removeScratchBefore: (before) => removeScratchIn(tmpDir, before),

    async putFile(key, file) {
      try {
        const target = fileOf(key);
        await mkdir(path.dirname(target), { recursive: true });
        await rename(file, target);
      } catch (error) {
        await rm(file, { force: true });
        throw error;
      }
    },

    async read(key) {
      const file = fileOf(key);
      try {
        const handle = await open(file, 'r');
        try {
          const info = await handle.stat();
          if (!info.isFile()) throw missing();
          return { stream: handle.createReadStream(), size: info.size };
        } catch (error) {
          await handle.close();
          throw error;
        }
      } catch (error) {
        const code = errorCode(error);
        if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') throw missing();
        throw error;
      }
    },

    async get(key) {
      try {
        return await readFile(fileOf(key));
      } catch (error) {
        const code = errorCode(error);
        if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') throw missing();
        throw error;
      }
    },

    async delete(key) {
      try {
        await unlink(fileOf(key));
      } catch (error) {
        const code = errorCode(error);
        if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return;
        throw error;
      }
    },

    async exists(key) {
      try {
        return (await stat(fileOf(key))).isFile();
      } catch (error) {
        const code = errorCode(error);
        if (code === 'ENOENT' || code === 'ENOTDIR') return false;
        throw error;
      }
    },
  };
}

type S3Settings = Config['files']['s3'];

/** Never written: reading it tells whether the bucket is there and readable. */
const PROBE_KEY = 'podium-storage-check';

type S3Failure = { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };

/** A wrong bucket answers 404 like a missing file: it must never pass for one. */
const isNoSuchBucket = (error: unknown) => {
  const e = error as S3Failure;
  return e.name === 'NoSuchBucket' || e.Code === 'NoSuchBucket';
};

const isNotFound = (error: unknown) => {
  const e = error as S3Failure;
  if (isNoSuchBucket(error)) return false;
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/**
 * What the caller may retry: no answer in time, no connection, a 5xx, a wrong bucket or
 * credentials (the admin fixes the configuration). Other errors stay as they are.
 */
function asUnavailable(error: unknown, bucket: string): unknown {
  if (error instanceof AppError) return error;
  const e = error as S3Failure & { code?: string; message?: string };
  if (isNoSuchBucket(error)) return storageUnavailable(`no bucket ${bucket}`);
  const status = e.$metadata?.httpStatusCode;
  const network =
    e.name === 'TimeoutError' ||
    e.name === 'AbortError' ||
    (typeof e.code === 'string' &&
      /^(ECONN|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|EPIPE)/.test(e.code));
  if (network)
    return storageUnavailable(
      e.name === 'TimeoutError' ? 'no answer in time' : (e.code ?? 'no connection'),
    );
  if (status !== undefined && (status >= 500 || status === 403 || status === 401)) {
    return storageUnavailable(`${e.name ?? 'error'} (${status})`);
  }
  return error;
}

function createS3Storage(
  s3: S3Settings,
  bucket: string,
  timeoutSeconds: number,
  scratchDir: string,
): FileStorage {
  const ms = timeoutSeconds * 1000;
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: s3.forcePathStyle,
    credentials:
      s3.accessKeyId && s3.secretAccessKey
        ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }
        : undefined,
    // Many S3-compatible stores (older MinIO, Ceph, Garage) reject the SDK's default
    // flexible checksums; ask for them only where S3 requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // The SDK waits for ever on a storage that accepts connections and says nothing: connect
    // and each silence are bounded, and one retry at most, so a request fails in seconds.
    // (Its requestTimeout would only print a warning to the console: the silence is what
    // socketTimeout bounds, the whole call the deadline below.)
    requestHandler: new NodeHttpHandler({ connectionTimeout: ms, socketTimeout: ms }),
    maxAttempts: 2,
  });
  // A whole call (both attempts, a slow trickle of bytes) is bounded too.
  const deadline = () => ({ abortSignal: AbortSignal.timeout(ms * 4) });

  /** The object's answer, its body there; NOT_FOUND or STORAGE_UNAVAILABLE otherwise. */
  async function getObject(key: string) {
    assertValidKey(key);
    try {
      const result = await client.send(
        new GetObjectCommand({ Bucket: bucket, Key: key }),
        deadline(),
      );
      const { Body } = result;
      if (!Body) throw missing();
      return { ...result, Body };
    } catch (error) {
      if (isNotFound(error)) throw missing();
      throw asUnavailable(error, bucket);
    }
  }

  return {
    kind: 's3',
    async check() {
      try {
        // Reading a key that is not there answers NoSuchKey from the right bucket and
        // NoSuchBucket from a wrong one (a HEAD could not tell them apart), on every
        // S3-compatible store, with the rights the files themselves need.
        await client.send(new GetObjectCommand({ Bucket: bucket, Key: PROBE_KEY }), deadline());
      } catch (error) {
        if (isNotFound(error)) return;
        const status = (error as S3Failure).$metadata?.httpStatusCode;
        if (isNoSuchBucket(error)) throw storageUnavailable(`no bucket ${bucket}`);
        if (status === 403) {
          throw storageUnavailable(
            `bucket ${bucket} refused (403): check the keys and their rights`,
          );
        }
        const mapped = asUnavailable(error, bucket);
        throw mapped instanceof AppError
          ? mapped
          : storageUnavailable(String((error as S3Failure).name ?? error));
      }
    },

    async put(key, data, contentType) {
      assertValidKey(key);
      try {
        await client.send(
          new PutObjectCommand({ Bucket: bucket, Key: key, Body: data, ContentType: contentType }),
          deadline(),
        );
      } catch (error) {
        throw asUnavailable(error, bucket);
      }
    },

    scratchPath: () => scratchFileIn(scratchDir),
    removeScratchBefore: (before) => removeScratchIn(scratchDir, before),

    async putFile(key, file, contentType) {
      try {
        assertValidKey(key);
        const { size } = await stat(file);
        await client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: key,
            Body: createReadStream(file),
            ContentLength: size,
            ContentType: contentType,
          }),
          deadline(),
        );
      } catch (error) {
        throw asUnavailable(error, bucket);
      } finally {
        await rm(file, { force: true });
      }
    },

    async read(key) {
      const { Body, ContentLength } = await getObject(key);
      return { stream: Body as Readable, size: ContentLength ?? 0 };
    },

    async get(key) {
      const { Body } = await getObject(key);
      try {
        return Buffer.from(await Body.transformToByteArray());
      } catch (error) {
        throw asUnavailable(error, bucket);
      }
    },

    async delete(key) {
      assertValidKey(key);
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }), deadline());
      } catch (error) {
        // S3 itself answers 204 for a missing key; some compatible stores answer 404.
        if (!isNotFound(error)) throw asUnavailable(error, bucket);
      }
    },

    async exists(key) {
      assertValidKey(key);
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }), deadline());
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw asUnavailable(error, bucket);
      }
    },
  };
}
