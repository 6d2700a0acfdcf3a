import type { SxProps, Theme } from '@mui/material';

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
