import EditLocationAlt from '@mui/icons-material/EditLocationAlt';
import { IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BUCHAREST_SECTORS, type BucharestSector } from '../../../../../shared/constants.js';
import type { Person } from '../../../../../shared/schemas/people.js';
import { ApiError } from '../../../api/client.js';
import { ConfirmDialog } from '../../../components/list/ConfirmDialog.js';
import { SelectField } from '../../../components/pickers/select-field.js';
import { useSnackbar } from '../../../lib/snackbar.js';
import { useSetSector } from '../api/set-sector.js';

/** The row's "set the sector" button of a Bucharest student, named after the person. */
export function SectorButton(props: { name: string; onClick: () => void }) {
  const { t } = useTranslation();
  const label = t('people.sector.row', { name: props.name });
  return (
    <Tooltip title={label}>
      <IconButton size="small" aria-label={label} onClick={props.onClick}>
        <EditLocationAlt fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}

/**
 * An admin sets (or corrects) a Bucharest student's sector from the students list: the dry
 * run of a sectors rule names those without one, and the student may not be there to do it.
 */
export function SectorDialog({ person, onClose }: { person: Person | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const save = useSetSector();
  const [chosen, setChosen] = useState<BucharestSector | ''>('');
  const [failure, setFailure] = useState<string | null>(null);
  const name = [person?.familyName, person?.givenName].filter(Boolean).join(' ') || person?.email;
  const current = (person?.bucharestSector ?? '') as BucharestSector | '';
  const value = chosen === '' ? current : chosen;

  const close = () => {
    setChosen('');
    setFailure(null);
    onClose();
  };
  const handleConfirm = async () => {
    if (!person?._id) return;
    if (value === '') {
      setFailure('sectors.required');
      return;
    }
    try {
      await save.mutateAsync({ id: person._id, sector: value });
      notify('people.sector.done', 'success', { name, sector: value });
      close();
    } catch (e) {
      setFailure(`errors.${e instanceof ApiError ? e.code : 'GENERAL_ERROR'}`);
    }
  };

  return (
    <ConfirmDialog
      open={person !== null}
      title={t('people.sector.title')}
      message={
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography color="text.secondary">{t('people.sector.text', { name })}</Typography>
          <SelectField<BucharestSector>
            fullWidth
            size="small"
            label={t('sectors.label')}
            value={value}
            onChange={(v) => {
              setChosen(v);
              setFailure(null);
            }}
            options={BUCHAREST_SECTORS.map((s) => ({
              value: s,
              label: t('sectors.option', { sector: s }),
            }))}
          />
        </Stack>
      }
      confirmLabel={t('people.sector.confirm')}
      busy={save.isPending}
      error={failure && t(failure, { defaultValue: t('errors.GENERAL_ERROR') })}
      onConfirm={handleConfirm}
      onClose={close}
    />
  );
}
