import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import HighlightOff from '@mui/icons-material/HighlightOff';
import { Button, Stack, Toolbar, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { UserState } from '../../../../../shared/constants.js';

type Props = {
  count: number;
  busy: boolean;
  onChange: (state: UserState) => void;
};

/** Shown while rows are selected: how many, and the bulk activate / inactivate buttons. */
export function BulkStateBar({ count, busy, onChange }: Props) {
  const { t } = useTranslation();
  return (
    <Toolbar
      variant="dense"
      sx={{
        gap: 1,
        flexWrap: 'wrap',
        bgcolor: 'action.selected',
      }}
    >
      <Typography sx={{ flex: 1 }} role="status">
        {t('people.selected', { count })}
      </Typography>
      <Stack direction="row" spacing={1}>
        <Button
          size="small"
          variant="contained"
          color="success"
          startIcon={<CheckCircleOutline />}
          disabled={busy}
          onClick={() => onChange('active')}
        >
          {t('people.activate')}
        </Button>
        <Button
          size="small"
          variant="outlined"
          color="inherit"
          startIcon={<HighlightOff />}
          disabled={busy}
          onClick={() => onChange('inactive')}
        >
          {t('people.inactivate')}
        </Button>
      </Stack>
    </Toolbar>
  );
}
