import { Stack, Toolbar, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Shown while rows are selected: how many, and the bulk action buttons. */
export function SelectionBar({ count, children }: { count: number; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Toolbar
      variant="dense"
      sx={{ gap: 1, flexWrap: 'wrap', borderRadius: 1, bgcolor: 'action.selected', mb: 1 }}
    >
      <Typography sx={{ flex: 1 }} role="status">
        {t('exams.students.selected', { count })}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
        {children}
      </Stack>
    </Toolbar>
  );
}
