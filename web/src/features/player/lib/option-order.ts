/**
 * Options of a choice question shown in an order of their own for each student (neighbours in
 * a school lab do not see the same letters), while the stored answer stays a list of indices
 * in the question's own order (SPEC.md: the stored answer does not depend on the screen).
 */

/** FNV-1a: a 32-bit hash of the seed text. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small seeded generator, the same numbers on every browser. */
function generator(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The display order of `count` options: `order[k]` is the question's own index of the option
 * shown k-th. Stable for a seed (the attempt and the item), so a reload shows the same screen.
 */
export function optionOrder(count: number, seed: string): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  const next = generator(hash(seed));
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order;
}

/** The stored answer (own indices, ascending) for the options ticked at display positions. */
export const toStoredAnswer = (order: readonly number[], displayed: Iterable<number>): number[] =>
  [
    ...new Set([...displayed].map((k) => order[k]).filter((i): i is number => i !== undefined)),
  ].sort((a, b) => a - b);

/** The display positions that show the options of a stored answer. */
export const toDisplayed = (order: readonly number[], stored: readonly number[]): number[] =>
  stored
    .map((i) => order.indexOf(i))
    .filter((k) => k >= 0)
    .sort((a, b) => a - b);
