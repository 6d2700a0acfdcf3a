import { Box, type SxProps, type Theme } from '@mui/material';
import { useMemo } from 'react';
import { useFileUrls } from './get-file.js';
import { statementSx } from './statement-sx.js';
import { useStatementRenderer } from './use-renderer.js';

type Props = {
  /** Markdown with `$…$` LaTeX (a question's `itemQ`, an answer option). */
  markdown: string;
  /** Compact: no paragraph margins (answer options, table cells). */
  inline?: boolean;
  sx?: SxProps<Theme>;
};

/**
 * A statement rendered by shared/statement.ts (Markdown + KaTeX, sanitised: it is user
 * content), its stored images shown through the authenticated file service.
 */
export function Statement({ markdown, inline, sx }: Props) {
  const renderer = useStatementRenderer(markdown);
  const ids = useMemo(() => renderer?.statementImageIds(markdown) ?? [], [renderer, markdown]);
  const urls = useFileUrls(ids);
  // Rendered once per text (shared/statement.ts caches it); each render only places the images.
  // Empty for the moment the renderer takes to arrive (once per visit).
  const html = renderer ? renderer.renderStatement(markdown, { imageSrc: (id) => urls[id] }) : '';
  return (
    <Box
      className="statement"
      sx={[
        statementSx,
        inline ? { '& p': { my: 0 } } : {},
        ...(Array.isArray(sx) ? sx : sx ? [sx] : []),
      ]}
      // renderStatement escapes raw HTML and allows only KaTeX markup, safe links and our images.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by shared/statement.ts
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
