import SearchIcon from '@mui/icons-material/Search';
import { InputAdornment, TextField } from '@mui/material';
import { lazy, Suspense, startTransition, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SEARCH_MAX } from '../../../../shared/schemas/home-values.js';
import type { NavItem } from '../navigation.js';
import { SEARCH_WIDTH } from './search-width.js';

/** The search with its suggestions (MUI's Autocomplete and Popper.js): fetched when first used. */
const NavSearchBox = lazy(() =>
  import('./NavSearchBox.js').then((m) => ({ default: m.NavSearchBox })),
);

/**
 * The top bar's search field. The combobox behind it (NavSearchBox.tsx, ~7 kB brotli) is fetched
 * when the field is first focused, not with every student's first load; meanwhile this field,
 * drawn as the box draws it, takes what is typed and stays focused until the box replaces it.
 */
export function NavSearch(props: { pages: NavItem[]; canSearch: boolean }) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const [wanted, setWanted] = useState(false);

  const field = (
    <TextField
      size="small"
      sx={{ width: SEARCH_WIDTH }}
      value={input}
      onChange={(e) => setInput(e.target.value.slice(0, SEARCH_MAX))}
      // A transition: this field stays (focused, typed in) until the box is ready to replace it.
      onFocus={() => startTransition(() => setWanted(true))}
      placeholder={t('nav.searchPlaceholder')}
      slotProps={{
        htmlInput: {
          role: 'combobox',
          'aria-expanded': false,
          'aria-autocomplete': 'list',
          'aria-label': t('nav.searchLabel'),
          maxLength: SEARCH_MAX,
        },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
  // One boundary from the start: switched in a transition, it keeps showing `field` (the same
  // element, focus and caret) while the box is fetched, instead of drawing a fallback.
  return (
    <Suspense fallback={field}>
      {wanted ? <NavSearchBox {...props} input={input} setInput={setInput} /> : field}
    </Suspense>
  );
}
