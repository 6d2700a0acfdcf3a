import Refresh from '@mui/icons-material/Refresh';
import {
  Alert,
  Box,
  Button,
  Chip,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import {
  LIVE_MINUTES,
  type LiveCounts,
  type LiveResponse,
  WRITING_SECONDS,
} from '../../../../shared/schemas/exam-day.js';
import {
  type PhaseContext,
  type PhaseIds,
  usePhaseContext,
} from '../../components/phase/get-phase-context.js';
import { PhaseCrumbs } from '../../components/phase/PhaseCrumbs.js';
import { PhasePageState } from '../../components/phase/PhasePageState.js';
import { gradesTitle } from '../../lib/grades-title.js';
import { useLive } from './api/get-live.js';

const CARDS = ['signedIn', 'started', 'writing', 'finished', 'disconnected'] as const;
const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;

/**
 * `…/phases/{phaseId}/ziua-examenului`: the exam-day panel beside the room, for the exam's
 * staff (every student) and a coordinator (their own): big counts, the answer writes of the
 * last minutes, who went quiet; refreshed every 10 s.
 */
export function ExamDayPage() {
  const { examId = '', editionId = '', phaseId = '' } = useParams();
  const ids: PhaseIds = useMemo(
    () => ({ examId, editionId, phaseId }),
    [examId, editionId, phaseId],
  );
  const context = usePhaseContext(ids);
  const live = useLive(ids);
  const back = `/examene/${examId}/editii/${editionId}/phases/${phaseId}`;
  if (!context.data || !live.data) {
    return <PhasePageState error={context.error ?? live.error} back={back} />;
  }
  return (
    <Panel
      context={context.data}
      live={live.data}
      failed={live.isError}
      refreshing={live.isFetching}
      onRefresh={() => void live.refetch()}
    />
  );
}

type PanelProps = {
  context: PhaseContext;
  live: LiveResponse;
  failed: boolean;
  refreshing: boolean;
  onRefresh(): void;
};

function Panel({ context, live, failed, refreshing, onRefresh }: PanelProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === 'en' ? 'en-GB' : 'ro-RO';
  const clock = (iso: string, seconds = true) =>
    new Date(iso).toLocaleTimeString(locale, {
      hour: '2-digit',
      minute: '2-digit',
      ...(seconds ? { second: '2-digit' } : {}),
    });
  const number = (n: number) => n.toLocaleString(locale);
  const testName = (testId: string) => live.tests.find((x) => x.testId === testId)?.name ?? '';
  const quietFor = (iso: string) =>
    Math.max(1, Math.floor((Date.parse(live.serverNow) - Date.parse(iso)) / 60_000));
  const busiest = Math.max(1, ...live.minutes.map((m) => m.writes));

  return (
    <Stack spacing={2}>
      <Box>
        <PhaseCrumbs {...context} current={t('examDay.title')} />
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
          <Typography variant="h5" component="h1" sx={{ flex: 1, minWidth: 200 }}>
            {t('examDay.title')}
          </Typography>
          <Chip label={t(`examDay.scope.${live.scope}`)} />
          <Typography role="status" aria-live="polite" color="text.secondary">
            {t('examDay.updated', { time: clock(live.serverNow) })}
          </Typography>
          <Button startIcon={<Refresh />} onClick={onRefresh} disabled={refreshing}>
            {t('examDay.refresh')}
          </Button>
        </Box>
        <Typography variant="body2" color="text.secondary">
          {t('examDay.autoRefresh')}
        </Typography>
      </Box>
      {failed && <Alert severity="warning">{t('examDay.stale')}</Alert>}

      <Box
        component="section"
        aria-label={t('examDay.countsLabel')}
        sx={{
          display: 'grid',
          gap: 1.5,
          gridTemplateColumns: { xs: 'repeat(2, 1fr)', sm: 'repeat(3, 1fr)', md: 'repeat(5, 1fr)' },
        }}
      >
        {CARDS.map((key) => (
          <CountCard
            key={key}
            label={t(`examDay.counts.${key}`)}
            hint={t(`examDay.hints.${key}`, { seconds: WRITING_SECONDS })}
            value={number(live.total[key])}
            of={t('examDay.ofRegistered', { count: live.total.registered })}
            alarm={key === 'disconnected' && live.total.disconnected > 0}
          />
        ))}
      </Box>

      {live.tests.length > 0 && (
        <Paper component="section" aria-labelledby="exam-day-tests" sx={{ p: { xs: 1, sm: 2 } }}>
          <Typography id="exam-day-tests" variant="h6" component="h2" sx={{ px: 1 }}>
            {t('examDay.tests')}
          </Typography>
          <TableContainer>
            <Table size="small" aria-labelledby="exam-day-tests">
              <TableHead>
                <TableRow>
                  <TableCell>{t('examDay.test')}</TableCell>
                  <TableCell align="right">{t('examDay.counts.registered')}</TableCell>
                  {CARDS.map((key) => (
                    <TableCell key={key} align="right">
                      {t(`examDay.counts.${key}`)}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {live.tests.map((test) => (
                  <TableRow key={test.testId}>
                    <TableCell component="th" scope="row">
                      {test.name}
                      <Typography variant="body2" color="text.secondary" component="span">
                        {` · ${gradesTitle(test.grades, t)} · ${clock(test.startDate, false)}–${clock(test.endDate, false)}`}
                      </Typography>
                    </TableCell>
                    <TableCell align="right">{number(test.registered)}</TableCell>
                    {CARDS.map((key) => (
                      <TableCell key={key} align="right">
                        {number((test as LiveCounts)[key])}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </Paper>
      )}

      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        <Paper component="section" aria-labelledby="exam-day-writes" sx={{ p: { xs: 1, sm: 2 } }}>
          <Typography id="exam-day-writes" variant="h6" component="h2" sx={{ px: 1 }}>
            {t('examDay.writes.title', { minutes: LIVE_MINUTES })}
          </Typography>
          <Typography sx={{ px: 1 }} color="text.secondary">
            {t('examDay.writes.summary', {
              writes: number(live.writes),
              rate: (live.writes / (LIVE_MINUTES * 60)).toLocaleString(locale, {
                maximumFractionDigits: 2,
              }),
              p99: live.p99Ms === null ? '—' : `≤ ${number(live.p99Ms)} ms`,
              errors: number(live.errors),
              processes: live.processes,
            })}
          </Typography>
          <Typography variant="body2" sx={{ px: 1 }} color="text.secondary">
            {t('examDay.writes.note')}
          </Typography>
          <TableContainer>
            <Table size="small" aria-labelledby="exam-day-writes">
              <TableHead>
                <TableRow>
                  <TableCell>{t('examDay.writes.minute')}</TableCell>
                  <TableCell align="right">{t('examDay.writes.perMinute')}</TableCell>
                  <TableCell sx={{ width: '30%' }}>
                    <Box component="span" sx={visuallyHidden}>
                      {t('examDay.writes.bar')}
                    </Box>
                  </TableCell>
                  <TableCell align="right">{t('examDay.writes.p99')}</TableCell>
                  <TableCell align="right">{t('examDay.writes.errors')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {live.minutes.map((m) => (
                  <TableRow key={m.minute}>
                    <TableCell component="th" scope="row">
                      {clock(m.minute, false)}
                    </TableCell>
                    <TableCell align="right">{number(m.writes)}</TableCell>
                    <TableCell aria-hidden>
                      <Box
                        sx={{
                          height: 10,
                          borderRadius: 1,
                          bgcolor: 'primary.main',
                          width: `${Math.round((m.writes / busiest) * 100)}%`,
                        }}
                      />
                    </TableCell>
                    <TableCell align="right">
                      {m.p99Ms === null ? '—' : `≤ ${number(m.p99Ms)} ms`}
                    </TableCell>
                    <TableCell
                      align="right"
                      sx={{ color: m.errors > 0 ? 'error.main' : undefined }}
                    >
                      {number(m.errors)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </Paper>

        <Paper component="section" aria-labelledby="exam-day-quiet" sx={{ p: { xs: 1, sm: 2 } }}>
          <Typography id="exam-day-quiet" variant="h6" component="h2" sx={{ px: 1 }}>
            {t('examDay.quiet.title', { count: live.total.disconnected })}
          </Typography>
          {live.disconnected.length === 0 ? (
            <Typography color="text.secondary" sx={{ px: 1, py: 2 }}>
              {t('examDay.quiet.none')}
            </Typography>
          ) : (
            <TableContainer>
              <Table size="small" aria-labelledby="exam-day-quiet">
                <TableHead>
                  <TableRow>
                    <TableCell>{t('examDay.quiet.student')}</TableCell>
                    <TableCell>{t('examDay.quiet.school')}</TableCell>
                    <TableCell>{t('examDay.test')}</TableCell>
                    <TableCell align="right">{t('examDay.quiet.lastSeen')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {live.disconnected.map((s) => (
                    <TableRow key={s.studentId}>
                      <TableCell component="th" scope="row">
                        {[s.familyName, s.givenName].filter(Boolean).join(' ') || '—'}
                      </TableCell>
                      <TableCell>
                        {[s.school, s.grade === null ? null : t(`grades.${s.grade}`)]
                          .filter(Boolean)
                          .join(', ') || '—'}
                      </TableCell>
                      <TableCell>{testName(s.testId)}</TableCell>
                      <TableCell align="right">
                        {t('examDay.quiet.seenAt', {
                          time: clock(s.lastSeenAt),
                          count: quietFor(s.lastSeenAt),
                        })}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
        </Paper>
      </Box>
    </Stack>
  );
}

type CardProps = { label: string; hint: string; value: string; of: string; alarm: boolean };

function CountCard({ label, hint, value, of, alarm }: CardProps) {
  return (
    <Paper
      variant="outlined"
      role="group"
      aria-label={label}
      sx={{
        p: 1.5,
        borderColor: alarm ? 'error.main' : undefined,
        borderWidth: alarm ? 2 : 1,
      }}
    >
      <Typography component="h2" variant="subtitle1" fontWeight={600}>
        {label}
      </Typography>
      <Typography
        sx={{ fontSize: '2.75rem', lineHeight: 1.1, fontWeight: 700 }}
        color={alarm ? 'error.main' : 'text.primary'}
      >
        {value}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {of}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {hint}
      </Typography>
    </Paper>
  );
}
