/**
 * Plain values of the top bar's search that every page's frame needs (the search box) without
 * the home schemas, whose zod they would bring along.
 */

/** The top bar's search: at least 2 characters, at most 100; each kind shows up to 5. */
export const SEARCH_MIN = 2;
export const SEARCH_MAX = 100;
