import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import {
  BUCHAREST,
  BUCHAREST_SECTORS,
  type BucharestSector,
} from '../../../../shared/constants.js';
import { type PickerProps, SelectField } from './select-field.js';

/** A students filter on Bucharest's sector: one sector, or those whose sector is not set. */
export type SectorFilter = `${BucharestSector}` | 'none' | '';

/** The `where` of a sector filter on `field` (undefined: every sector). */
export const sectorWhere = (sector: SectorFilter, field = 'bucharestSector') =>
  sector === '' ? undefined : { [field]: sector === 'none' ? null : Number(sector) };

/** The sector filter of a students list, shown once the county filter is București. */
export function SectorSelect(props: Omit<PickerProps<Exclude<SectorFilter, ''>>, 'withAll'>) {
  const { t } = useTranslation();
  const options = [
    ...BUCHAREST_SECTORS.map((s) => ({
      value: String(s) as `${BucharestSector}`,
      label: t('sectors.option', { sector: s }),
    })),
    { value: 'none' as const, label: t('sectors.notSet') },
  ];
  return (
    <SelectField
      fullWidth
      size="small"
      withAll
      label={t('sectors.label')}
      {...props}
      options={options}
    />
  );
}

/**
 * A person's county for staff lists: "București, sectorul 3", or "București" with "sector
 * necompletat" beside it while a Bucharest student's sector is not set.
 */
export function CountyText({ county, sector }: { county: string | null; sector: number | null }) {
  const { t } = useTranslation();
  if (county === null) return null;
  if (sector !== null) return <>{t('sectors.countyWithSector', { county, sector })}</>;
  if (county !== BUCHAREST) return <>{county}</>;
  return (
    <>
      {county}{' '}
      <Typography component="span" variant="body2" color="warning.main">
        ({t('sectors.notSet')})
      </Typography>
    </>
  );
}
