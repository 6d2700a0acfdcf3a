import { Box } from '@mui/material';
import { useMemo } from 'react';
import { statementSx } from '../../../components/statement/statement-sx.js';
import { useStatementRenderer } from '../../../components/statement/use-renderer.js';
import { useTestFileUrls } from '../api/get-test-file.js';

type Props = {
  testId: string;
  attemptKey: string;
  markdown: string;
  /** Compact (answer options): no paragraph margins. */
  inline?: boolean;
};

/**
 * A statement of the attempt, rendered like everywhere else (shared/statement.ts, the
 * statement typography), with its images fetched through the player's own file route (a
 * student may not read the question bank's files) and kept on the device for reloads offline.
 */
export function PlayerStatement({ testId, attemptKey, markdown, inline }: Props) {
  const renderer = useStatementRenderer(markdown);
  const ids = useMemo(() => renderer?.statementImageIds(markdown) ?? [], [renderer, markdown]);
  const urls = useTestFileUrls(testId, attemptKey, ids);
  // Empty for the moment the renderer takes to arrive (once per visit).
  const html = renderer ? renderer.renderStatement(markdown, { imageSrc: (id) => urls[id] }) : '';
  return (
    <Box
      className="statement"
      sx={[statementSx, inline ? { '& p': { my: 0 } } : {}]}
      // renderStatement escapes raw HTML and allows only KaTeX markup, safe links and our images.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by shared/statement.ts
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

/** The image shown under a statement (a question's `imageFileId`). */
export function PlayerImage({
  testId,
  attemptKey,
  fileId,
  alt,
}: {
  testId: string;
  attemptKey: string;
  fileId: string;
  alt: string;
}) {
  const urls = useTestFileUrls(testId, attemptKey, [fileId]);
  const src = urls[fileId];
  if (!src)
    return <Box sx={{ height: 120, bgcolor: 'action.hover', borderRadius: 1 }} aria-hidden />;
  return (
    <Box
      component="img"
      src={src}
      alt={alt}
      sx={{ maxWidth: '100%', height: 'auto', display: 'block', borderRadius: 1 }}
    />
  );
}
