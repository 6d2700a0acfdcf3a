import { useQuery } from '@tanstack/react-query';
import { LIVE_REFRESH_MS, type LiveResponse } from '../../../../../shared/schemas/exam-day.js';
import { api } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';

const enc = encodeURIComponent;

/** GET /test-player/exams/{examId}/editions/{editionId}/phases/{phaseId}/live. */
export const getLive = ({ examId, editionId, phaseId }: PhaseIds) =>
  api<LiveResponse>(
    `/test-player/exams/${enc(examId)}/editions/${enc(editionId)}/phases/${enc(phaseId)}/live`,
  );

/** The exam-day panel's figures, asked again every 10 s, also while the tab is hidden. */
export const useLive = (ids: PhaseIds) =>
  useQuery({
    queryKey: ['player', 'live', ids.examId, ids.editionId, ids.phaseId],
    queryFn: () => getLive(ids),
    refetchInterval: LIVE_REFRESH_MS,
    refetchIntervalInBackground: true,
  });
