// The notification-service's public face. The composition root mounts its routes and hands
// `notifyFromMail` to the mail outbox (each system mail also notifies); exams and reviews call
// the event functions in their own transactions. Only this module writes `notifications`.
export {
  notifyEnrolled,
  notifyFromMail,
  notifyMarkingAssigned,
  notifyResultsPublished,
} from './events.js';
export { notificationsRoutes } from './notifications.routes.js';
export {
  type NotificationsService,
  notificationsService,
} from './notifications.service.js';
export { notificationsPersonalData } from './personal-data.js';
