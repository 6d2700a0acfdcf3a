import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { IconButton, InputAdornment } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A password field's "show / hide" button: the field's `type` and the adornment that flips it.
 * Without react-hook-form, so that the sign-in form (SignInForm.tsx) can use it as well.
 */
export function usePasswordToggle() {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  const label = t(shown ? 'auth.hidePassword' : 'auth.showPassword');
  return {
    type: shown ? 'text' : 'password',
    slotProps: {
      input: {
        endAdornment: (
          <InputAdornment position="end">
            <IconButton onClick={() => setShown((s) => !s)} aria-label={label} edge="end">
              {shown ? <VisibilityOff /> : <Visibility />}
            </IconButton>
          </InputAdornment>
        ),
      },
    },
  };
}
