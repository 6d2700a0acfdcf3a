// The test-review module's queries, one file per use (repo/): who marks where, starting the
// review, entries and their marks, the lists, appeals, what a marker sees, progress, a
// student's data, closing. The module's code imports them all from here.

export * from './repo/appeals.js';
export * from './repo/closing.js';
export * from './repo/entries.js';
export * from './repo/lists.js';
export * from './repo/markers.js';
export * from './repo/material.js';
export * from './repo/progress.js';
export * from './repo/rows.js';
export * from './repo/start.js';
export * from './repo/student-data.js';
