import { useTranslation } from 'react-i18next';
import { GRADES } from '../../../../shared/constants.js';
import { type PickerProps, SelectField } from './select-field.js';

export type Grade = (typeof GRADES)[number];

/** Grade options 0–12 and 99 'Absolvent', labelled by the `grades.*` keys. */
export function useGradeOptions(grades: readonly number[] = GRADES) {
  const { t } = useTranslation();
  return grades.map((g) => ({ value: g, label: t(`grades.${g}`) }));
}

/**
 * Grade picker (numbers come back as numbers). `withAll` for filters; in a form bind it with
 * react-hook-form's Controller. `grades` narrows the list (e.g. an exam's grades).
 */
export function GradeSelect({
  grades,
  ...props
}: PickerProps<number> & { grades?: readonly number[] }) {
  const options = useGradeOptions(grades);
  return <SelectField {...props} options={options} />;
}
