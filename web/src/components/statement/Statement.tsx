import 'katex/dist/katex.min.css';
import { Box, type SxProps, type Theme } from '@mui/material';
import { useMemo } from 'react';
import { renderStatement, statementImageIds } from '../../../../shared/statement.js';
import { useFileUrls } from './get-file.js';

type Props = {
  /** Markdown with `$…$` LaTeX (a question's `itemQ`, an answer option). */
  markdown: string;
  /** Compact: no paragraph margins (answer options, table cells). */
  inline?: boolean;
  sx?: SxProps<Theme>;
};

/** Typography of rendered statements: paragraphs, formulas that may scroll, bounded images. */
export const statementSx = {
  overflowWrap: 'anywhere',
  '& p': { my: 0.75 },
  '& p:first-of-type': { mt: 0 },
  '& p:last-of-type': { mb: 0 },
  '& .statement-math, & .katex-display': { overflowX: 'auto', overflowY: 'hidden', my: 1 },
  '& img.statement-image': { maxWidth: '100%', height: 'auto', display: 'block', my: 1 },
  '& ul, & ol': { my: 0.5, pl: 3 },
  '& code': { fontFamily: 'monospace', fontSize: '0.9em' },
} satisfies SxProps<Theme>;

/**
 * A statement rendered by shared/statement.ts (Markdown + KaTeX, sanitised: it is user
 * content), its stored images shown through the authenticated file service.
 */
export function Statement({ markdown, inline, sx }: Props) {
  const ids = useMemo(() => statementImageIds(markdown), [markdown]);
  const urls = useFileUrls(ids);
  // Rendered once per text (shared/statement.ts caches it); each render only places the images.
  const html = renderStatement(markdown, { imageSrc: (id) => urls[id] });
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
