import {
  Alert,
  Box,
  Paper,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Tabs,
  Typography,
} from '@mui/material';
import type { TFunction } from 'i18next';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  RuleChange,
  RuleOutcomeRow,
  RulesDryRun,
} from '../../../../../shared/schemas/rankings.js';
import { formatTotal } from '../../../lib/scores.js';
import { countyName, rowName } from '../format.js';
import { DecisionChip, PrizeChip } from './RankingChips.js';

const PAGE = 25;

type Col<T> = { label: string; render: (row: T) => ReactNode; align?: 'right' };

/** A short list of the dry run, paged in the browser (the server sends it whole). */
function RowsTable<T>(props: { label: string; rows: T[]; columns: Col<T>[]; empty: string }) {
  const [page, setPage] = useState(0);
  const shown = props.rows.slice(page * PAGE, page * PAGE + PAGE);
  if (props.rows.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
        {props.empty}
      </Typography>
    );
  }
  return (
    <Box>
      <TableContainer>
        <Table size="small" aria-label={props.label}>
          <TableHead>
            <TableRow>
              {props.columns.map((c) => (
                <TableCell key={c.label} align={c.align} sx={{ fontWeight: 600 }}>
                  {c.label}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map((row, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a page of a fixed list
              <TableRow key={i}>
                {props.columns.map((c) => (
                  <TableCell key={c.label} align={c.align}>
                    {c.render(row)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {props.rows.length > PAGE && (
        <TablePagination
          component="div"
          count={props.rows.length}
          page={page}
          rowsPerPage={PAGE}
          rowsPerPageOptions={[]}
          onPageChange={(_, p) => setPage(p)}
        />
      )}
    </Box>
  );
}

type Person = Pick<
  RuleOutcomeRow,
  'familyName' | 'givenName' | 'studentGrade' | 'studentCounty' | 'studentSector'
>;

function personColumns<T extends Person & { rank: number | null; total: number | null }>(
  t: TFunction,
  language: string,
): Col<T>[] {
  return [
    { label: t('rankings.columns.rank'), align: 'right', render: (r) => r.rank ?? '—' },
    { label: t('rankings.columns.name'), render: (r) => rowName(r) },
    {
      label: t('fields.grade'),
      render: (r) => (r.studentGrade === null ? '' : t(`grades.${r.studentGrade}`)),
    },
    { label: t('fields.county'), render: (r) => countyName(r, t) },
    {
      label: t('rankings.columns.total'),
      align: 'right',
      render: (r) => formatTotal(r.total, language),
    },
  ];
}

/** Admitted → rejected, "—" → Premiul I: what applying would change for one student. */
function Change({ before, after }: { before: ReactNode; after: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, flexWrap: 'wrap' }}>
      {before}
      <Box component="span" aria-hidden>
        →
      </Box>
      {after}
    </Box>
  );
}

/** What the rules give: per grade, who goes on, who wins, and what differs from today. */
export function DryRunView({ run }: { run: RulesDryRun }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [tab, setTab] = useState<'changes' | 'admitted' | 'awarded'>('changes');
  const hasQualification = run.rules.qualification !== null;
  const hasAwards = run.rules.awards !== null;
  const people = personColumns<RuleOutcomeRow>(t, lang);
  const statusColumn: Col<RuleChange> = {
    label: t('rankings.columns.status'),
    render: (c) =>
      c.statusBefore === c.statusAfter ? (
        <DecisionChip status={c.statusAfter} />
      ) : (
        <Change
          before={<DecisionChip status={c.statusBefore} />}
          after={<DecisionChip status={c.statusAfter} />}
        />
      ),
  };
  const changeColumns: Col<RuleChange>[] = [
    ...personColumns<RuleChange>(t, lang),
    // Without qualification the rules leave decisions as they are.
    ...(hasQualification ? [statusColumn] : []),
    {
      label: t('rankings.columns.prize'),
      render: (c) =>
        c.prizeBefore === c.prizeAfter ? (
          <PrizeChip prize={c.prizeAfter} />
        ) : (
          <Change
            before={c.prizeBefore ? <PrizeChip prize={c.prizeBefore} /> : '—'}
            after={c.prizeAfter ? <PrizeChip prize={c.prizeAfter} /> : '—'}
          />
        ),
    },
  ];

  return (
    <Paper sx={{ p: 2 }} component="section" aria-label={t('rankings.dryRun.title')}>
      <Typography variant="h6" component="h2">
        {t('rankings.dryRun.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('rankings.dryRun.hint')}
      </Typography>
      <TableContainer sx={{ mb: 2 }}>
        <Table size="small" aria-label={t('rankings.dryRun.byGrade')}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ fontWeight: 600 }}>{t('fields.grade')}</TableCell>
              <TableCell align="right" sx={{ fontWeight: 600 }}>
                {t('rankings.dryRun.ranked')}
              </TableCell>
              {hasQualification && (
                <>
                  <TableCell align="right" sx={{ fontWeight: 600 }}>
                    {t('rankings.dryRun.eligible')}
                  </TableCell>
                  <TableCell align="right" sx={{ fontWeight: 600 }}>
                    {t('rankings.dryRun.countyPlaces')}
                  </TableCell>
                  <TableCell align="right" sx={{ fontWeight: 600 }}>
                    {t('rankings.dryRun.extraPlaces')}
                  </TableCell>
                  <TableCell align="right" sx={{ fontWeight: 600 }}>
                    {t('rankings.dryRun.admitted')}
                  </TableCell>
                  <TableCell align="right" sx={{ fontWeight: 600 }}>
                    {t('rankings.dryRun.cut')}
                  </TableCell>
                </>
              )}
              {hasAwards &&
                (['first', 'second', 'third', 'mention'] as const).map((p) => (
                  <TableCell key={p} align="right" sx={{ fontWeight: 600 }}>
                    {t(`rankings.prizesShort.${p}`)}
                  </TableCell>
                ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {run.grades.map((g) => (
              <TableRow key={g.grade ?? 'none'}>
                <TableCell>{g.grade === null ? '—' : t(`grades.${g.grade}`)}</TableCell>
                <TableCell align="right">
                  {t('rankings.dryRun.rankedOf', {
                    ranked: g.ranked,
                    participants: g.participants,
                  })}
                </TableCell>
                {hasQualification && (
                  <>
                    <TableCell align="right">{g.eligible}</TableCell>
                    <TableCell align="right">
                      {t('rankings.dryRun.taken', { taken: g.countyTaken, of: g.countyPlaces })}
                    </TableCell>
                    <TableCell align="right">
                      {t('rankings.dryRun.taken', { taken: g.extraTaken, of: g.extraPlaces })}
                    </TableCell>
                    <TableCell align="right" sx={{ fontWeight: 600 }}>
                      {g.admitted}
                    </TableCell>
                    <TableCell align="right">{formatTotal(g.cutTotal, lang)}</TableCell>
                  </>
                )}
                {hasAwards &&
                  (['first', 'second', 'third', 'mention'] as const).map((p) => (
                    <TableCell key={p} align="right">
                      {g.prizes[p]}
                    </TableCell>
                  ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {run.truncated && (
        <Alert severity="info" sx={{ mb: 1 }}>
          {t('rankings.dryRun.truncated')}
        </Alert>
      )}
      <Tabs
        value={tab}
        onChange={(_, v) => setTab(v)}
        variant="scrollable"
        aria-label={t('rankings.dryRun.lists')}
      >
        <Tab value="changes" label={t('rankings.dryRun.changes', { count: run.changeCount })} />
        {hasQualification && (
          <Tab
            value="admitted"
            label={t('rankings.dryRun.admittedList', { count: run.admitted.length })}
          />
        )}
        {hasAwards && (
          <Tab
            value="awarded"
            label={t('rankings.dryRun.awardedList', { count: run.awarded.length })}
          />
        )}
      </Tabs>
      <Box sx={{ mt: 1 }}>
        {tab === 'changes' && (
          <RowsTable
            label={t('rankings.dryRun.changes', { count: run.changeCount })}
            rows={run.changes}
            columns={changeColumns}
            empty={t('rankings.dryRun.noChanges')}
          />
        )}
        {tab === 'admitted' && (
          <RowsTable
            label={t('rankings.dryRun.admittedList', { count: run.admitted.length })}
            rows={run.admitted}
            columns={[
              ...people,
              {
                label: t('rankings.dryRun.qualifiedBy'),
                render: (r) => (r.qualifiedBy ? t(`rankings.qualifiedBy.${r.qualifiedBy}`) : ''),
              },
            ]}
            empty={t('rankings.dryRun.nobody')}
          />
        )}
        {tab === 'awarded' && (
          <RowsTable
            label={t('rankings.dryRun.awardedList', { count: run.awarded.length })}
            rows={run.awarded}
            columns={[
              ...people,
              { label: t('rankings.columns.prize'), render: (r) => <PrizeChip prize={r.prize} /> },
            ]}
            empty={t('rankings.dryRun.nobody')}
          />
        )}
      </Box>
    </Paper>
  );
}
