import {
  Alert,
  Box,
  Button,
  Chip,
  List,
  ListItem,
  ListItemText,
  Link as MuiLink,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Home, OrganiserPhase, PhaseBlocker } from '../../../../shared/schemas/home.js';

type Phaseish = { examId: string; editionId: string; phaseId: string };
const phasePath = (p: Phaseish) => `/examene/${p.examId}/editii/${p.editionId}/phases/${p.phaseId}`;

/** Where each blocker is fixed. */
const BLOCKER_PAGE: Record<PhaseBlocker, string> = {
  no_tests: '/tests',
  tests_unpublished: '/tests',
  markers_missing: '/questions',
  pages_awaiting: '/progres-corectare',
  appeals_open: '/contestatii',
  rules_not_applied: '/reguli',
  phase_not_closed: '',
};

function useDates() {
  const { i18n } = useTranslation();
  const format = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'full', timeStyle: 'short' }).format(
      new Date(iso),
    );
  const short = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(iso));
  return { format, short };
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper component="section" aria-labelledby={id} sx={{ p: 3 }}>
      <Typography id={id} variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

export function StudentHome({ part }: { part: NonNullable<Home['student']> }) {
  const { t } = useTranslation();
  const { format } = useDates();
  const [next, ...later] = part.tests;
  return (
    <>
      <Section id="home-next-test" title={t('home.student.nextTitle')}>
        {next ? (
          <Stack spacing={1.5}>
            <Typography variant="h5" component="p">
              {next.name}
            </Typography>
            <Typography color="text.secondary">
              {next.examName} › {next.phaseName}
            </Typography>
            <Typography>
              {t(next.state === 'upcoming' ? 'home.student.starts' : 'home.student.openUntil', {
                date: format(next.state === 'upcoming' ? next.startDate : next.endDate),
              })}
            </Typography>
            <Typography>{t('home.student.duration', { count: next.duration })}</Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
              <Button variant="contained" component={Link} to="/tests">
                {next.state === 'upcoming' ? t('home.student.toMyTests') : t('home.student.go')}
              </Button>
              <Button variant="outlined" component={Link} to="/verificare-conexiune">
                {t('home.student.checkConnection')}
              </Button>
            </Stack>
            {later.length > 0 && (
              <List dense aria-label={t('home.student.laterTitle')}>
                {later.map((x) => (
                  <ListItem key={x.testId} disableGutters>
                    <ListItemText primary={x.name} secondary={format(x.startDate)} />
                  </ListItem>
                ))}
              </List>
            )}
          </Stack>
        ) : (
          <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
            <Typography color="text.secondary">{t('home.student.noTest')}</Typography>
            <Button component={Link} to="/test/inscriere">
              {t('home.student.toSignUp')}
            </Button>
          </Stack>
        )}
      </Section>
      <Section id="home-results" title={t('home.student.resultsTitle')}>
        {part.results.length === 0 ? (
          <Typography color="text.secondary">{t('home.student.noResults')}</Typography>
        ) : (
          <List aria-labelledby="home-results">
            {part.results.map((r) => (
              <ListItem key={r.testId} divider disableGutters>
                <ListItemText
                  primary={
                    <MuiLink component={Link} to={`/teste/${r.testId}/rezultat`}>
                      {r.name}
                    </MuiLink>
                  }
                  secondary={r.phaseName}
                />
                <Box sx={{ textAlign: 'right' }}>
                  <Typography sx={{ fontWeight: 600 }}>
                    {t('home.student.points', {
                      score: (r.score ?? 0).toLocaleString(t('home.numberLocale')),
                      total: r.totalScore.toLocaleString(t('home.numberLocale')),
                    })}
                  </Typography>
                  {r.scoreState && r.scoreState !== 'final' && (
                    <Typography variant="body2" color="text.secondary">
                      {t('home.student.provisional')}
                    </Typography>
                  )}
                </Box>
              </ListItem>
            ))}
          </List>
        )}
      </Section>
    </>
  );
}

