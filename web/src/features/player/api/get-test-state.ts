import type { PlayerState } from '../../../../../shared/schemas/player.js';
import { api } from '../../../api/client.js';
import { myTestPath } from './keys.js';
import { timed } from './timed.js';

/** GET /test-player/mytests/{testId}/state: the attempt's state and the server's timer. */
export const getTestState = (testId: string) =>
  timed(() => api<PlayerState>(`${myTestPath(testId)}/state`));
