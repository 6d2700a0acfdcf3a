// The rows the review's queries answer with.

import type { reviewAppeals, reviewEntries, reviewMarks } from '../../../db/schema.js';

export type EntryRow = typeof reviewEntries.$inferSelect;
export type AppealRow = typeof reviewAppeals.$inferSelect;
export type MarkRow = typeof reviewMarks.$inferSelect;
export type Round = MarkRow['round'];
