import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  markedReadSchema,
  notificationParamsSchema,
  notificationsPageSchema,
} from '../../../shared/schemas/notifications.js';
import { actorOf, guard } from '../../lib/auth-guard.js';
import type { NotificationsService } from './notifications.service.js';

const tags = ['notification-service'];
// Any signed-in account: an inactive one is told when it is activated.
const signedIn = guard({ active: false, registered: false });

/** The bell (`/api/v1/notification-service/notifications`): one's own notifications only. */
export const notificationsRoutes =
  (notifications: NotificationsService): FastifyPluginAsync =>
  async (app) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/notifications',
      {
        schema: {
          tags,
          description: 'The newest notifications of the caller and how many are unread.',
          response: { 200: notificationsPageSchema },
        },
        preHandler: signedIn,
      },
      async (request) => notifications.list(actorOf(request)),
    );

    r.post(
      '/notifications/:notificationId/read',
      {
        schema: { tags, params: notificationParamsSchema, response: { 200: markedReadSchema } },
        preHandler: signedIn,
      },
      async (request) => notifications.markRead(actorOf(request), request.params.notificationId),
    );

    r.post(
      '/notifications/read-all',
      { schema: { tags, response: { 200: markedReadSchema } }, preHandler: signedIn },
      async (request) => notifications.markAllRead(actorOf(request)),
    );
  };
