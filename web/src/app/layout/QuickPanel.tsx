import Close from '@mui/icons-material/Close';
import { Box, Drawer, IconButton, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** The quick panel: today's date and notifications (none are produced yet). */
export function QuickPanel({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const today = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'full' }).format(new Date());
  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      slotProps={{ paper: { sx: { width: 300 } } }}
    >
      <Box role="dialog" aria-labelledby="quick-title" sx={{ p: 2 }}>
        <Box sx={{ display: 'flex', alignItems: 'center' }}>
          <Typography id="quick-title" variant="h6" component="h2" sx={{ flex: 1 }}>
            {t('layout.quickPanel')}
          </Typography>
          <IconButton onClick={onClose} aria-label={t('common.close')}>
            <Close />
          </IconButton>
        </Box>
        <Typography variant="overline">{t('layout.today')}</Typography>
        <Typography sx={{ mb: 2 }}>{today}</Typography>
        <Typography color="text.secondary">{t('layout.quickPanelEmpty')}</Typography>
      </Box>
    </Drawer>
  );
}
