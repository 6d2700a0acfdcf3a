import { Grid } from '@mui/material';
import type { Control, FieldValues, Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { COUNTIES, DISCIPLINES, GRADES, STUDENT_LOCALES } from '../../../../shared/constants.js';
import { FormSelect, FormText } from './fields.js';

/**
 * The fields a person's details share between sign-up and the profile, each in its grid cell,
 * bound to a form whose values have the named keys. Labels, options and browser autofill hints
 * are the same on every screen that asks for them.
 */
type FieldsOf<T extends FieldValues, K extends string> = { control: Control<T> } & ([K] extends [
  keyof T,
]
  ? unknown
  : never); // a form without one of the keys: the props are `never` and the call does not compile

// react-hook-form cannot see that a literal key is a path of a generic form; `FieldsOf`
// is what guarantees it.
const at = <T extends FieldValues>(name: string) => name as Path<T>;

const HALF = { xs: 12, sm: 6 } as const;

/** Family name and given name. */
export function NameFields<T extends FieldValues>({
  control,
}: FieldsOf<T, 'familyName' | 'givenName'>) {
  const { t } = useTranslation();
  return (
    <>
      <Grid size={HALF}>
        <FormText
          control={control}
          name={at<T>('familyName')}
          label={t('fields.familyName')}
          required
          autoComplete="family-name"
        />
      </Grid>
      <Grid size={HALF}>
        <FormText
          control={control}
          name={at<T>('givenName')}
          label={t('fields.givenName')}
          required
          autoComplete="given-name"
        />
      </Grid>
    </>
  );
}

/** A student's date of birth and grade. */
export function BirthAndGradeFields<T extends FieldValues>({
  control,
}: FieldsOf<T, 'dateOfBirth' | 'grade'>) {
  const { t } = useTranslation();
  return (
    <>
      <Grid size={HALF}>
        <FormText
          control={control}
          name={at<T>('dateOfBirth')}
          label={t('fields.dateOfBirth')}
          type="date"
          required
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </Grid>
      <Grid size={HALF}>
        <FormSelect
          control={control}
          name={at<T>('grade')}
          label={t('fields.grade')}
          required
          numeric
          options={GRADES.map((g) => ({ value: g, label: t(`grades.${g}`) }))}
        />
      </Grid>
    </>
  );
}

/** County, city and school. */
export function PlaceFields<T extends FieldValues>({
  control,
}: FieldsOf<T, 'county' | 'city' | 'school'>) {
  const { t } = useTranslation();
  return (
    <>
      <Grid size={HALF}>
        <FormSelect
          control={control}
          name={at<T>('county')}
          label={t('fields.county')}
          required
          options={COUNTIES.map((c) => ({ value: c, label: c }))}
        />
      </Grid>
      <Grid size={HALF}>
        <FormText
          control={control}
          name={at<T>('city')}
          label={t('fields.city')}
          required
          autoComplete="address-level2"
        />
      </Grid>
      <Grid size={12}>
        <FormText
          control={control}
          name={at<T>('school')}
          label={t('fields.school')}
          required
          autoComplete="organization"
        />
      </Grid>
    </>
  );
}

/** The language a student writes tests in. */
export function LocaleField<T extends FieldValues>({ control }: FieldsOf<T, 'locale'>) {
  const { t } = useTranslation();
  return (
    <Grid size={HALF}>
      <FormSelect
        control={control}
        name={at<T>('locale')}
        label={t('fields.locale')}
        required
        options={STUDENT_LOCALES.map((l) => ({ value: l, label: t(`locales.${l}`) }))}
      />
    </Grid>
  );
}

/** A teacher's discipline. */
export function DisciplineField<T extends FieldValues>({ control }: FieldsOf<T, 'discipline'>) {
  const { t } = useTranslation();
  return (
    <Grid size={HALF}>
      <FormSelect
        control={control}
        name={at<T>('discipline')}
        label={t('fields.discipline')}
        required
        options={DISCIPLINES.map((d) => ({ value: d, label: t(`disciplines.${d}`) }))}
      />
    </Grid>
  );
}
