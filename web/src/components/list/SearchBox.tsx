import Search from '@mui/icons-material/Search';
import { InputAdornment, TextField, type TextFieldProps } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { MAX_SEARCH_LENGTH } from '../../../../shared/constants.js';

export const SEARCH_DEBOUNCE_MS = 300;

type Props = {
  /** The search the list currently uses. */
  value: string;
  /** Called ~300 ms after the user stops typing, with the new text. */
  onChange: (text: string) => void;
  label: string;
  placeholder?: string;
} & Omit<TextFieldProps, 'value' | 'onChange' | 'label'>;

/**
 * A debounced search field, bounded by MAX_SEARCH_LENGTH like the server. It only reports
 * text; turn it into a `where` with `nameSearchWhere` (family or given name by default).
 */
export function SearchBox({ value, onChange, label, placeholder, ...rest }: Props) {
  const [text, setText] = useState(value);
  const reported = useRef(value);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  // The list cleared or replaced the search (filters reset): show what it uses now.
  useEffect(() => {
    if (value !== reported.current) {
      reported.current = value;
      setText(value);
    }
  }, [value]);

  useEffect(() => {
    if (text === reported.current) return;
    const timer = setTimeout(() => {
      reported.current = text;
      onChangeRef.current(text);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  return (
    <TextField
      size="small"
      type="search"
      {...rest}
      label={label}
      placeholder={placeholder}
      value={text}
      onChange={(e) => setText(e.target.value.slice(0, MAX_SEARCH_LENGTH))}
      slotProps={{
        htmlInput: { maxLength: MAX_SEARCH_LENGTH },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <Search fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
