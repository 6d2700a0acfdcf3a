/**
 * Plain values of answer files that the player's hybrid test needs without the upload schemas,
 * whose zod they would bring to every student's first load.
 */

/** What the file picker offers: images (the phone camera) and PDFs; the server checks bytes. */
export const ANSWER_FILE_ACCEPT = 'image/*,application/pdf';
