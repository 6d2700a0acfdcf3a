import CheckCircle from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/Error';
import Refresh from '@mui/icons-material/Refresh';
import Warning from '@mui/icons-material/Warning';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  CircularProgress,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Paper,
  Typography,
} from '@mui/material';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { API_BASE } from '../../../api/client.js';
import { useOfflineApp } from '../../../lib/offline-app.js';
import { checkIndexedDb } from '../lib/idb.js';
import {
  clockLevel,
  type Level,
  latencyLevel,
  median,
  offsetFromDateHeader,
  verdictOf,
} from './connection-check.js';
import { OfflineAppCheck } from './OfflineAppCheck.js';

const PINGS = 10;
const PING_TIMEOUT_MS = 5000;

type Ping = { ok: boolean; healthy: boolean; rttMs: number; offsetMs: number | undefined };

/** One GET /api/v1/health, timed, with the server's Date header read. */
async function ping(): Promise<Ping> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), PING_TIMEOUT_MS);
  const sentWall = Date.now();
  const sent = performance.now();
  try {
    const res = await fetch(`${API_BASE}/health`, { cache: 'no-store', signal: controller.signal });
    const rttMs = performance.now() - sent;
    const body = (await res.json().catch(() => undefined)) as { status?: string } | undefined;
    return {
      ok: true,
      healthy: res.ok && body?.status === 'ok',
      rttMs,
      offsetMs: offsetFromDateHeader(res.headers.get('date'), sentWall, sentWall + rttMs),
    };
  } catch {
    return { ok: false, healthy: false, rttMs: performance.now() - sent, offsetMs: undefined };
  } finally {
    clearTimeout(timer);
  }
}

type Row = { id: string; level: Level; values?: Record<string, string | number> };
type Report = { rows: Row[]; checkedAt: Date };

async function runChecks(): Promise<Report> {
  const pings: Ping[] = [];
  for (let i = 0; i < PINGS; i++) pings.push(await ping());
  const answered = pings.filter((p) => p.ok);
  const healthy = answered.some((p) => p.healthy);
  const rtts = answered.map((p) => p.rttMs);
  // The offset of the fastest answer is the most precise.
  const fastest = answered
    .filter((p) => p.offsetMs !== undefined)
    .sort((a, b) => a.rttMs - b.rttMs)[0];
  const storage = await checkIndexedDb();
  const rows: Row[] = [
    {
      id: 'server',
      level: answered.length === 0 ? 'fail' : healthy ? 'ok' : 'fail',
      values: { answered: answered.length, total: PINGS },
    },
  ];
  if (answered.length > 0) {
    rows.push({
      id: 'latency',
      level: latencyLevel(rtts, PINGS - answered.length),
      values: {
        median: Math.round(median(rtts)),
        max: Math.round(Math.max(...rtts)),
        lost: PINGS - answered.length,
      },
    });
    rows.push({
      id: 'clock',
      level: clockLevel(fastest?.offsetMs),
      values: {
        seconds: fastest?.offsetMs === undefined ? '?' : Math.round(fastest.offsetMs / 1000),
      },
    });
  }
  rows.push({ id: 'storage', level: storage ? 'ok' : 'fail' });
  return { rows, checkedAt: new Date() };
}

const ICONS: Record<Level, React.ReactElement> = {
  ok: <CheckCircle color="success" />,
  warn: <Warning color="warning" />,
  fail: <ErrorIcon color="error" />,
};

/**
 * /verificare-conexiune: a teacher opens it on each lab computer before an online test (no
 * sign-in needed) and gets a plain verdict, with what to fix.
 */
export function ConnectionCheckPage() {
  const { t, i18n } = useTranslation();
  const [report, setReport] = useState<Report>();
  const [running, setRunning] = useState(false);
  const alive = useRef(true);
  useOfflineApp();

  const run = useCallback(async () => {
    setRunning(true);
    const next = await runChecks();
    if (!alive.current) return;
    setReport(next);
    setRunning(false);
  }, []);

  useEffect(() => {
    alive.current = true;
    void run();
    return () => {
      alive.current = false;
    };
  }, [run]);

  const verdict = report ? verdictOf(report.rows.map((r) => r.level)) : undefined;
  const severity = verdict === 'ready' ? 'success' : verdict === 'remarks' ? 'warning' : 'error';

  return (
    <Paper component="section" sx={{ p: { xs: 2, sm: 4 }, maxWidth: 760, mx: 'auto' }}>
      <Typography variant="h4" component="h1" sx={{ fontSize: { xs: '1.6rem', sm: '2.1rem' } }}>
        {t('connection.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 3 }}>
        {t('connection.intro')}
      </Typography>
      {running && (
        <Box role="status" sx={{ display: 'flex', gap: 1.5, alignItems: 'center', mb: 2 }}>
          <CircularProgress size={22} />
          <Typography>{t('connection.running')}</Typography>
        </Box>
      )}
      {report && verdict && !running && (
        <Alert severity={severity} sx={{ mb: 2 }} data-testid="connection-verdict">
          <AlertTitle>{t(`connection.verdict.${verdict}`)}</AlertTitle>
          {t(`connection.verdictText.${verdict}`)}
        </Alert>
      )}
      {report && (
        <List aria-label={t('connection.results')} sx={{ opacity: running ? 0.5 : 1 }}>
          {report.rows.map((row) => (
            <ListItem key={row.id} alignItems="flex-start" disableGutters data-level={row.level}>
              <ListItemIcon sx={{ minWidth: 40, mt: 0.5 }}>{ICONS[row.level]}</ListItemIcon>
              <ListItemText
                primary={t(`connection.${row.id}.title`)}
                secondary={t(`connection.${row.id}.${row.level}`, row.values)}
                slotProps={{ primary: { sx: { fontWeight: 500 } } }}
              />
            </ListItem>
          ))}
        </List>
      )}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', mt: 2 }}>
        <Button
          variant="contained"
          startIcon={<Refresh />}
          disabled={running}
          onClick={() => void run()}
        >
          {t('connection.again')}
        </Button>
        {report && (
          <Typography variant="body2" color="text.secondary">
            {t('connection.checkedAt', {
              time: new Intl.DateTimeFormat(i18n.language, { timeStyle: 'medium' }).format(
                report.checkedAt,
              ),
            })}
          </Typography>
        )}
      </Box>
      <OfflineAppCheck />
    </Paper>
  );
}
