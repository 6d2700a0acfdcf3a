// Every table of Podium, for the database client, the migrations and reads that join across
// modules. Each table lives with the one module that writes it (its `*.schema.ts`); the layout
// check refuses a write from anywhere else (`npm run lint`).
export * from '../lib/audit.schema.js';
export * from '../lib/files/files.schema.js';
export * from '../lib/mail/mail.schema.js';
export * from '../lib/rate-limit/rate-limit.schema.js';
export * from '../lib/server-keys.schema.js';
export * from '../modules/auth/auth.schema.js';
export * from '../modules/diplomas/diplomas.schema.js';
export * from '../modules/exams/exams.schema.js';
export * from '../modules/notifications/notifications.schema.js';
export * from '../modules/player/player.schema.js';
export * from '../modules/questions/questions.schema.js';
export * from '../modules/rankings/rankings.schema.js';
export * from '../modules/results/results.schema.js';
export * from '../modules/reviews/reviews.schema.js';
export * from '../modules/test-papers/tests.schema.js';
export * from '../modules/uploads/paper.schema.js';
export * from '../modules/users/users.schema.js';
