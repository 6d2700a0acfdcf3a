import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { homeSchema, searchQuerySchema, searchResultSchema } from '../../../shared/schemas/home.js';
import { actorOf, guard } from '../../lib/auth-guard.js';
import type { HomeService } from './home.service.js';
import type { SearchService } from './search.service.js';

const tags = ['home-service'];
// Any signed-in account: one waiting for activation gets an empty home (its menu only).
const signedIn = guard({ active: false, registered: false });

/** The signed-in person's home (`/api/v1/home-service/home`). */
export const homeRoutes =
  (home: HomeService, search: SearchService): FastifyPluginAsync =>
  async (app) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.get(
      '/home',
      {
        schema: {
          tags,
          description:
            'What to do next: a student’s next tests and results, a teacher’s students and marking left, an organiser’s phases in progress with what blocks each.',
          response: { 200: homeSchema },
        },
        preHandler: signedIn,
      },
      async (request) => home.home(actorOf(request)),
    );

    r.get(
      '/search',
      {
        schema: {
          tags,
          description:
            'People, competitions, phases, tests and questions the caller may see whose name (or statement) holds `q` (2–100 characters); up to 5 of each kind, grouped by kind.',
          querystring: searchQuerySchema,
          response: { 200: searchResultSchema },
        },
        preHandler: signedIn,
      },
      async (request) => search.search(actorOf(request), request.query.q),
    );
  };
