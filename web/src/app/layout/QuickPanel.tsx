import Close from '@mui/icons-material/Close';
import DoneAll from '@mui/icons-material/DoneAll';
import {
  Alert,
  Box,
  Button,
  Drawer,
  IconButton,
  LinearProgress,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Notification } from '../../../../shared/schemas/notifications.js';
import { useMarkRead, useNotifications } from '../../api/notifications.js';

/** The words of one notification, in the user's language (dates in their locale). */
export function useNotificationText() {
  const { t, i18n } = useTranslation();
  const when = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date(iso),
    );
  return (n: Notification) => {
    const p = n.params;
    const values: Record<string, string | number> = { ...p };
    if (p.start) values.start = when(p.start);
    if (p.minutes) values.count = Number(p.minutes);
    if (n.kind === 'review-reminder') values.count = Number(p.open ?? 0);
    return { title: t(`notifications.kinds.${n.kind}`, values), at: when(n.createdAt) };
  };
}

/** The quick panel: today's date and the person's notifications, read and unread. */
export function QuickPanel({
  open,
  onClose,
  enabled,
}: {
  open: boolean;
  onClose(): void;
  /** Whether the account may ask for notifications (any signed-in user). */
  enabled: boolean;
}) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const query = useNotifications(enabled);
  const mark = useMarkRead();
  const text = useNotificationText();
  const today = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'full' }).format(new Date());
  const items = query.data?.items ?? [];
  const unread = query.data?.unread ?? 0;

  const handleOpen = (n: Notification) => {
    if (!n.read) mark.mutate(n._id);
    if (n.link) {
      onClose();
      navigate(n.link);
    }
  };

  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      slotProps={{ paper: { sx: { width: { xs: '100%', sm: 380 } } } }}
    >
      <Box role="dialog" aria-labelledby="quick-title" sx={{ p: 2 }}>
        <Box sx={{ display: 'flex', alignItems: 'center' }}>
          <Typography id="quick-title" variant="h6" component="h2" sx={{ flex: 1 }}>
            {t('notifications.title')}
          </Typography>
          <IconButton onClick={onClose} aria-label={t('common.close')}>
            <Close />
          </IconButton>
        </Box>
        <Typography variant="overline">{t('layout.today')}</Typography>
        <Typography sx={{ mb: 2 }}>{today}</Typography>
        <Box
          sx={{
            // With nothing at all, "No notifications" below says it; "All read" too was noise.
            display: query.isSuccess && items.length === 0 ? 'none' : 'flex',
            alignItems: 'center',
            mb: 1,
          }}
        >
          <Typography sx={{ flex: 1 }} color="text.secondary" aria-live="polite">
            {t('notifications.unread', { count: unread })}
          </Typography>
          {unread > 0 && (
            <Button
              size="small"
              startIcon={<DoneAll />}
              onClick={() => mark.mutate('all')}
              disabled={mark.isPending}
            >
              {t('notifications.markAll')}
            </Button>
          )}
        </Box>
        {query.isPending && enabled && <LinearProgress aria-label={t('list.loading')} />}
        {query.isError && <Alert severity="error">{t('list.loadError')}</Alert>}
        {query.isSuccess && items.length === 0 && (
          <Typography color="text.secondary">{t('layout.quickPanelEmpty')}</Typography>
        )}
        {items.length > 0 && (
          <List aria-label={t('notifications.title')} disablePadding>
            {items.map((n) => {
              const { title, at } = text(n);
              return (
                <ListItem key={n._id} disablePadding>
                  <ListItemButton
                    onClick={() => handleOpen(n)}
                    divider
                    sx={{
                      alignItems: 'flex-start',
                      borderLeft: 4,
                      borderColor: n.read ? 'transparent' : 'primary.main',
                    }}
                  >
                    <ListItemText
                      primary={
                        <>
                          {!n.read && (
                            <Box component="span" sx={visuallyHidden}>
                              {`${t('notifications.new')}: `}
                            </Box>
                          )}
                          {title}
                        </>
                      }
                      secondary={at}
                      slotProps={{ primary: { sx: { fontWeight: n.read ? 400 : 600 } } }}
                    />
                  </ListItemButton>
                </ListItem>
              );
            })}
          </List>
        )}
      </Box>
    </Drawer>
  );
}

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
