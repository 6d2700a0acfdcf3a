import type { TextFieldProps } from '@mui/material';
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { enUS, roRO } from '@mui/x-date-pickers/locales';
import { format, isValid, parse } from 'date-fns';
import { enGB, ro } from 'date-fns/locale';
import type { Ref } from 'react';

/**
 * The picker behind FormDateTime (MUI X on date-fns), in the chunks of the pages whose forms
 * have a date, none of them on a student's first load. Its value is the text a `datetime-local` (or `date`) box
 * gives, which the forms' schemas read (features/exams/format.ts): only what the person sees
 * changes — the date in their language's order (14.03.2026 09:00 in Romanian), a calendar in
 * their language.
 */
export const VALUE_FORMAT = { dateTime: "yyyy-MM-dd'T'HH:mm", date: 'yyyy-MM-dd' } as const;
/** What a half-typed or impossible date becomes: text no schema takes as a date. */
const NOT_A_DATE = 'invalid';

const LANGUAGES = {
  ro: { dates: ro, texts: roRO.components.MuiLocalizationProvider.defaultProps.localeText },
  en: { dates: enGB, texts: enUS.components.MuiLocalizationProvider.defaultProps.localeText },
} as const;

export type DateTimeInputProps = {
  kind: keyof typeof VALUE_FORMAT;
  language: string;
  label: string;
  value: string | undefined;
  onChange: (value: string) => void;
  onBlur: () => void;
  name: string;
  inputRef: Ref<HTMLInputElement>;
  required: boolean | undefined;
  disabled: boolean | undefined;
  error: boolean;
  helperText: TextFieldProps['helperText'];
  min: string | undefined;
  max: string | undefined;
};

export default function DateTimeInput(props: DateTimeInputProps) {
  const language = props.language === 'en' ? LANGUAGES.en : LANGUAGES.ro;
  const pattern = VALUE_FORMAT[props.kind];
  const read = (value: string | undefined): Date | null => {
    // A half-typed date stays on screen as the picker's own "invalid date".
    if (value === NOT_A_DATE) return new Date(Number.NaN);
    if (!value) return null;
    const date = parse(value, pattern, new Date());
    return isValid(date) ? date : null;
  };
  const lowest = read(props.min) ?? undefined;
  const highest = read(props.max) ?? undefined;
  const common = {
    label: props.label,
    disabled: props.disabled,
    value: read(props.value),
    onChange: (date: Date | null) =>
      props.onChange(date === null ? '' : isValid(date) ? format(date, pattern) : NOT_A_DATE),
    slotProps: {
      textField: {
        name: props.name,
        inputRef: props.inputRef,
        onBlur: props.onBlur,
        required: props.required,
        fullWidth: true,
        error: props.error,
        helperText: props.helperText,
      },
    },
  };
  return (
    <LocalizationProvider
      dateAdapter={AdapterDateFns}
      adapterLocale={language.dates}
      localeText={language.texts}
    >
      {props.kind === 'date' ? (
        <DatePicker {...common} minDate={lowest} maxDate={highest} />
      ) : (
        <DateTimePicker {...common} ampm={false} minDateTime={lowest} maxDateTime={highest} />
      )}
    </LocalizationProvider>
  );
}
