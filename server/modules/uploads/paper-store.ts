import type { Db } from '../../db/client.js';
import type { Actor } from '../../lib/auth-guard.js';
import * as paper from './paper.repo.js';
import type { TestIds } from './uploads.scope.js';
import type { UploadsService } from './uploads.service.js';

export type StorePage = {
  actor: Actor;
  ids: TestIds;
  /** The scan_pages row already claimed as `stored` for this student, question and page. */
  pageId: string;
  studentId: string;
  itemId: string;
  bookletPage: number;
  fileName: string;
  image: Buffer;
};

/**
 * Stores a scanned page as the student's answer page through `uploadAnswer` (audited, its
 * metadata stripped), as a paper answer entered by the exam's admin; placed among the answer's
 * files in booklet order (a page 1 scanned after its page 2 still comes first). The page's row
 * then points at the answer file. Used by the scan reader and by a person's match alike.
 */
export async function storeAnswerPage(db: Db, uploads: UploadsService, p: StorePage) {
  let before: readonly string[] = [];
  const answer = await uploads.uploadAnswer(
    p.actor,
    p.ids,
    {
      itemId: p.itemId,
      studentId: p.studentId,
      insertAt: async (tx, fileIds) => {
        before = fileIds;
        const pages = await paper.bookletPagesOfFiles(tx, fileIds);
        const later = fileIds.findIndex((id) => (pages.get(id) ?? 0) > p.bookletPage);
        return later < 0 ? fileIds.length : later;
      },
    },
    async () => [{ field: 'item_0', filename: p.fileName, data: p.image, truncated: false }],
  );
  const fileId = answer.answerFiles.find((f) => !before.includes(f._id))?._id ?? null;
  await paper.updatePage(db, p.pageId, { fileId });
  return fileId;
}
