import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { AppError } from '../errors.js';
import { createStorage, type FileStorage } from './storage.js';

const BAD_KEYS = ['', '../x', 'a/../../x', '/abs', 'a//b', 'a/', '.hidden', 'a/./b', 'a b', 'ș'];

async function notFoundCode(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error instanceof AppError ? error.code : String(error);
  }
  return 'resolved';
}

/** Every file under a directory, relative to it. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

/** The behaviour both implementations must share. */
function storageContract(make: () => FileStorage) {
  it('stores, reads back, reports and deletes bytes', async () => {
    const storage = make();
    const data = Buffer.from([0, 1, 2, 255, 0x25, 0x50]);
    await storage.put('answers/t1/s1/item-1.pdf', data, 'application/pdf');
    expect(await storage.exists('answers/t1/s1/item-1.pdf')).toBe(true);
    expect(Buffer.compare(await storage.get('answers/t1/s1/item-1.pdf'), data)).toBe(0);
    const read = await storage.read('answers/t1/s1/item-1.pdf');
    expect(read.size).toBe(data.length);
    expect(Buffer.compare(Buffer.concat(await read.stream.toArray()), data)).toBe(0);

    const replaced = Buffer.from('second version');
    await storage.put('answers/t1/s1/item-1.pdf', replaced, 'application/pdf');
    expect((await storage.get('answers/t1/s1/item-1.pdf')).toString()).toBe('second version');

    await storage.delete('answers/t1/s1/item-1.pdf');
    expect(await storage.exists('answers/t1/s1/item-1.pdf')).toBe(false);
  });

  it('stores a file written on the disk under a key and removes the file', async () => {
    const storage = make();
    const file = await storage.scratchPath();
    const data = Buffer.alloc(3 * 1024 * 1024 + 7, 0x5a);
    data.write('PK', 0);
    await writeFile(file, data);
    await storage.putFile('diploma-jobs/j1-1.zip', file, 'application/zip');
    expect(Buffer.compare(await storage.get('diploma-jobs/j1-1.zip'), data)).toBe(0);
    expect(existsSync(file)).toBe(false);

    // A key that cannot be stored fails the call, and the file goes all the same.
    const other = await storage.scratchPath();
    expect(other).not.toBe(file);
    await writeFile(other, 'x');
    await expect(storage.putFile('../escape.zip', other, 'application/zip')).rejects.toThrow(
      /Invalid storage key/,
    );
    expect(existsSync(other)).toBe(false);
    await storage.delete('diploma-jobs/j1-1.zip');
  });

  it('removes scratch files left longer than asked, and only those', async () => {
    const storage = make();
    const stale = await storage.scratchPath();
    const fresh = await storage.scratchPath();
    await writeFile(stale, 'left by a process stopped mid-job');
    await writeFile(fresh, 'being written now');
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    await utimes(stale, twoDaysAgo, twoDaysAgo);
    const stored = path.join(path.dirname(stale), 'not-scratch.txt');
    await writeFile(stored, 'x');
    await utimes(stored, twoDaysAgo, twoDaysAgo);

    expect(await storage.removeScratchBefore(new Date(Date.now() - 86_400_000))).toBe(1);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect(existsSync(stored)).toBe(true);
    expect(await storage.removeScratchBefore(new Date(Date.now() - 86_400_000))).toBe(0);
    await rm(fresh);
    await rm(stored);
  });

  it('answers NOT_FOUND for a missing key and ignores deleting one', async () => {
    const storage = make();
    expect(await notFoundCode(storage.get('nothing/here.png'))).toBe('NOT_FOUND');
    expect(await notFoundCode(storage.read('nothing/here.png'))).toBe('NOT_FOUND');
    expect(await storage.exists('nothing/here.png')).toBe(false);
    await expect(storage.delete('nothing/here.png')).resolves.toBeUndefined();
  });

  it('rejects keys that could escape or confuse the store', async () => {
    const storage = make();
    for (const key of BAD_KEYS) {
      await expect(storage.put(key, Buffer.from('x'), 'text/plain'), key).rejects.toThrow(
        /Invalid storage key/,
      );
      await expect(storage.get(key), key).rejects.toThrow(/Invalid storage key/);
      await expect(storage.exists(key), key).rejects.toThrow(/Invalid storage key/);
      await expect(storage.delete(key), key).rejects.toThrow(/Invalid storage key/);
    }
    await expect(storage.put('a'.repeat(202), Buffer.from('x'), 'text/plain')).rejects.toThrow();
  });
}

