import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.js';
import type { FileStorage } from '../../lib/files/storage.js';
import { filesRoutes } from './files.routes.js';
import { filesService } from './files.service.js';
import { questionImportService } from './question-import.service.js';
import { questionTeachersService } from './question-teachers.service.js';
import { questionsRoutes } from './questions.routes.js';
import { questionsService } from './questions.service.js';

export type ResourceMgmtDeps = { db: Db; storage: FileStorage; maxBytes: number };

/**
 * The resource-mgmt services (SPEC.md §7 question and resource service), each with only what
 * it needs. Other modules take `questions` (questionsByIds, the question's teachersOf, missingQuestionTeachers) and
 * `files` (imageDataUrl) from here.
 */
export function resourceMgmt({ db, storage, maxBytes }: ResourceMgmtDeps) {
  const files = filesService({ db, storage, maxBytes });
  const questions = questionsService({ db, files });
  return {
    files,
    questions,
    teachers: questionTeachersService({ db, questions }),
    imports: questionImportService({ db, questions, files, maxBytes }),
    maxBytes,
  };
}

export type ResourceMgmt = ReturnType<typeof resourceMgmt>;

/** Every resource-mgmt route, to register under `/api/v1/resource-mgmt`. */
export const resourceMgmtRoutes =
  (resources: ResourceMgmt): FastifyPluginAsync =>
  async (app) => {
    await app.register(filesRoutes(resources.files, resources.maxBytes));
    await app.register(questionsRoutes(resources));
  };
