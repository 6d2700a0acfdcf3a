/** The server's clock: the only one that decides windows, deadlines and expiries. */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };
