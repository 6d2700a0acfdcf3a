import type { TextFieldProps } from '@mui/material';
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import DateTimeInput from './date-time-input.js';

type Props<T extends FieldValues> = {
  control: Control<T>;
  name: Path<T>;
  label: string;
  /** A date and a time (phases, tests) or a date alone (a date of birth). */
  kind?: 'dateTime' | 'date';
  required?: boolean;
  disabled?: boolean;
  helperText?: TextFieldProps['helperText'];
  /** Bounds of the calendar, as form values ("2026-03-14T09:00"); the server checks anyway. */
  min?: string;
  max?: string;
};

/**
 * A date (and time) field bound to react-hook-form, written and picked in the interface
 * language (date-time-input.tsx); its error (a field code) shows translated.
 */
export function FormDateTime<T extends FieldValues>({
  control,
  name,
  label,
  kind = 'dateTime',
  required,
  disabled,
  helperText,
  min,
  max,
}: Props<T>) {
  const { t, i18n } = useTranslation();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <DateTimeInput
          kind={kind}
          language={i18n.language}
          label={label}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          name={field.name}
          inputRef={field.ref}
          required={required}
          disabled={disabled}
          error={fieldState.error !== undefined}
          helperText={
            fieldState.error?.message ? t(`error_${fieldState.error.message}`) : helperText
          }
          min={min}
          max={max}
        />
      )}
    />
  );
}
