import { useTranslation } from 'react-i18next';
import { USER_STATES, type UserState } from '../../../../../shared/constants.js';
import { type PickerProps, SelectField } from '../../../components/pickers/select-field.js';

/** Active / inactive account filter ('' = all). */
export function StateSelect(props: PickerProps<UserState>) {
  const { t } = useTranslation();
  const options = USER_STATES.map((s) => ({ value: s, label: t(`states.${s}`) }));
  return <SelectField {...props} options={options} />;
}
