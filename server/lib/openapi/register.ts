import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { createTransform, transformObject } from './describe.js';

/**
 * The API's description, made from the routes registered after this (tags by service, ids,
 * security from each route's guard, error responses, examples): `/api/docs/json`, browsable
 * at `/api/docs`.
 */
export async function registerApiDescription(app: FastifyInstance, prefix: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Podium API', version: '1' },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: `The token \`POST ${prefix}/auth-service/auth/login\` answers.`,
          },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: createTransform(prefix),
    transformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
}
