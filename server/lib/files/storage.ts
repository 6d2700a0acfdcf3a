import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { Config } from '../../config.js';
import { AppError } from '../errors.js';

/** Where file bytes live; metadata (names, owners, types) lives in the database. */
export type FileStorage = {
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
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

/** S3-compatible storage when S3_BUCKET is set, else the local directory DATA_DIR/files. */
export function createStorage(config: Config): FileStorage {
  return config.files.s3.bucket
    ? createS3Storage(config.files.s3, config.files.s3.bucket)
    : createLocalStorage(path.join(config.dataDir, 'files'));
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

function createLocalStorage(root: string): FileStorage {
  // Keys start with a letter or digit, so no key can reach this directory.
  const tmpDir = path.join(root, '.tmp');
  const fileOf = (key: string) => {
    assertValidKey(key);
    return path.join(root, ...key.split('/'));
  };

  return {
    async put(key, data) {
      const target = fileOf(key);
      await mkdir(path.dirname(target), { recursive: true });
      await mkdir(tmpDir, { recursive: true });
      const tmp = path.join(tmpDir, `${randomBytes(12).toString('hex')}.tmp`);
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

const isNotFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

function createS3Storage(s3: S3Settings, bucket: string): FileStorage {
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
  });

  return {
    async put(key, data, contentType) {
      assertValidKey(key);
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: data, ContentType: contentType }),
      );
    },

    async get(key) {
      assertValidKey(key);
      try {
        const result = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        if (!result.Body) throw missing();
        return Buffer.from(await result.Body.transformToByteArray());
      } catch (error) {
        if (isNotFound(error)) throw missing();
        throw error;
      }
    },

    async delete(key) {
      assertValidKey(key);
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      } catch (error) {
        // S3 itself answers 204 for a missing key; some compatible stores answer 404.
        if (!isNotFound(error)) throw error;
      }
    },

    async exists(key) {
      assertValidKey(key);
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },
  };
}
