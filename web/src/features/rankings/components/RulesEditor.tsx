import Add from '@mui/icons-material/Add';
import Delete from '@mui/icons-material/Delete';
import {
  Box,
  Button,
  Checkbox,
  Divider,
  FormControlLabel,
  Grid,
  IconButton,
  InputAdornment,
  Paper,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AWARD_METHODS,
  RANKING_PUBLICATIONS,
  TIE_BREAKS,
  TIES_AT_CUT,
} from '../../../../../shared/schemas/rankings.js';
import { CountySelect } from '../../../components/pickers/CountySelect.js';
import { SelectField } from '../../../components/pickers/select-field.js';
import type { DraftErrors, RulesDraft } from '../rules-form.js';

type Props = {
  draft: RulesDraft;
  errors: DraftErrors;
  onChange: (patch: Partial<RulesDraft>) => void;
  /** A closed phase changes only how its ranking is shown. */
  locked: boolean;
};

/** A number box with its error translated, and a unit after it ("points", "places", "%"). */
function NumberBox(props: {
  label: string;
  value: string;
  error?: string;
  unit?: string;
  helper?: string;
  disabled?: boolean;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <TextField
      fullWidth
      size="small"
      label={props.label}
      value={props.value}
      disabled={props.disabled}
      onChange={(e) => props.onChange(e.target.value)}
      error={props.error !== undefined}
      helperText={props.error ? t(`error_${props.error}`) : props.helper}
      slotProps={{
        htmlInput: { inputMode: 'decimal', maxLength: 12 },
        input: props.unit
          ? { endAdornment: <InputAdornment position="end">{props.unit}</InputAdornment> }
          : undefined,
      }}
    />
  );
}

function Section(props: {
  title: string;
  hint: string;
  switchLabel?: string;
  on?: boolean;
  onToggle?: (on: boolean) => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Paper sx={{ p: 2 }} component="section" aria-label={props.title}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1, minWidth: 200 }}>
          {props.title}
        </Typography>
        {props.onToggle && (
          <FormControlLabel
            control={
              <Switch
                checked={props.on}
                disabled={props.disabled}
                onChange={(e) => props.onToggle?.(e.target.checked)}
              />
            }
            label={props.switchLabel}
          />
        )}
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {props.hint}
      </Typography>
      {(props.on ?? true) && props.children}
    </Paper>
  );
}

