import { MenuItem, TextField, type TextFieldProps } from '@mui/material';
import { useTranslation } from 'react-i18next';

export type PickerOption<V extends string | number> = { value: V; label: string };

export type PickerProps<V extends string | number> = {
  /** '' (or undefined/null) is "nothing chosen" — "all" in a filter. */
  value: V | '' | null | undefined;
  onChange: (value: V | '') => void;
  /** Filters: adds a first option "All" whose value is ''. */
  withAll?: boolean;
} & Omit<TextFieldProps, 'value' | 'onChange' | 'select' | 'children'>;

/** A select over fixed options, shared by the pickers; numbers come back as numbers. */
export function SelectField<V extends string | number>({
  value,
  onChange,
  withAll,
  options,
  ...rest
}: PickerProps<V> & { options: PickerOption<V>[] }) {
  const { t } = useTranslation();
  const numeric = typeof options[0]?.value === 'number';
  return (
    <TextField
      {...rest}
      select
      value={value ?? ''}
      onChange={(e) => {
        const raw = e.target.value;
        onChange(raw === '' ? '' : ((numeric ? Number(raw) : raw) as V));
      }}
      slotProps={
        withAll
          ? // Keeps the label up on "All" (value ''), which otherwise looks like an empty field.
            { ...rest.slotProps, inputLabel: { shrink: true }, select: { displayEmpty: true } }
          : rest.slotProps
      }
    >
      {withAll && <MenuItem value="">{t('list.all')}</MenuItem>}
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
