import { Box } from '@mui/material';
import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { statementSx } from '../../../components/statement/statement-sx.js';
import { useStatementRenderer } from '../../../components/statement/use-renderer.js';
import { getTestFile } from '../api/get-test-file.js';
import { PLAYER_KEY } from '../api/keys.js';

/**
 * A statement of a hybrid test, rendered and styled like every statement
 * (shared/statement.ts, components/statement), with its images fetched through the test
 * player's file route: a student may not read the question bank's files.
 */
export function HybridStatement({ testId, markdown }: { testId: string; markdown: string }) {
  const renderer = useStatementRenderer(markdown);
  const ids = useMemo(() => renderer?.statementImageIds(markdown) ?? [], [renderer, markdown]);
  const results = useQueries({
    queries: ids.map((fileId) => ({
      queryKey: [...PLAYER_KEY, 'file', testId, fileId],
      queryFn: async () => URL.createObjectURL(await getTestFile(testId, fileId)),
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: Number.POSITIVE_INFINITY,
    })),
  });
  const urls = Object.fromEntries(ids.map((id, i) => [id, results[i]?.data]));
  // Empty for the moment the renderer takes to arrive (once per visit).
  const html = renderer ? renderer.renderStatement(markdown, { imageSrc: (id) => urls[id] }) : '';
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
