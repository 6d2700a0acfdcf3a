import { Alert, Stack } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { TestIds } from '../../components/answer-files/paths.js';
import { usePhaseContext } from '../../components/phase/get-phase-context.js';
import { PhasePageState } from '../../components/phase/PhasePageState.js';
import { useTestSummary } from './api/get-test-summary.js';
import {
  isRunning,
  paperKey,
  usePaperJobs,
  usePaperPages,
  usePaperSeats,
  usePaperSummary,
} from './api/paper.js';
import { BookletsPanel } from './components/paper/BookletsPanel.js';
import { MatchingPanel } from './components/paper/MatchingPanel.js';
import { PaperSummaryPanel } from './components/paper/PaperSummaryPanel.js';
import { ScanUploadPanel } from './components/paper/ScanUploadPanel.js';
import { TestHeader } from './components/TestHeader.js';
import { testStudentsPagePath } from './paths.js';

/**
 * `…/test/{testId}/hartie`: a hybrid test written on paper in exam centres. The answer
 * booklets of each room to print, the scan of the written stack sent in one go, the summary per
 * room, and the pages nobody could read matched by hand before the review starts.
 */
export function PaperExamPage() {
  const { t } = useTranslation();
  const { examId = '', editionId = '', phaseId = '', testId = '' } = useParams();
  const ids: TestIds = useMemo(
    () => ({ examId, editionId, phaseId, testId }),
    [examId, editionId, phaseId, testId],
  );
  const context = usePhaseContext(ids);
  const summary = useTestSummary(ids);
  const seats = usePaperSeats(ids);
  const jobs = usePaperJobs(ids);
  const reading = jobs.data?.some((j) => j.kind === 'scan' && isRunning(j)) ?? false;
  const pages = usePaperPages(ids, reading);
  const queryClient = useQueryClient();
  const wasReading = useRef(false);
  useEffect(() => {
    // A scan read to its end: its last pages and the summary are asked for once more.
    if (wasReading.current && !reading) {
      void queryClient.invalidateQueries({ queryKey: paperKey(ids.testId) });
    }
    wasReading.current = reading;
  }, [reading, queryClient, ids.testId]);
  const paper = usePaperSummary(ids, reading);
  const error = context.error ?? summary.error ?? seats.error ?? jobs.error;
  if (!context.data || !summary.data || !seats.data || !jobs.data) {
    return <PhasePageState error={error} back={testStudentsPagePath(ids)} />;
  }
  const canManage = summary.data.canEnterAnswers;
  const state = summary.data.uploadState;
  // Once marking started (or the phase closed) no page can be stored any more.
  const canStore = canManage && state !== 'review_started' && state !== 'closed';
  const waiting = (pages.data ?? []).filter((p) => p.state === 'waiting');
  return (
    <Stack spacing={2}>
      <TestHeader
        ids={ids}
        context={context.data}
        summary={summary.data}
        current={t('uploads.paper.title')}
        underTest
      />
      {(state === 'review_started' || state === 'closed') && (
        <Alert severity="info">{t(`uploads.entry.closed.${state}`)}</Alert>
      )}
      <BookletsPanel ids={ids} seats={seats.data} jobs={jobs.data} canManage={canManage} />
      {canStore && <ScanUploadPanel ids={ids} jobs={jobs.data} />}
      {paper.data && <PaperSummaryPanel summary={paper.data} />}
      {canStore && paper.data && (
        <MatchingPanel ids={ids} waiting={waiting} itemCount={paper.data.itemCount} />
      )}
    </Stack>
  );
}
