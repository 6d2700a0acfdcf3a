import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { storedFileSchema } from '../../../shared/schemas/questions.js';
import { actorOf, guard } from '../../lib/auth-guard.js';
import { idParams } from '../../lib/route-params.js';
import type { FilesService } from './files.service.js';
import { bytesSchema, readQuestionMultipart } from './questions.http.js';

const tags = ['resource-mgmt'];
// Statement images are uploaded by the people who write questions.
const teachersAndAdmins = guard({ roles: ['teacher', 'admin'] });

/**
 * `POST /files` (images for statements: png or jpeg by content) and `GET /files/{id}`.
 * Reading is for the uploader, platform admins, the managers and staff of an exam whose
 * question shows the file, and a student whose own test shows it; anyone else gets 404.
 * Never public: the printed paper is rendered on the server with the images inlined.
 */
export const filesRoutes =
  (files: FilesService, maxBytes: number): FastifyPluginAsync =>
  async (app) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.post(
      '/files',
      {
        schema: {
          errors: ['FILE_TYPE_NOT_ALLOWED'],
          tags,
          description: 'Multipart `file`: one png or jpeg (checked from the bytes).',
          multipart: {
            files: {
              file: {
                description: 'The image, png or jpeg (`image` is taken as the same part).',
                required: true,
              },
            },
          },
          response: { 200: storedFileSchema },
        },
        preHandler: teachersAndAdmins,
      },
      async (request) => {
        const { uploads } = await readQuestionMultipart(request, ['file', 'image'], maxBytes);
        return files.uploadImage(actorOf(request), uploads);
      },
    );

    r.get(
      '/files/:id',
      {
        schema: { tags, params: idParams, response: { 200: bytesSchema } },
        // Students included: the player shows them the images of their own test.
        preHandler: guard(),
      },
      async (request, reply) => {
        const file = await files.readFile(actorOf(request), request.params.id);
        return reply
          .header('content-type', file.mime)
          .header('content-disposition', 'inline')
          .header('cache-control', 'private, max-age=3600')
          .send(file.data);
      },
    );
  };