/** The phase's rule set as a form: ranking settings, qualification, prizes. */
export function RulesEditor({ draft, errors, onChange, locked }: Props) {
  const { t } = useTranslation();
  const points = t('rankings.rules.points');
  return (
    <Stack spacing={2}>
      <Section title={t('rankings.rules.ranking')} hint={t('rankings.rules.rankingHint')}>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 6 }}>
            <SelectField
              fullWidth
              size="small"
              label={t('rankings.rules.tieBreak')}
              value={draft.tieBreak}
              disabled={locked}
              onChange={(v) => v && onChange({ tieBreak: v })}
              options={TIE_BREAKS.map((v) => ({ value: v, label: t(`rankings.tieBreaks.${v}`) }))}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <SelectField
              fullWidth
              size="small"
              label={t('rankings.rules.publication')}
              value={draft.publication}
              onChange={(v) => v && onChange({ publication: v })}
              helperText={t(`rankings.publicationHints.${draft.publication}`)}
              options={RANKING_PUBLICATIONS.map((v) => ({
                value: v,
                label: t(`rankings.publications.${v}`),
              }))}
            />
          </Grid>
        </Grid>
      </Section>

      <Section
        title={t('rankings.rules.qualification')}
        hint={t('rankings.rules.qualificationHint')}
        switchLabel={t('rankings.rules.qualificationOn')}
        on={draft.qualificationOn}
        disabled={locked}
        onToggle={(qualificationOn) => onChange({ qualificationOn })}
      >
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <NumberBox
              label={t('rankings.rules.minTotal')}
              helper={t('rankings.rules.minTotalHint')}
              unit={points}
              value={draft.qMinTotal}
              error={errors.qMinTotal}
              disabled={locked}
              onChange={(qMinTotal) => onChange({ qMinTotal })}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <NumberBox
              label={t('rankings.rules.placesPerCounty')}
              value={draft.placesPerCounty}
              error={errors.placesPerCounty}
              disabled={locked}
              onChange={(placesPerCounty) => onChange({ placesPerCounty })}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <NumberBox
              label={t('rankings.rules.extraPlaces')}
              helper={t('rankings.rules.extraPlacesHint')}
              value={draft.extraPlaces}
              error={errors.extraPlaces}
              disabled={locked}
              onChange={(extraPlaces) => onChange({ extraPlaces })}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <SelectField
              fullWidth
              size="small"
              label={t('rankings.rules.tiesAtCut')}
              value={draft.qTiesAtCut}
              disabled={locked}
              onChange={(v) => v && onChange({ qTiesAtCut: v })}
              options={TIES_AT_CUT.map((v) => ({ value: v, label: t(`rankings.ties.${v}`) }))}
            />
          </Grid>
          <Grid size={12}>
            <FormControlLabel
              control={
                <Switch
                  checked={draft.unusedToExtra}
                  disabled={locked}
                  onChange={(e) => onChange({ unusedToExtra: e.target.checked })}
                />
              }
              label={t('rankings.rules.unusedToExtra')}
            />
          </Grid>
          <Grid size={12}>
            <FormControlLabel
              control={
                <Switch
                  checked={draft.sectorsAsCounties}
                  disabled={locked}
                  onChange={(e) => onChange({ sectorsAsCounties: e.target.checked })}
                />
              }
              label={t('rankings.rules.sectorsAsCounties')}
            />
            <Typography variant="body2" color="text.secondary" sx={{ ml: 6 }}>
              {t('rankings.rules.sectorsAsCountiesHint')}
            </Typography>
          </Grid>
        </Grid>
        <Divider sx={{ my: 2 }} />
        <Typography variant="subtitle1" component="h3">
          {t('rankings.rules.countyPlaces')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('rankings.rules.countyPlacesHint')}
        </Typography>
        <Stack spacing={1.5}>
          {draft.countyPlaces.map((c, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
            <Box key={i} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
              <CountySelect
                size="small"
                sx={{ flex: 2 }}
                label={t('fields.county')}
                value={c.county}
                disabled={locked}
                error={errors[`countyPlaces.${i}.county`] !== undefined}
                helperText={
                  errors[`countyPlaces.${i}.county`] &&
                  t(`rankings.rules.countyError.${errors[`countyPlaces.${i}.county`]}`)
                }
                onChange={(county) =>
                  onChange({
                    countyPlaces: draft.countyPlaces.map((x, j) =>
                      j === i ? { ...x, county } : x,
                    ),
                  })
                }
              />
              <Box sx={{ flex: 1 }}>
                <NumberBox
                  label={t('rankings.rules.places')}
                  value={c.places}
                  error={errors[`countyPlaces.${i}.places`]}
                  disabled={locked}
                  onChange={(places) =>
                    onChange({
                      countyPlaces: draft.countyPlaces.map((x, j) =>
                        j === i ? { ...x, places } : x,
                      ),
                    })
                  }
                />
              </Box>
              <IconButton
                aria-label={t('rankings.rules.removeCounty', { county: c.county || '—' })}
                disabled={locked}
                onClick={() =>
                  onChange({ countyPlaces: draft.countyPlaces.filter((_, j) => j !== i) })
                }
              >
                <Delete />
              </IconButton>
            </Box>
          ))}
          <Box>
            <Button
              size="small"
              startIcon={<Add />}
              disabled={locked}
              onClick={() =>
                onChange({ countyPlaces: [...draft.countyPlaces, { county: '', places: '' }] })
              }
            >
              {t('rankings.rules.addCounty')}
            </Button>
          </Box>
        </Stack>
      </Section>

      <Section
        title={t('rankings.rules.awards')}
        hint={t('rankings.rules.awardsHint')}
        switchLabel={t('rankings.rules.awardsOn')}
        on={draft.awardsOn}
        disabled={locked}
        onToggle={(awardsOn) => onChange({ awardsOn })}
      >
        <Grid container spacing={2} sx={{ mb: 2 }}>
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <NumberBox
              label={t('rankings.rules.minTotal')}
              helper={t('rankings.rules.minTotalHint')}
              unit={points}
              value={draft.aMinTotal}
              error={errors.aMinTotal}
              disabled={locked}
              onChange={(aMinTotal) => onChange({ aMinTotal })}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <SelectField
              fullWidth
              size="small"
              label={t('rankings.rules.tiesAtCut')}
              value={draft.aTiesAtCut}
              disabled={locked}
              onChange={(v) => v && onChange({ aTiesAtCut: v })}
              options={TIES_AT_CUT.map((v) => ({ value: v, label: t(`rankings.ties.${v}`) }))}
            />
          </Grid>
        </Grid>
        {errors.levels && (
          <Typography color="error" variant="body2" sx={{ mb: 1 }} role="alert">
            {t('rankings.rules.levelsRequired')}
          </Typography>
        )}
        <Stack spacing={1.5}>
          {draft.levels.map((level, i) => {
            const setLevel = (patch: Partial<typeof level>) =>
              onChange({
                levels: draft.levels.map((l, j) => (j === i ? { ...l, ...patch } : l)),
              });
            return (
              <Grid container spacing={1} key={level.prize} sx={{ alignItems: 'flex-start' }}>
                <Grid size={{ xs: 12, sm: 4 }}>
                  <FormControlLabel
                    control={
                      <Checkbox
                        checked={level.on}
                        disabled={locked}
                        onChange={(e) => setLevel({ on: e.target.checked })}
                      />
                    }
                    label={t(`rankings.prizes.${level.prize}`)}
                  />
                </Grid>
                <Grid size={{ xs: 7, sm: 4 }}>
                  <SelectField
                    fullWidth
                    size="small"
                    label={t('rankings.rules.method')}
                    value={level.method}
                    disabled={locked || !level.on}
                    onChange={(v) => v && setLevel({ method: v })}
                    options={AWARD_METHODS.map((v) => ({
                      value: v,
                      label: t(`rankings.methods.${v}`),
                    }))}
                  />
                </Grid>
                <Grid size={{ xs: 5, sm: 4 }}>
                  <NumberBox
                    label={t(`rankings.methodValues.${level.method}`)}
                    unit={t(`rankings.methodUnits.${level.method}`)}
                    value={level.value}
                    error={level.on ? errors[`levels.${i}.value`] : undefined}
                    disabled={locked || !level.on}
                    onChange={(value) => setLevel({ value })}
                  />
                </Grid>
              </Grid>
            );
          })}
        </Stack>
      </Section>
    </Stack>
  );
}
