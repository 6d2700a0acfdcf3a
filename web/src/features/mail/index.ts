// The mail feature's public face: the admins' outbox page the router mounts.
export { MailOutboxPage } from './MailOutboxPage.js';
