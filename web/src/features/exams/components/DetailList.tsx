import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';

export type Detail = { label: string; value: ReactNode };

/** Label/value pairs of a competition, edition or phase, in a responsive grid. */
export function DetailList({ items }: { items: Detail[] }) {
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' },
        gap: 2,
        m: 0,
      }}
    >
      {items.map((d) => (
        <Box key={d.label}>
          <Typography component="dt" variant="caption" color="text.secondary">
            {d.label}
          </Typography>
          <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {d.value === '' || d.value === null || d.value === undefined ? '—' : d.value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
