/** See offline-files.mjs: the files the service worker keeps on a student's device. */
export const OFFLINE_ROOTS: string[];
export function offlineFiles(dist: string): Set<string>;
