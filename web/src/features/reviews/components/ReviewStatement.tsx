import { Box } from '@mui/material';
import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { statementSx } from '../../../components/statement/statement-sx.js';
import { useStatementRenderer } from '../../../components/statement/use-renderer.js';
import { getEntryFile } from '../api/get-answer-files.js';
import type { EntryKind } from '../paths.js';

type Props = { ids: PhaseIds; kind: EntryKind; reviewId: string; markdown: string };

/**
 * A question's statement for its markers: its images come through the entry's own file
 * route, which a reviewer may read (the question bank's file route is for its managers).
 */
export function ReviewStatement({ ids, kind, reviewId, markdown }: Props) {
  const renderer = useStatementRenderer(markdown);
  const fileIds = useMemo(() => renderer?.statementImageIds(markdown) ?? [], [renderer, markdown]);
  const results = useQueries({
    queries: fileIds.map((fileId) => ({
      queryKey: ['reviews', 'file', kind, reviewId, fileId],
      queryFn: async () => URL.createObjectURL(await getEntryFile(ids, kind, reviewId, fileId)),
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: Number.POSITIVE_INFINITY,
    })),
  });
  const urls = new Map(fileIds.map((id, i) => [id, results[i]?.data]));
  // Empty for the moment the renderer takes to arrive (once per visit).
  const html = renderer
    ? renderer.renderStatement(markdown, { imageSrc: (id) => urls.get(id) })
    : '';
  return (
    <Box
      className="statement"
      sx={statementSx}
      // renderStatement escapes raw HTML and allows only KaTeX markup, safe links and our images.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by shared/statement.ts
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
