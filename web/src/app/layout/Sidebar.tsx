import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import OpenInNew from '@mui/icons-material/OpenInNew';
import {
  Avatar,
  Box,
  Collapse,
  Divider,
  Drawer,
  IconButton,
  Link,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from 'react-router';
import { SIDEBAR_FOLDED_WIDTH, SIDEBAR_WIDTH } from '../../../../shared/constants.js';
import { safePictureUrl } from '../../../../shared/picture.js';
import { useAuth } from '../../lib/auth.js';
import { PERSONAL_DATA_URL, TERMS_URL } from '../links.js';
import { currentPage, flatPages, type NavItem } from '../navigation.js';
import { NavIcon } from './icons.js';

const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** A count shown on a menu entry's icon, and what it counts (read with the entry's name). */
export type NavBadge = { count: number; label: string };

type Props = {
  items: NavItem[];
  /** Counts by menu entry id (what waits for the user there); none or 0: no badge. */
  badges?: Readonly<Record<string, NavBadge>>;
  folded: boolean;
  onToggleFold(): void;
  mobile: boolean;
  mobileOpen: boolean;
  onCloseMobile(): void;
};

function NavEntry({
  item,
  badges,
  folded,
  depth,
  currentId,
  onNavigate,
}: {
  item: NavItem;
  badges: Readonly<Record<string, NavBadge>> | undefined;
  folded: boolean;
  depth: number;
  /** The menu page the user is on (navigation.ts `currentPage`). */
  currentId: string | undefined;
  onNavigate(): void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(true);
  const title = t(item.titleKey);

  // Every entry is a list item (a group holds its own list): a screen reader announces the
  // menu as lists of so many entries, nested by section.
  if (item.children) {
    return (
      <ListItem disablePadding sx={{ display: 'block' }}>
        <ListItemButton onClick={() => setOpen((o) => !o)} aria-expanded={open}>
          <Tooltip title={folded ? title : ''} placement="right">
            <ListItemIcon sx={{ minWidth: 40 }}>
              <NavIcon name={item.icon} />
            </ListItemIcon>
          </Tooltip>
          {!folded && <ListItemText primary={title} slotProps={{ primary: { fontWeight: 600 } }} />}
          {!folded && (open ? <ExpandLess /> : <ExpandMore />)}
        </ListItemButton>
        <Collapse in={open || folded} unmountOnExit>
          <List disablePadding>
            {item.children.map((child) => (
              <NavEntry
                key={child.id}
                item={child}
                badges={badges}
                folded={folded}
                depth={depth + 1}
                currentId={currentId}
                onNavigate={onNavigate}
              />
            ))}
          </List>
        </Collapse>
      </ListItem>
    );
  }

  const badge = badges?.[item.id];
  const counted = badge && badge.count > 0 ? badge : undefined;
  return (
    <ListItem disablePadding>
      <ListItemButton
        component={NavLink}
        to={item.path ?? '/'}
        selected={item.id === currentId}
        onClick={onNavigate}
        sx={{ pl: folded ? 2.5 : 2 + depth * 2, position: 'relative' }}
      >
        <Tooltip title={folded ? title : ''} placement="right">
          <ListItemIcon sx={{ minWidth: 40 }}>
            <NavIcon name={item.icon} />
          </ListItemIcon>
        </Tooltip>
        {!folded && <ListItemText primary={title} />}
        {counted && (
          // After the title, so the link reads "To mark 3 papers wait for you"; drawn on the icon.
          <Box
            component="span"
            data-testid={`nav-badge-${item.id}`}
            sx={{
              position: 'absolute',
              top: 2,
              left: (theme) => theme.spacing(folded ? 4 : 3.75 + depth * 2),
              minWidth: 18,
              height: 18,
              px: 0.5,
              borderRadius: 9,
              bgcolor: 'error.main',
              color: 'error.contrastText',
              fontSize: 11,
              fontWeight: 600,
              lineHeight: '18px',
              textAlign: 'center',
            }}
          >
            {counted.count > 99 ? '99+' : counted.count}
            <Box component="span" sx={VISUALLY_HIDDEN}>
              {` ${counted.label}`}
            </Box>
          </Box>
        )}
      </ListItemButton>
    </ListItem>
  );
}

function SidebarContent({
  items,
  badges,
  folded,
  onToggleFold,
  mobile,
  onCloseMobile,
}: Omit<Props, 'mobileOpen'>) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { pathname } = useLocation();
  const currentId = currentPage(pathname, flatPages(items))?.id;
  const fullName = [user?.familyName, user?.givenName].filter(Boolean).join(' ');

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1.5,
          px: folded ? 1.5 : 2,
          py: 1.5,
          minHeight: 64,
        }}
      >
        <img src="/logo.svg" alt="" width={36} height={36} />
        {!folded && (
          <Typography variant="h6" component="span" sx={{ fontWeight: 700, flex: 1 }}>
            {t('app.name')}
          </Typography>
        )}
        {!mobile && !folded && (
          <Tooltip title={t('layout.fold')}>
            <IconButton onClick={onToggleFold} aria-label={t('layout.fold')} size="small">
              <ChevronLeft sx={{ transform: 'scaleX(var(--podium-dir, 1))' }} />
            </IconButton>
          </Tooltip>
        )}
      </Box>
      {!mobile && folded && (
        <Box sx={{ display: 'flex', justifyContent: 'center' }}>
          <Tooltip title={t('layout.unfold')} placement="right">
            <IconButton onClick={onToggleFold} aria-label={t('layout.unfold')} size="small">
              <ChevronRight />
            </IconButton>
          </Tooltip>
        </Box>
      )}
      {user && (
        <Box
          sx={{
            display: 'flex',
            flexDirection: 'column',
            alignItems: 'center',
            py: folded ? 1 : 2,
            px: 1,
            textAlign: 'center',
          }}
        >
          <Avatar
            src={safePictureUrl(user.picture) ?? '/avatar.svg'}
            alt={fullName || user.email}
            sx={{ width: folded ? 40 : 72, height: folded ? 40 : 72, mb: folded ? 0 : 1 }}
          />
          {!folded && (
            <>
              <Typography sx={{ fontWeight: 600 }} data-testid="sidebar-name">
                {fullName || '—'}
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
                {user.email}
              </Typography>
            </>
          )}
        </Box>
      )}
      <Divider />
      <Box
        component="nav"
        aria-label={t('nav.navigation')}
        sx={{ flex: 1, overflowY: 'auto', overflowX: 'hidden' }}
      >
        <List>
          {items.map((item) => (
            <NavEntry
              key={item.id}
              item={item}
              badges={badges}
              folded={folded}
              depth={0}
              currentId={currentId}
              onNavigate={mobile ? onCloseMobile : () => {}}
            />
          ))}
        </List>
      </Box>
      {!folded && (
        <Box sx={{ p: 2, display: 'grid', gap: 0.5 }}>
          <Link href={TERMS_URL} target="_blank" rel="noopener" variant="body2" underline="hover">
            {t('layout.termsLong')} <OpenInNew sx={{ fontSize: 14, verticalAlign: 'middle' }} />
          </Link>
          <Link
            href={PERSONAL_DATA_URL}
            target="_blank"
            rel="noopener"
            variant="body2"
            underline="hover"
          >
            {t('layout.personalData')} <OpenInNew sx={{ fontSize: 14, verticalAlign: 'middle' }} />
          </Link>
        </Box>
      )}
    </Box>
  );
}

/** The sidebar of SPEC.md §2: 280 px, folded 64 px, a drawer on small screens. */
export function Sidebar(props: Props) {
  const width = props.folded && !props.mobile ? SIDEBAR_FOLDED_WIDTH : SIDEBAR_WIDTH;
  if (props.mobile) {
    return (
      <Drawer
        variant="temporary"
        open={props.mobileOpen}
        onClose={props.onCloseMobile}
        ModalProps={{ keepMounted: true }}
        slotProps={{ paper: { sx: { width: SIDEBAR_WIDTH } } }}
      >
        <SidebarContent {...props} folded={false} />
      </Drawer>
    );
  }
  return (
    <Drawer
      variant="permanent"
      data-testid="sidebar"
      sx={{
        width,
        flexShrink: 0,
        '& .MuiDrawer-paper': {
          width,
          boxSizing: 'border-box',
          overflowX: 'hidden',
          transition: (t) => t.transitions.create('width'),
        },
      }}
    >
      <SidebarContent {...props} />
    </Drawer>
  );
}
