import SwapHoriz from '@mui/icons-material/SwapHoriz';
import { IconButton, Tooltip } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** The row's "make this a teacher (student) account" button, named after the person. */
export function AccountTypeButton(props: {
  name: string;
  to: 'student' | 'teacher';
  onClick: () => void;
}) {
  const { t } = useTranslation();
  const label = t(`people.accountType.row.${props.to}`, { name: props.name });
  return (
    <Tooltip title={label}>
      <IconButton size="small" aria-label={label} onClick={props.onClick}>
        <SwapHoriz fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
