/** The top bar's search field width: the same before and after its combobox arrives. */
export const SEARCH_WIDTH = { xs: 140, sm: 320 };
