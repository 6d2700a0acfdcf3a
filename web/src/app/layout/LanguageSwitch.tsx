import Translate from '@mui/icons-material/Translate';
import { Button, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LOCALES, type UiLocale } from '../../../../shared/constants.js';
import { patchProfile } from '../../api/profile.js';
import { changeLanguage } from '../../i18n/index.js';
import { useAuth } from '../../lib/auth.js';

/** ro/en switch, remembered on this device; a signed-in user's mails follow it too. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const { user, setUser } = useAuth();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);

  const choose = (lng: UiLocale) => {
    setAnchor(null);
    void changeLanguage(lng);
    if (user && user.uiLocale !== lng) {
      patchProfile(user.email, { uiLocale: lng }).then(setUser, () => undefined);
    }
  };

  return (
    <>
      <Button
        color="inherit"
        startIcon={<Translate />}
        onClick={(e) => setAnchor(e.currentTarget)}
        // The name holds the code the button shows: "Limba: RO", so saying "RO" reaches it.
        aria-label={t('layout.language', { code: i18n.language.toUpperCase() })}
        aria-haspopup="menu"
      >
        {i18n.language.toUpperCase()}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {LOCALES.map((lng) => (
          <MenuItem
            key={lng}
            selected={i18n.language === lng}
            onClick={() => choose(lng)}
            lang={lng}
          >
            {t(`locales.${lng}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
