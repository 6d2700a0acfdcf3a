import ConstructionIcon from '@mui/icons-material/Construction';
import { Button, Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Stands in for a screen of a later issue, and says so. */
export function PlaceholderPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <Paper sx={{ p: 4, textAlign: 'center' }}>
      <ConstructionIcon color="action" sx={{ fontSize: 48 }} />
      <Typography variant="h5" component="h1" sx={{ mt: 1 }}>
        {t(titleKey)}
      </Typography>
      <Typography variant="subtitle1" color="text.secondary" sx={{ mt: 1 }}>
        {t('placeholder.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 3 }}>
        {t('placeholder.text')}
      </Typography>
      <Button component={Link} to="/" variant="outlined">
        {t('placeholder.home')}
      </Button>
    </Paper>
  );
}
