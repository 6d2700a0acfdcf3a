import { Box } from '@mui/material';
import { Statement } from '../../../components/statement/Statement.js';

/**
 * A statement in a list: rendered (formulas, small images) but cut to a few lines, so a long
 * problem does not stretch its row.
 */
export function QuestionExcerpt({ markdown, lines = 3 }: { markdown: string; lines?: number }) {
  return (
    <Box
      sx={{
        maxHeight: `${lines * 1.6}em`,
        overflow: 'hidden',
        position: 'relative',
        minWidth: 0,
      }}
    >
      <Statement
        markdown={markdown}
        sx={{
          fontSize: '0.875rem',
          '& img.statement-image': { maxHeight: 56, width: 'auto', my: 0.5 },
          '& .statement-math, & .katex-display': { my: 0.25, overflow: 'hidden' },
        }}
      />
    </Box>
  );
}