describe('local storage', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'podium-files-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  storageContract(() => createStorage(loadConfig({ DATA_DIR: dataDir })));

  it('keeps files under DATA_DIR/files and leaves no temporary files behind', async () => {
    const storage = createStorage(loadConfig({ DATA_DIR: dataDir }));
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        storage.put(`diplomas/d${i % 5}.pdf`, Buffer.alloc(64 * 1024, i), 'application/pdf'),
      ),
    );
    await storage.put('x.png', Buffer.from('png'), 'image/png');
    const root = path.join(dataDir, 'files');
    expect(await listFiles(root)).toEqual([
      'diplomas/d0.pdf',
      'diplomas/d1.pdf',
      'diplomas/d2.pdf',
      'diplomas/d3.pdf',
      'diplomas/d4.pdf',
      'x.png',
    ]);
    // Concurrent writers to one key: the winner's bytes are whole, never a mix.
    const d0 = await storage.get('diplomas/d0.pdf');
    expect(d0.length).toBe(64 * 1024);
    expect(new Set(d0).size).toBe(1);
  });

  it('treats a folder as no file', async () => {
    const storage = createStorage(loadConfig({ DATA_DIR: dataDir }));
    await storage.put('folder/inner.pdf', Buffer.from('x'), 'application/pdf');
    expect(await storage.exists('folder')).toBe(false);
    expect(await notFoundCode(storage.get('folder'))).toBe('NOT_FOUND');
    expect(await notFoundCode(storage.read('folder'))).toBe('NOT_FOUND');
    expect(await notFoundCode(storage.get('folder/inner.pdf/more'))).toBe('NOT_FOUND');
  });
});

describe('S3 storage', () => {
  const objects = new Map<string, { body: Buffer; contentType: string | undefined }>();
  const requests: string[] = [];
  let server: Server;
  let endpoint: string;

  beforeAll(async () => {
    // Just enough path-style S3 for our four calls.
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const [, bucket, ...rest] = url.pathname.split('/');
      const key = rest.map(decodeURIComponent).join('/');
      requests.push(`${req.method} ${bucket}/${key}`);
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const id = `${bucket}/${key}`;
        const object = objects.get(id);
        if (req.method === 'PUT') {
          objects.set(id, {
            body: Buffer.concat(chunks),
            contentType: req.headers['content-type'],
          });
          res.writeHead(200, { etag: '"etag"' }).end();
        } else if (req.method === 'DELETE') {
          objects.delete(id);
          res.writeHead(204).end();
        } else if (!object) {
          res.writeHead(404, { 'content-type': 'application/xml' });
          res.end(
            req.method === 'HEAD'
              ? undefined
              : '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>',
          );
        } else {
          res.writeHead(200, {
            'content-type': object.contentType ?? 'application/octet-stream',
            'content-length': object.body.length,
          });
          res.end(req.method === 'HEAD' ? undefined : object.body);
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const make = () =>
    createStorage(
      loadConfig({
        DATA_DIR: path.join(tmpdir(), 'podium-unused'),
        S3_ENDPOINT: endpoint,
        S3_BUCKET: 'podium',
        S3_REGION: 'eu-central-1',
        S3_ACCESS_KEY_ID: 'test-key',
        S3_SECRET_ACCESS_KEY: 'test-secret',
        S3_FORCE_PATH_STYLE: 'true',
      }),
    );

  storageContract(make);

  it('talks path-style to the bucket and keeps the content type', async () => {
    requests.length = 0;
    await make().put('uploads/scan-1.png', Buffer.from('png'), 'image/png');
    expect(requests).toEqual(['PUT podium/uploads/scan-1.png']);
    expect(objects.get('podium/uploads/scan-1.png')?.contentType).toBe('image/png');

    const file = await make().scratchPath();
    await writeFile(file, 'zip');
    requests.length = 0;
    await make().putFile('diploma-jobs/j2-1.zip', file, 'application/zip');
    expect(requests).toEqual(['PUT podium/diploma-jobs/j2-1.zip']);
    expect(objects.get('podium/diploma-jobs/j2-1.zip')?.contentType).toBe('application/zip');
  });
});
