import AccessTime from '@mui/icons-material/AccessTime';
import { Box, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTimer, remainingSeconds } from '../lib/server-clock.js';

const WARN_SECONDS = 5 * 60;
const ALERT_SECONDS = 60;

/** The server's remaining time, on the server's clock (never this computer's). */
export function TimerDisplay({
  deadlineMs,
  serverNow,
}: {
  deadlineMs: number;
  serverNow: () => number;
}) {
  const { t } = useTranslation();
  const [, setTick] = useState(0);
  useEffect(() => {
    const id = setInterval(() => setTick((n) => n + 1), 250);
    return () => clearInterval(id);
  }, []);
  const left = remainingSeconds(deadlineMs, serverNow());
  const color = left <= ALERT_SECONDS ? 'error' : left <= WARN_SECONDS ? 'warning' : 'primary';
  const text = formatTimer(left);
  return (
    <Box
      role="timer"
      aria-label={t('player.timer.label', { time: text })}
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.75,
        px: 1.25,
        py: 0.5,
        borderRadius: 2,
        border: 2,
        borderColor: `${color}.main`,
        color: `${color}.main`,
        bgcolor: 'background.paper',
        fontVariantNumeric: 'tabular-nums',
      }}
    >
      <AccessTime fontSize="small" />
      <Typography component="span" sx={{ fontWeight: 700, fontSize: '1.125rem', lineHeight: 1.2 }}>
        {text}
      </Typography>
    </Box>
  );
}
