import ArrowBack from '@mui/icons-material/ArrowBack';
import { Button, type ButtonProps } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The way out of every player dialog (SPEC.md §8): back to My tests. */
export function BackToMyTests({ variant = 'contained' }: { variant?: ButtonProps['variant'] }) {
  const { t } = useTranslation();
  return (
    <Button component={Link} to="/tests" variant={variant} startIcon={<ArrowBack />}>
      {t('player.backToMyTests')}
    </Button>
  );
}
