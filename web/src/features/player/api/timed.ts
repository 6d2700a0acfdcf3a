/** A call with the page's monotonic clock read around it (the server clock samples need it). */
export type Timed<T> = { data: T; sentMono: number; receivedMono: number };

export async function timed<T>(call: () => Promise<T>): Promise<Timed<T>> {
  const sentMono = performance.now();
  const data = await call();
  return { data, sentMono, receivedMono: performance.now() };
}
