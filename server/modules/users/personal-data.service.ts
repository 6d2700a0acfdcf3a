import type { User } from '../../../shared/schemas/users.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import { forbidden, notFound } from '../../lib/errors.js';
import type { FileStorage } from '../../lib/files/storage.js';
import { buildZip, type ZipEntry } from '../../lib/files/zip.js';
import type { PersonalDataPart } from '../../lib/personal-data.js';
import { findUserById } from './users.repo.js';
import { describeUser } from './users.service.js';

/** The export's version: what a reader of an older or newer file can tell by. */
export const PERSONAL_DATA_FORMAT = 'podium-personal-data/1';
/** The JSON's name inside the ZIP, and the ZIP's and JSON's names when downloaded. */
export const PERSONAL_DATA_NAME = 'date-personale';

export type PersonalDataDeps = {
  db: Db;
  storage: Pick<FileStorage, 'get'>;
  /** Every module's part (server/lib/personal-data.ts), in the composition root's order. */
  parts: readonly PersonalDataPart[];
  now(): Date;
};

export type PersonalDataExport = {
  format: typeof PERSONAL_DATA_FORMAT;
  exportedAt: string;
  profile: User;
} & Record<string, unknown>;

/**
 * A person's data for a data-subject request: their profile and every module's part, as JSON
 * or as a ZIP with that JSON and the files of their answers. Admins export anyone; everyone
 * exports themselves (the profile page's download). Each export is audited.
 */
export function personalDataService(deps: PersonalDataDeps) {
  const { db, parts } = deps;

  async function gather(userId: string): Promise<PersonalDataExport | undefined> {
    const row = await findUserById(db, userId);
    if (!row || row.deletedAt) return undefined;
    const out: PersonalDataExport = {
      format: PERSONAL_DATA_FORMAT,
      exportedAt: deps.now().toISOString(),
      profile: await describeUser(db, row),
    };
    for (const part of parts) out[part.name] = await part.collect(db, userId);
    return out;
  }

  async function zipOf(userId: string, data: PersonalDataExport): Promise<Buffer> {
    const modifiedAt = deps.now();
    const entries: ZipEntry[] = [
      {
        name: `${PERSONAL_DATA_NAME}.json`,
        data: Buffer.from(JSON.stringify(data, null, 2)),
        modifiedAt,
      },
    ];
    for (const part of parts) {
      for (const file of (await part.files?.(db, userId)) ?? []) {
        entries.push({
          name: `${part.name}-${file.id}-${file.name}`,
          data: await deps.storage.get(file.storageKey),
          modifiedAt,
        });
      }
    }
    return buildZip(entries);
  }

  return {
    /** The person's data; `zip` adds their files. 404 for nobody, 403 for another's. */
    async exportOf(
      actor: Actor,
      userId: string,
      format: 'json' | 'zip',
    ): Promise<{ json: PersonalDataExport } | { zip: Buffer }> {
      if (actor.id !== userId && actor.type !== 'admin') throw forbidden();
      const data = await gather(userId);
      if (!data) throw notFound('user');
      await appendAudit(db, {
        actorId: actor.id,
        action: 'user.export',
        entityType: 'user',
        entityId: userId,
        after: { format },
      });
      return format === 'zip' ? { zip: await zipOf(userId, data) } : { json: data };
    },
  };
}

export type PersonalDataService = ReturnType<typeof personalDataService>;
