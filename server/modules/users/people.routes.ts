import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { userSchema } from '../../../shared/schemas/users.js';
import type { Config } from '../../config.js';
import { actorOf, guard } from '../../lib/auth-guard.js';
import { siteOrigin } from '../../lib/origin.js';
import { idParams } from '../../lib/route-params.js';
import type { OriginOf } from './people.http.js';
import type { PeopleService } from './people.service.js';
import { studentsRoutes } from './students.routes.js';
import { teachersRoutes } from './teachers.routes.js';

/** The people lists of user-mgmt (students, teachers) and anonymising an account. */
export const peopleRoutes =
  (people: PeopleService, config: Config): FastifyPluginAsync =>
  async (app) => {
    const originOf: OriginOf = siteOrigin(config);
    await app.register(studentsRoutes(people, originOf));
    await app.register(teachersRoutes(people, originOf));

    const r = app.withTypeProvider<ZodTypeProvider>();
    r.post(
      '/users/:id/anonymise',
      {
        schema: {
          errors: ['USER_HAS_RESULTS'],
          tags: ['user-mgmt'],
          description:
            'Admins only. Refused with USER_HAS_RESULTS (details: reason open_marking_work, ' +
            'openMarks, pendingMediations) while the person has marks not given or mediations ' +
            'waiting; once done, they are out of every question pool.',
          params: idParams,
          response: { 200: userSchema },
        },
        preHandler: guard({ roles: ['admin'] }),
      },
      async (request) => people.anonymise(actorOf(request), request.params.id),
    );
  };
