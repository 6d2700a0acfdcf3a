import { Chip } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** Active / inactive, as a small coloured label. */
export function StateChip({ state }: { state: string | null | undefined }) {
  const { t } = useTranslation();
  if (!state) return null;
  return (
    <Chip
      size="small"
      variant="outlined"
      label={t(`states.${state}`)}
      color={state === 'active' ? 'success' : 'default'}
    />
  );
}
