import type { PlayerState } from '../../../../../shared/schemas/player.js';
import { api } from '../../../api/client.js';
import { myTestPath } from './keys.js';
import { timed } from './timed.js';

/** PUT /test-player/mytests/{testId}/review: finishes the attempt (once; repeating is harmless). */
export const finishTest = (testId: string) =>
  timed(() => api<PlayerState>(`${myTestPath(testId)}/review`, { method: 'PUT' }));
