import { MenuItem, TextField, type TextFieldProps } from '@mui/material';
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

type Base<T extends FieldValues> = {
  control: Control<T>;
  name: Path<T>;
  label: string;
} & Omit<TextFieldProps, 'name' | 'label' | 'select'>;

/** A text field bound to react-hook-form; its error (a field code) shows translated. */
export function FormText<T extends FieldValues>({
  control,
  name,
  label,
  helperText,
  ...rest
}: Base<T>) {
  const { t } = useTranslation();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          {...rest}
          {...field}
          value={field.value ?? ''}
          label={label}
          error={fieldState.error !== undefined}
          helperText={
            fieldState.error?.message ? t(`error_${fieldState.error.message}`) : helperText
          }
          fullWidth
        />
      )}
    />
  );
}

/** A select bound to react-hook-form; `numeric` turns the chosen value back into a number. */
export function FormSelect<T extends FieldValues>({
  control,
  name,
  label,
  options,
  numeric,
  helperText,
  ...rest
}: Base<T> & { options: { value: string | number; label: string }[]; numeric?: boolean }) {
  const { t } = useTranslation();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          {...rest}
          select
          name={field.name}
          inputRef={field.ref}
          onBlur={field.onBlur}
          value={field.value ?? ''}
          onChange={(e) => {
            const v = e.target.value;
            field.onChange(numeric ? (v === '' ? undefined : Number(v)) : v);
          }}
          label={label}
          error={fieldState.error !== undefined}
          helperText={
            fieldState.error?.message ? t(`error_${fieldState.error.message}`) : helperText
          }
          fullWidth
        >
          {options.map((o) => (
            <MenuItem key={o.value} value={o.value}>
              {o.label}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}
