import { Grid } from '@mui/material';
import { format } from 'date-fns';
import { type Control, type FieldValues, type Path, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  BUCHAREST,
  BUCHAREST_SECTORS,
  COUNTIES,
  DISCIPLINES,
  GRADES,
  STUDENT_LOCALES,
} from '../../../../shared/constants.js';
import { FormDateTime } from './FormDateTime.js';
import { FormSelect, FormText } from './fields.js';

/** Today as a date field's value ("2026-11-29"): no one is born later. */
const today = () => format(new Date(), 'yyyy-MM-dd');

/**
 * The fields a person's details share between sign-up and the profile, each in its grid cell,
 * bound to a form whose values have the named keys. Labels, options and browser autofill hints
 * are the same on every screen that asks for them. All of them are required.
 */
type FieldsOf<T extends FieldValues, K extends string> = { control: Control<T> } & ([K] extends [
  keyof T,
]
  ? unknown
  : never); // a form without one of the keys: the props are `never` and the call does not compile

type Cell = {
  name: string;
  label: string;
  /** The whole row instead of half of it (from the small breakpoint up). */
  wide?: boolean;
} & (
  | { options: { value: string | number; label: string }[]; numeric?: boolean }
  | { options?: undefined; autoComplete?: string; type?: 'date' }
);

function Cells<T extends FieldValues>({ control, cells }: { control: Control<T>; cells: Cell[] }) {
  return cells.map((cell) => {
    // react-hook-form cannot see that a literal key is a path of a generic form; `FieldsOf`
    // is what guarantees it.
    const name = cell.name as Path<T>;
    return (
      <Grid key={cell.name} size={cell.wide ? 12 : { xs: 12, sm: 6 }}>
        {cell.options ? (
          <FormSelect
            control={control}
            name={name}
            label={cell.label}
            required
            numeric={cell.numeric}
            options={cell.options}
          />
        ) : cell.type === 'date' ? (
          <FormDateTime
            control={control}
            name={name}
            label={cell.label}
            kind="date"
            required
            max={today()}
          />
        ) : (
          <FormText
            control={control}
            name={name}
            label={cell.label}
            required
            autoComplete={cell.autoComplete}
          />
        )}
      </Grid>
    );
  });
}

/** Family name and given name. */
export function NameFields<T extends FieldValues>({
  control,
}: FieldsOf<T, 'familyName' | 'givenName'>) {
  const { t } = useTranslation();
  return (
    <Cells
      control={control}
      cells={[
        { name: 'familyName', label: t('fields.familyName'), autoComplete: 'family-name' },
        { name: 'givenName', label: t('fields.givenName'), autoComplete: 'given-name' },
      ]}
    />
  );
}

/** A student's date of birth and grade. */
export function BirthAndGradeFields<T extends FieldValues>({
  control,
}: FieldsOf<T, 'dateOfBirth' | 'grade'>) {
  const { t } = useTranslation();
  return (
    <Cells
      control={control}
      cells={[
        { name: 'dateOfBirth', label: t('fields.dateOfBirth'), type: 'date' },
        {
          name: 'grade',
          label: t('fields.grade'),
          numeric: true,
          options: GRADES.map((g) => ({ value: g, label: t(`grades.${g}`) })),
        },
      ]}
    />
  );
}

/** County, city and school. */
export function PlaceFields<T extends FieldValues>({
  control,
}: FieldsOf<T, 'county' | 'city' | 'school'>) {
  const { t } = useTranslation();
  return (
    <Cells
      control={control}
      cells={[
        {
          name: 'county',
          label: t('fields.county'),
          options: COUNTIES.map((c) => ({ value: c, label: c })),
        },
        { name: 'city', label: t('fields.city'), autoComplete: 'address-level2' },
        { name: 'school', label: t('fields.school'), autoComplete: 'organization', wide: true },
      ]}
    />
  );
}

/**
 * A Bucharest student's sector, asked for only while the county is București (the server
 * ignores it for another county).
 */
export function SectorField<T extends FieldValues>({
  control,
}: FieldsOf<T, 'county' | 'bucharestSector'>) {
  const { t } = useTranslation();
  const county = useWatch({ control, name: 'county' as Path<T> });
  if (county !== BUCHAREST) return null;
  const options = BUCHAREST_SECTORS.map((s) => ({
    value: s,
    label: t('sectors.option', { sector: s }),
  }));
  return (
    <Cells
      control={control}
      cells={[{ name: 'bucharestSector', label: t('sectors.label'), numeric: true, options }]}
    />
  );
}

/** The language a student writes tests in. */
export function LocaleField<T extends FieldValues>({ control }: FieldsOf<T, 'locale'>) {
  const { t } = useTranslation();
  const options = STUDENT_LOCALES.map((l) => ({ value: l, label: t(`locales.${l}`) }));
  return (
    <Cells control={control} cells={[{ name: 'locale', label: t('fields.locale'), options }]} />
  );
}

/** A teacher's discipline. */
export function DisciplineField<T extends FieldValues>({ control }: FieldsOf<T, 'discipline'>) {
  const { t } = useTranslation();
  const options = DISCIPLINES.map((d) => ({ value: d, label: t(`disciplines.${d}`) }));
  return (
    <Cells
      control={control}
      cells={[{ name: 'discipline', label: t('fields.discipline'), options }]}
    />
  );
}
