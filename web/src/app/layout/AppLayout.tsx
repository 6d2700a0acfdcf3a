import Menu from '@mui/icons-material/Menu';
import Notifications from '@mui/icons-material/Notifications';
import NotificationsNone from '@mui/icons-material/NotificationsNone';
import Tune from '@mui/icons-material/Tune';
import {
  AppBar,
  Badge,
  Box,
  IconButton,
  Toolbar,
  Tooltip,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { BOXED_MAX_WIDTH } from '../../../../shared/constants.js';
import { useHome } from '../../api/home.js';
import { useAdminDecisions, useMarkerWork } from '../../api/marker-work.js';
import { useNotifications } from '../../api/notifications.js';
import { LoadingScreen } from '../../components/LoadingScreen.js';
import { useAuth } from '../../lib/auth.js';
import { flatPages, hidesExams, NAVIGATION, visibleNavigation } from '../navigation.js';
import { useSettings } from '../providers/settings.js';
import { Footer } from './Footer.js';
import { FullscreenToggle } from './FullscreenToggle.js';
import { LanguageSwitch } from './LanguageSwitch.js';
import { NavSearch } from './NavSearch.js';
import { QuickPanel } from './QuickPanel.js';

import { SettingsPanel } from './SettingsPanel.js';
import { ShortcutsBar } from './ShortcutsBar.js';
import { Sidebar } from './Sidebar.js';
import { UserMenu } from './UserMenu.js';

/** The frame of every signed-in screen: sidebar, toolbar, content, footer, side panels. */
export function AppLayout() {
  const { t } = useTranslation();
  const theme = useTheme();
  const mobile = useMediaQuery(theme.breakpoints.down('md'));
  const { user } = useAuth();
  const { settings, update } = useSettings();
  const [mobileOpen, setMobileOpen] = useState(false);
  const [panel, setPanel] = useState<'settings' | 'quick' | null>(null);

  // An inactive account sees only what it can use (help, and its layout settings).
  const role = user?.state === 'active' ? user.type : undefined;
  // "To mark" for teachers who grade or mediate somewhere (asked of the server once).
  const mayMark = role === 'admin' || (role === 'teacher' && user?.registered === true);
  const { marks, waiting } = useMarkerWork(mayMark);
  // Appeals only the exam's admins can decide, counted on "Competitions" for those admins.
  const adminAppeals = useAdminDecisions(mayMark);
  // "Competitions" only for those who see one (a plain marker has none) or may create one.
  const homeAsked = role === 'admin' || (role !== undefined && user?.registered === true);
  const home = useHome(homeAsked);
  const noExams = hidesExams(role, homeAsked && !home.isError, home.data?.menu.exams);
  const items = useMemo(
    () => visibleNavigation(role, NAVIGATION, { marks, noExams }),
    [role, marks, noExams],
  );
  const badges = useMemo(
    () => ({
      'to-mark': { count: waiting, label: t('nav.badges.toMark', { count: waiting }) },
      exams: { count: adminAppeals, label: t('nav.badges.adminAppeals', { count: adminAppeals }) },
    }),
    [t, waiting, adminAppeals],
  );
  const pages = useMemo(() => flatPages(items), [items]);
  const unread = useNotifications(user !== undefined).data?.unread ?? 0;
  const bellLabel =
    unread > 0
      ? // The badge's own text ("99+" past 99) is part of the name (WCAG 2.5.3).
        t('notifications.bellUnread', { count: unread, shown: unread > 99 ? '99+' : unread })
      : t('notifications.bell');

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <Box
        component="a"
        href="#main"
        sx={{
          position: 'absolute',
          left: -9999,
          '&:focus': { left: 8, top: 8, zIndex: 2000, bgcolor: 'background.paper', p: 1 },
        }}
      >
        {t('app.skipToContent')}
      </Box>
      <Sidebar
        items={items}
        badges={badges}
        folded={settings.folded}
        onToggleFold={() => update({ folded: !settings.folded })}
        mobile={mobile}
        mobileOpen={mobileOpen}
        onCloseMobile={() => setMobileOpen(false)}
      />
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <AppBar
          position="sticky"
          color="inherit"
          elevation={0}
          sx={{ borderBottom: 1, borderColor: 'divider' }}
        >
          <Toolbar sx={{ gap: { xs: 0.25, sm: 1 }, px: { xs: 1, sm: 2 } }}>
            {mobile && (
              <IconButton
                edge="start"
                onClick={() => setMobileOpen(true)}
                aria-label={t('layout.openMenu')}
              >
                <Menu />
              </IconButton>
            )}
            <NavSearch pages={pages} canSearch={role !== undefined} />
            {!mobile && <ShortcutsBar pages={pages} />}
            <Box sx={{ flex: 1 }} />
            <LanguageSwitch />
            {!mobile && <FullscreenToggle />}
            <Tooltip title={t('layout.settings')}>
              <IconButton onClick={() => setPanel('settings')} aria-label={t('layout.settings')}>
                <Tune />
              </IconButton>
            </Tooltip>
            <Tooltip title={bellLabel}>
              <IconButton onClick={() => setPanel('quick')} aria-label={bellLabel}>
                {unread > 0 ? (
                  <Badge badgeContent={unread} color="error" max={99}>
                    <Notifications />
                  </Badge>
                ) : (
                  <NotificationsNone />
                )}
              </IconButton>
            </Tooltip>
            <UserMenu />
          </Toolbar>
        </AppBar>
        <Box
          component="main"
          id="main"
          tabIndex={-1}
          sx={{
            flex: 1,
            width: '100%',
            p: { xs: 2, md: 3 },
            mx: 'auto',
            maxWidth: settings.layout === 'boxed' ? BOXED_MAX_WIDTH : 'none',
          }}
        >
          <Suspense fallback={<LoadingScreen />}>
            <Outlet />
          </Suspense>
        </Box>
        <Footer />
      </Box>
      <SettingsPanel open={panel === 'settings'} onClose={() => setPanel(null)} />
      <QuickPanel
        open={panel === 'quick'}
        onClose={() => setPanel(null)}
        enabled={user !== undefined}
      />
    </Box>
  );
}
