import type { AnswerAck, AnswerRequest } from '../../../../../shared/schemas/player.js';
import { api } from '../../../api/client.js';
import { myTestPath } from './keys.js';
import { timed } from './timed.js';

/** PUT /test-player/mytests/{testId}: one answer; the acknowledgement comes after commit. */
export const saveAnswer = (testId: string, body: AnswerRequest) =>
  timed(() => api<AnswerAck>(myTestPath(testId), { method: 'PUT', body }));