export function TeacherHome({
  part,
  showEmpty,
}: {
  part: NonNullable<Home['teacher']>;
  /** Whether to say "no students yet" (not to an organiser or a marker with other work). */
  showEmpty: boolean;
}) {
  const { t } = useTranslation();
  const { short } = useDates();
  return (
    <>
      {(part.students.total > 0 || showEmpty) && (
        <Section id="home-students" title={t('home.teacher.studentsTitle')}>
          <Stack spacing={1.5}>
            <Typography>{t('home.teacher.students', { count: part.students.total })}</Typography>
            {part.students.inactive > 0 && (
              <Alert
                severity="warning"
                variant="outlined"
                action={
                  <Button component={Link} to="/elevi" color="inherit" size="small">
                    {t('home.teacher.activate')}
                  </Button>
                }
              >
                {t('home.teacher.inactive', { count: part.students.inactive })}
              </Alert>
            )}
            {part.phases.length === 0 ? (
              <Typography color="text.secondary">{t('home.teacher.noPhases')}</Typography>
            ) : (
              <List aria-label={t('home.teacher.phasesLabel')}>
                {part.phases.map((p) => (
                  <ListItem key={p.phaseId} divider disableGutters>
                    <ListItemText
                      primary={`${p.examName} › ${p.phaseName}`}
                      secondary={`${p.editionName} · ${t('home.teacher.from', { date: short(p.startDate) })}`}
                    />
                    <Stack sx={{ alignItems: 'flex-end', flexShrink: 0, pl: 1 }}>
                      {/* "2 elevi" kept on one line beside a long name on a phone. */}
                      <Typography sx={{ whiteSpace: 'nowrap' }}>
                        {t('home.teacher.inPhase', { count: p.students })}
                      </Typography>
                      {p.inactive > 0 && (
                        <Typography variant="body2" color="text.secondary">
                          {t('home.teacher.notActive', { count: p.inactive })}
                        </Typography>
                      )}
                    </Stack>
                  </ListItem>
                ))}
              </List>
            )}
          </Stack>
        </Section>
      )}
      {part.marking.length > 0 && (
        <Section id="home-marking" title={t('home.teacher.markingTitle')}>
          <List aria-labelledby="home-marking">
            {part.marking.map((m) => (
              <ListItem key={m.phaseId} divider disableGutters>
                <ListItemText
                  primary={`${m.examName} › ${m.phaseName}`}
                  secondary={m.editionName}
                />
                <Button component={Link} to={`${phasePath(m)}/corectare`} variant="outlined">
                  {t('home.teacher.toMark', { count: m.open })}
                </Button>
              </ListItem>
            ))}
          </List>
        </Section>
      )}
    </>
  );
}

function PhaseBlockers({ phase }: { phase: OrganiserPhase }) {
  const { t } = useTranslation();
  if (phase.blockers.length === 0) {
    return <Chip color="success" variant="outlined" label={t('home.organiser.clear')} />;
  }
  return (
    <Stack component="ul" direction="row" sx={{ flexWrap: 'wrap', gap: 1, p: 0, m: 0 }}>
      {phase.blockers.map((b) => (
        <Box component="li" key={b.kind} sx={{ listStyle: 'none' }}>
          <Button
            component={Link}
            to={`${phasePath(phase)}${BLOCKER_PAGE[b.kind]}`}
            size="small"
            variant="outlined"
          >
            {t(`home.organiser.blockers.${b.kind}`, { count: b.count })}
          </Button>
        </Box>
      ))}
    </Stack>
  );
}

export function OrganiserHome({ part }: { part: NonNullable<Home['organiser']> }) {
  const { t } = useTranslation();
  const { short } = useDates();
  return (
    <Section id="home-phases" title={t('home.organiser.title')}>
      {part.phases.length === 0 ? (
        <Typography color="text.secondary">{t('home.organiser.none')}</Typography>
      ) : (
        <List aria-labelledby="home-phases">
          {part.phases.map((p) => (
            <ListItem key={p.phaseId} divider disableGutters sx={{ display: 'block', py: 1.5 }}>
              <MuiLink component={Link} to={phasePath(p)} sx={{ fontWeight: 600 }}>
                {`${p.examName} › ${p.editionName} › ${p.phaseName}`}
              </MuiLink>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                {t('home.organiser.dates', { from: short(p.startDate), to: short(p.endDate) })}
              </Typography>
              <PhaseBlockers phase={p} />
            </ListItem>
          ))}
        </List>
      )}
    </Section>
  );
}
