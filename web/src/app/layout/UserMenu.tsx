import AccountCircle from '@mui/icons-material/AccountCircle';
import Key from '@mui/icons-material/Key';
import Logout from '@mui/icons-material/Logout';
import { Avatar, Button, IconButton, ListItemIcon, Menu, MenuItem, Tooltip } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { safePictureUrl } from '../../../../shared/picture.js';
import { useAuth } from '../../lib/auth.js';

export function UserMenu() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (!user) {
    return (
      <Button component={Link} to="/" color="inherit" variant="outlined" size="small">
        {t('layout.signIn')}
      </Button>
    );
  }
  return (
    <>
      <Tooltip title={t('layout.account')}>
        <IconButton
          onClick={(e) => setAnchor(e.currentTarget)}
          aria-label={t('layout.account')}
          aria-haspopup="menu"
        >
          <Avatar
            src={safePictureUrl(user.picture) ?? '/avatar.svg'}
            alt=""
            sx={{ width: 32, height: 32 }}
          />
        </IconButton>
      </Tooltip>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        onClick={() => setAnchor(null)}
      >
        {user.state === 'active' && (
          <MenuItem component={Link} to="/profil">
            <ListItemIcon>
              <AccountCircle fontSize="small" />
            </ListItemIcon>
            {t('nav.profile')}
          </MenuItem>
        )}
        <MenuItem component={Link} to="/cont/securitate">
          <ListItemIcon>
            <Key fontSize="small" />
          </ListItemIcon>
          {t('account.menu')}
        </MenuItem>
        <MenuItem component={Link} to="/deconectare">
          <ListItemIcon>
            <Logout fontSize="small" />
          </ListItemIcon>
          {t('layout.logout')}
        </MenuItem>
      </Menu>
    </>
  );
}
