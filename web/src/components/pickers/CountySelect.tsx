import { COUNTIES, type County } from '../../../../shared/constants.js';
import { type PickerProps, SelectField } from './select-field.js';

/** Romania's 41 counties and București, with their diacritics (shared/constants.ts). */
export const COUNTY_OPTIONS = COUNTIES.map((c) => ({ value: c, label: c }));

/**
 * County picker. In a filter pass `withAll` (value '' means every county); in a form bind it
 * with react-hook-form's Controller (`error`, `helperText`, `required` pass through).
 */
export function CountySelect(props: PickerProps<County>) {
  return <SelectField {...props} options={COUNTY_OPTIONS} />;
}
