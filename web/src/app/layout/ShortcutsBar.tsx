import Star from '@mui/icons-material/Star';
import StarBorder from '@mui/icons-material/StarBorder';
import {
  Box,
  IconButton,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { NavItem } from '../navigation.js';
import { useSettings } from '../providers/settings.js';
import { NavIcon } from './icons.js';

/** Starred pages as buttons, and a menu of star toggles (stored in data.shortcuts). */
export function ShortcutsBar({ pages }: { pages: NavItem[] }) {
  const { t } = useTranslation();
  const { shortcuts, toggleShortcut } = useSettings();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const starred = shortcuts
    .map((path) => pages.find((p) => p.path === path))
    .filter((p): p is NavItem => p !== undefined);

  return (
    <Box
      sx={{ display: 'flex', alignItems: 'center' }}
      role="toolbar"
      aria-label={t('layout.shortcuts')}
    >
      {starred.map((page) => (
        <Tooltip key={page.id} title={t(page.titleKey)}>
          <IconButton component={Link} to={page.path ?? '/'} aria-label={t(page.titleKey)}>
            <NavIcon name={page.icon} />
          </IconButton>
        </Tooltip>
      ))}
      <Tooltip title={t('layout.editShortcuts')}>
        <IconButton
          onClick={(e) => setAnchor(e.currentTarget)}
          aria-label={t('layout.editShortcuts')}
        >
          <StarBorder />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {pages.length === 0 && (
          <Typography sx={{ px: 2, py: 1 }} color="text.secondary">
            {t('layout.noShortcuts')}
          </Typography>
        )}
        {pages.map((page) => {
          const on = page.path !== undefined && shortcuts.includes(page.path);
          return (
            <MenuItem
              key={page.id}
              onClick={() => page.path && toggleShortcut(page.path)}
              role="menuitemcheckbox"
              aria-checked={on}
              aria-label={`${t(on ? 'layout.removeShortcut' : 'layout.addShortcut')}: ${t(page.titleKey)}`}
            >
              <ListItemIcon>{on ? <Star color="warning" /> : <StarBorder />}</ListItemIcon>
              <ListItemText primary={t(page.titleKey)} />
            </MenuItem>
          );
        })}
      </Menu>
    </Box>
  );
}
