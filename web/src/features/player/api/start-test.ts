import type { StartRequest, StartResponse } from '../../../../../shared/schemas/player.js';
import { api } from '../../../api/client.js';
import { myTestPath } from './keys.js';
import { timed } from './timed.js';

/**
 * POST /test-player/mytests/{testId}: starts the attempt (the terms accepted) or, when it
 * runs already, returns it again with its items, stored answers and remaining time.
 */
export const startTest = (testId: string, body: StartRequest) =>
  timed(() => api<StartResponse>(myTestPath(testId), { method: 'POST', body }));
