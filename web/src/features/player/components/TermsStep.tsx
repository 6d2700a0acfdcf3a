import PlayArrow from '@mui/icons-material/PlayArrow';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  CircularProgress,
  FormControlLabel,
  FormGroup,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MyTest } from '../../../../../shared/schemas/player.js';
import { formatWhen, testTitle } from '../lib/title.js';

/** The four promises of SPEC.md §4, each ticked before the test can start. */
export const TERMS = ['alone', 'resources', 'noHelp', 'rules'] as const;

type Props = { test: MyTest; starting: boolean; onStart: () => void };

/** Before the start: what the test is, how long it lasts, and the terms to accept. */
export function TermsStep({ test, starting, onStart }: Props) {
  const { t, i18n } = useTranslation();
  const [accepted, setAccepted] = useState<ReadonlySet<string>>(new Set());
  const all = TERMS.every((k) => accepted.has(k));
  const toggle = (key: string) =>
    setAccepted((prev) => {
      const next = new Set(prev);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  return (
    <Paper component="section" sx={{ p: { xs: 2, sm: 4 }, maxWidth: 760, mx: 'auto' }}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
        {testTitle(test.subject, test.grades, t)}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5 }}>
        {[test.examName, test.editionName, test.phaseName].join(' · ')}
      </Typography>
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5, my: 2 }}
      >
        <Typography component="dt" color="text.secondary">
          {t('player.terms.test')}
        </Typography>
        <Typography component="dd" sx={{ m: 0 }}>
          {test.name}
        </Typography>
        <Typography component="dt" color="text.secondary">
          {t('player.terms.duration')}
        </Typography>
        <Typography component="dd" sx={{ m: 0 }}>
          {t('player.terms.minutes', { count: test.duration })}
        </Typography>
        <Typography component="dt" color="text.secondary">
          {t('player.terms.closes')}
        </Typography>
        <Typography component="dd" sx={{ m: 0 }}>
          {formatWhen(test.endDate, i18n.language)}
        </Typography>
      </Box>
      <Alert severity="info" sx={{ mb: 2 }}>
        {t('player.terms.timerNote')}
      </Alert>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('player.terms.title')}
      </Typography>
      <FormGroup>
        {TERMS.map((key) => (
          <FormControlLabel
            key={key}
            sx={{ alignItems: 'flex-start', mb: 1, '& .MuiCheckbox-root': { pt: 0.25 } }}
            control={<Checkbox checked={accepted.has(key)} onChange={() => toggle(key)} />}
            label={t(`player.terms.${key}`)}
          />
        ))}
      </FormGroup>
      <Stack direction="row" sx={{ mt: 2, justifyContent: 'flex-end' }}>
        <Button
          variant="contained"
          size="large"
          disabled={!all || starting}
          onClick={onStart}
          startIcon={starting ? <CircularProgress size={18} color="inherit" /> : <PlayArrow />}
        >
          {t('player.terms.start')}
        </Button>
      </Stack>
    </Paper>
  );
}
