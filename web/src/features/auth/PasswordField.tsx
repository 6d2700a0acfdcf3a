import type { Control, FieldValues, Path } from 'react-hook-form';
import { FormText } from '../../components/form/fields.js';
import { usePasswordToggle } from './PasswordToggle.js';

export function PasswordField<T extends FieldValues>(props: {
  control: Control<T>;
  name: Path<T>;
  label: string;
  autoComplete: 'current-password' | 'new-password';
  helperText?: string;
}) {
  return <FormText {...props} {...usePasswordToggle()} />;
}
