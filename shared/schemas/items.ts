/**
 * The kinds of question and how many answer options one may have: plain values that the
 * player, marking and uploads need without the question bank's schemas (which check formulas
 * with the statement renderer, so importing them would bring KaTeX into the player's chunk).
 */
export const ITEM_TYPES = ['single', 'multiple', 'numeric', 'open'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

export const MAX_ANSWERS = 20;
