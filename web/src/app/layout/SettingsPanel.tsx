import Close from '@mui/icons-material/Close';
import {
  Box,
  Button,
  Divider,
  Drawer,
  FormControl,
  FormControlLabel,
  FormLabel,
  IconButton,
  Radio,
  RadioGroup,
  Stack,
  Switch,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Settings } from '../../../../shared/schemas/users.js';
import { useSettings } from '../providers/settings.js';

const SCHEMES: Settings['colorScheme'][] = ['blue', 'teal', 'indigo', 'amber'];

function Choice<K extends 'layout' | 'theme' | 'colorScheme' | 'direction'>({
  name,
  label,
  options,
}: {
  name: K;
  label: string;
  options: { value: Settings[K]; label: string }[];
}) {
  const { settings, update } = useSettings();
  return (
    <FormControl component="fieldset">
      <FormLabel component="legend">{label}</FormLabel>
      <RadioGroup
        row
        name={name}
        value={settings[name]}
        onChange={(e) => update({ [name]: e.target.value } as Partial<Settings>)}
      >
        {options.map((o) => (
          <FormControlLabel key={o.value} value={o.value} control={<Radio />} label={o.label} />
        ))}
      </RadioGroup>
    </FormControl>
  );
}

/** Layout, theme, colours, scrollbars, animations and direction (SPEC.md §2). */
export function SettingsPanel({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const { settings, update, reset, savedTo } = useSettings();

  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      slotProps={{ paper: { sx: { width: 340 } } }}
    >
      <Box role="dialog" aria-labelledby="settings-title" sx={{ p: 2 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
          <Typography id="settings-title" variant="h6" component="h2" sx={{ flex: 1 }}>
            {t('settings.title')}
          </Typography>
          <IconButton onClick={onClose} aria-label={t('settings.close')}>
            <Close />
          </IconButton>
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t(savedTo === 'profile' ? 'settings.savedProfile' : 'settings.savedLocally')}
        </Typography>
        <Stack spacing={2} divider={<Divider flexItem />}>
          <Choice
            name="layout"
            label={t('settings.layout')}
            options={[
              { value: 'full', label: t('settings.layoutFull') },
              { value: 'boxed', label: t('settings.layoutBoxed') },
            ]}
          />
          <Choice
            name="theme"
            label={t('settings.theme')}
            options={[
              { value: 'light', label: t('settings.themeLight') },
              { value: 'dark', label: t('settings.themeDark') },
            ]}
          />
          <Choice
            name="colorScheme"
            label={t('settings.colorScheme')}
            options={SCHEMES.map((s) => ({ value: s, label: t(`settings.scheme_${s}`) }))}
          />
          <Choice
            name="direction"
            label={t('settings.direction')}
            options={[
              { value: 'ltr', label: t('settings.ltr') },
              { value: 'rtl', label: t('settings.rtl') },
            ]}
          />
          <Box>
            <FormControlLabel
              control={
                <Switch
                  checked={settings.customScrollbars}
                  onChange={(e) => update({ customScrollbars: e.target.checked })}
                />
              }
              label={t('settings.customScrollbars')}
            />
            <FormControlLabel
              control={
                <Switch
                  checked={settings.animations}
                  onChange={(e) => update({ animations: e.target.checked })}
                />
              }
              label={t('settings.animations')}
            />
          </Box>
          <Button onClick={reset} variant="outlined">
            {t('settings.reset')}
          </Button>
        </Stack>
      </Box>
    </Drawer>
  );
}
