import { alpha, Box, ButtonBase, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { SaveStatus } from '../lib/answer-queue.js';

export type NavEntry = { itemId: string; position: number; answered: boolean; status: SaveStatus };

type Props = {
  entries: NavEntry[];
  current: number;
  onSelect: (index: number) => void;
  /** A single scrolling row (phones) instead of a grid. */
  row?: boolean;
};

const tone = (e: NavEntry) =>
  e.status === 'unsaved' || e.status === 'rejected'
    ? 'error'
    : e.status === 'local'
      ? 'warning'
      : e.answered
        ? 'primary'
        : undefined;

/**
 * The questions by number: filled when answered, amber while only on this device, red when
 * not saved; the current one ringed. Each says its state to screen readers.
 */
export function QuestionNav({ entries, current, onSelect, row }: Props) {
  const { t } = useTranslation();
  return (
    <Box
      component="nav"
      aria-label={t('player.nav.label')}
      sx={{
        display: row ? 'flex' : 'grid',
        gridTemplateColumns: 'repeat(auto-fill, minmax(44px, 1fr))',
        gap: 1,
        overflowX: row ? 'auto' : undefined,
        // Room for the ring of the current number inside the scrolling row.
        p: row ? 0.75 : 0,
        mx: row ? -0.75 : 0,
      }}
    >
      {entries.map((e, i) => {
        const color = tone(e);
        const isCurrent = i === current;
        return (
          <ButtonBase
            key={e.itemId}
            onClick={() => onSelect(i)}
            aria-current={isCurrent ? 'step' : undefined}
            aria-label={t('player.nav.item', {
              n: e.position,
              // A cleared answer the server has is still "no answer" to the student.
              status: t(`player.save.${!e.answered && e.status === 'saved' ? 'none' : e.status}`),
            })}
            data-status={e.status}
            sx={(theme) => {
              const main = color ? theme.palette[color].main : theme.palette.text.secondary;
              return {
                flex: row ? '0 0 44px' : undefined,
                height: 44,
                borderRadius: 1.5,
                fontWeight: 700,
                fontSize: '1rem',
                border: 2,
                borderColor: color ? main : theme.palette.divider,
                color: color && e.answered ? theme.palette[color].contrastText : main,
                bgcolor: color && e.answered ? main : color ? alpha(main, 0.08) : 'transparent',
                outline: isCurrent
                  ? `3px solid ${alpha(theme.palette.primary.main, 0.45)}`
                  : 'none',
                outlineOffset: 2,
                transition: 'background-color 150ms',
                '&:hover': { bgcolor: color && e.answered ? main : alpha(main, 0.12) },
                '&.Mui-focusVisible': { outline: `3px solid ${theme.palette.primary.main}` },
              };
            }}
          >
            {e.position}
          </ButtonBase>
        );
      })}
    </Box>
  );
}

/** What the colours of the numbers mean. */
export function NavLegend() {
  const { t } = useTranslation();
  const swatch = (key: string, sx: object) => (
    <Box key={key} sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <Box sx={{ width: 16, height: 16, borderRadius: 0.5, border: 2, flexShrink: 0, ...sx }} />
      <Typography variant="caption" color="text.secondary">
        {t(`player.nav.legend.${key}`)}
      </Typography>
    </Box>
  );
  return (
    <Box sx={{ mt: 2, display: 'grid', gap: 0.5 }}>
      {swatch('saved', { bgcolor: 'primary.main', borderColor: 'primary.main' })}
      {swatch('local', { bgcolor: 'warning.main', borderColor: 'warning.main' })}
      {swatch('unsaved', { bgcolor: 'error.main', borderColor: 'error.main' })}
      {swatch('none', { borderColor: 'divider' })}
    </Box>
  );
}
