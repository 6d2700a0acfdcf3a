import { createHash } from 'node:crypto';
import { IMAGE_FILE_TYPES, type StoredFile } from '../../../shared/schemas/questions.js';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../lib/auth-guard.js';
import { AppError, fieldError, notFound } from '../../lib/errors.js';
import { assertAllowedFile, detectFileType } from '../../lib/files/detect.js';
import { cleanFileName } from '../../lib/files/names.js';
import { insertFileRecords } from '../../lib/files/records.js';
import type { FileStorage } from '../../lib/files/storage.js';
import { uuidv7 } from '../../lib/ids.js';
import type { MultipartUpload } from '../../lib/multipart.js';
import { loadExamAccess } from '../exams/index.js';
import * as repo from './files.repo.js';
import { canReadFile } from './questions.policy.js';

export type FilesDeps = { db: Db; storage: FileStorage; maxBytes: number };

/** An uploaded part as the multipart reader hands it over. */
export type Upload = Pick<MultipartUpload, 'filename' | 'data' | 'truncated'>;

/** The name an image is kept under when the client's name has nothing usable left. */
export const IMAGE_NAME_FALLBACK = 'fisier';

const storageKey = (id: string) => `files/${id}`;

const isImageMime = (mime: string) => mime === 'image/png' || mime === 'image/jpeg';

export function filesService({ db, storage, maxBytes }: FilesDeps) {
  async function mayRead(actor: Actor, file: repo.FileRow, tx: Db = db): Promise<boolean> {
    const none = { examAccesses: [], isInOwnAttempt: false };
    if (canReadFile(actor, file, none)) return true;
    if (actor.type === 'student') {
      const isInOwnAttempt = await repo.isFileInStudentAttempt(tx, file.id, actor.id);
      return canReadFile(actor, file, { ...none, isInOwnAttempt });
    }
    const examIds = await repo.findExamsUsingFile(tx, file.id);
    const examAccesses = [];
    for (const id of examIds) examAccesses.push(await loadExamAccess(tx, actor, id));
    return canReadFile(actor, file, { ...none, examAccesses });
  }

  /**
   * Checks an image by its bytes (png or jpeg only: FILE_TYPE_NOT_ALLOWED, FILE_TOO_LARGE),
   * stores the bytes, then its metadata. The bytes are written first: a row never points at
   * nothing; a failed insert removes them again.
   */
  async function storeImage(actor: Actor, upload: Upload): Promise<repo.FileRow> {
    if (upload.truncated || upload.data.length > maxBytes) {
      throw new AppError('FILE_TOO_LARGE', `File larger than ${maxBytes} bytes`);
    }
    const type = await detectFileType(upload.data);
    assertAllowedFile(type, IMAGE_FILE_TYPES, upload.data.length, maxBytes);
    const id = uuidv7();
    await storage.put(storageKey(id), upload.data, type.mime);
    try {
      const [created] = await insertFileRecords(db, [
        {
          id,
          storageKey: storageKey(id),
          mime: type.mime,
          size: upload.data.length,
          sha256: createHash('sha256').update(upload.data).digest('hex'),
          ownerId: actor.id,
          originalName: cleanFileName(upload.filename, IMAGE_NAME_FALLBACK),
        },
      ]);
      if (!created) throw new Error('file not recorded');
      return created;
    } catch (error) {
      await storage.delete(storageKey(id)).catch(() => {});
      throw error;
    }
  }

  return {
    storeImage,

    /** `POST /files`: one stored image, its id, type and size. */
    async uploadImage(actor: Actor, uploads: Upload[]): Promise<StoredFile> {
      const [upload, ...others] = uploads;
      if (!upload) throw fieldError({ file: ['required'] }, 'No file');
      if (others.length > 0) throw fieldError({ file: ['too_long'] }, 'One file at a time');
      const row = await storeImage(actor, upload);
      return { _id: row.id, mime: row.mime, size: row.size };
    },

    /**
     * `GET /files/{id}`: the bytes, for the uploader, platform admins, the managers and staff
     * of an exam whose question shows the file, and a student whose own test shows it; anyone
     * else gets 404.
     */
    async readFile(actor: Actor, fileId: string): Promise<{ mime: string; data: Buffer }> {
      const file = await repo.findFile(db, fileId);
      if (!file || !(await mayRead(actor, file))) throw notFound('file');
      return { mime: file.mime, data: await storage.get(file.storageKey) };
    },

    /**
     * Guarantees that a question may show these files: each is a stored png/jpeg that the
     * actor may read (so nobody can show, and then read, an image of a bank they cannot see).
     * CLIENT_ERROR on `field` otherwise.
     */
    async assertUsableImages(actor: Actor, fileIds: readonly string[], field: string, tx: Db = db) {
      for (const fileId of fileIds) {
        const file = await repo.findFile(tx, fileId);
        if (!file || !isImageMime(file.mime) || !(await mayRead(actor, file, tx))) {
          throw fieldError({ [field]: ['invalid'] }, 'Unknown image');
        }
      }
    },

    /** An image as a data URL for the printed paper; undefined when missing or not an image. */
    async imageDataUrl(fileId: string): Promise<string | undefined> {
      const file = await repo.findFile(db, fileId);
      if (!file || !isImageMime(file.mime)) return undefined;
      // A storage that does not answer is STORAGE_UNAVAILABLE (retry later); bytes gone from
      // a reachable storage are a missing image. Neither may pass for "no image".
      const data = await storage.get(file.storageKey).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'NOT_FOUND') {
          throw new AppError('PAPER_IMAGE_MISSING', 'An image is missing from the file storage', {
            fileId,
          });
        }
        throw error;
      });
      return `data:${file.mime};base64,${data.toString('base64')}`;
    },
  };
}

export type FilesService = ReturnType<typeof filesService>;
