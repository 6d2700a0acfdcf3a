import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { IconButton, Tooltip } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** The row's delete button, named after the person for screen readers. */
export function DeleteButton({ name, onClick }: { name: string; onClick: () => void }) {
  const { t } = useTranslation();
  const label = t('people.deleteRow', { name });
  return (
    <Tooltip title={label}>
      <IconButton size="small" aria-label={label} onClick={onClick}>
        <DeleteOutline fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
