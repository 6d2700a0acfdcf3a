// The mail-service's public face: the admins' outbox routes and their service.
export { mailRoutes } from './mail.routes.js';
export { type MailService, mailService } from './mail.service.js';
