import CheckBox from '@mui/icons-material/CheckBox';
import CheckBoxOutlineBlank from '@mui/icons-material/CheckBoxOutlineBlank';
import { ListItemIcon } from '@mui/material';

/**
 * The tick box drawn in an option of a multiple select or a row that acts as a checkbox. A
 * picture only: the option or row itself says whether it is chosen (aria-selected,
 * aria-checked), and a real checkbox there would be a second, unlabelled control nested in
 * the first, one a screen reader stops on.
 */
export function SelectedMark({ checked }: { checked: boolean }) {
  return (
    <ListItemIcon aria-hidden sx={{ minWidth: 36 }}>
      {checked ? (
        <CheckBox fontSize="small" color="primary" />
      ) : (
        <CheckBoxOutlineBlank fontSize="small" />
      )}
    </ListItemIcon>
  );
}
