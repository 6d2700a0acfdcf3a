import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Grid,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { RulePreset } from '../../../../../shared/schemas/rankings.js';
import { useRulePresets } from '../api/rules.js';

/**
 * The olympiad rule sets the server offers, named and described in the interface's language;
 * `onUse` loads one into the form (nothing is saved until the form is).
 */
export function PresetCards({ onUse }: { onUse: (preset: RulePreset) => void }) {
  const { t, i18n } = useTranslation();
  const presets = useRulePresets();
  const lang = i18n.language === 'en' ? 'en' : 'ro';
  return (
    <Box component="section" aria-label={t('rankings.presets.title')}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('rankings.presets.title')}
      </Typography>
      {presets.error && <Alert severity="warning">{t('rankings.presets.unavailable')}</Alert>}
      <Grid container spacing={2}>
        {(presets.data ?? []).map((preset) => (
          <Grid key={preset.id} size={{ xs: 12, md: 6 }}>
            <Card
              variant="outlined"
              sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
            >
              <CardContent sx={{ flex: 1 }}>
                <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                  {preset.name[lang]}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {preset.description[lang]}
                </Typography>
              </CardContent>
              <CardActions sx={{ px: 2, pb: 2 }}>
                <Button
                  variant="outlined"
                  size="small"
                  aria-label={`${t('rankings.presets.use')}: ${preset.name[lang]}`}
                  onClick={() => onUse(preset)}
                >
                  {t('rankings.presets.use')}
                </Button>
              </CardActions>
            </Card>
          </Grid>
        ))}
      </Grid>
    </Box>
  );
}
