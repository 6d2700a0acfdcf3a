import SearchIcon from '@mui/icons-material/Search';
import {
  Autocomplete,
  Box,
  InputAdornment,
  ListSubheader,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { NAV_SEARCH_SUGGESTIONS } from '../../../../shared/constants.js';
import type { SearchHit } from '../../../../shared/schemas/home.js';
import { SEARCH_MAX, SEARCH_MIN } from '../../../../shared/schemas/home-values.js';
import { useSearch } from '../../api/home.js';
import { type NavItem, searchPages } from '../navigation.js';
import { SEARCH_WIDTH } from './search-width.js';

/** One suggestion: a page of the menu, or something the server found. */
type Option = { group: 'page'; page: NavItem } | { group: SearchHit['kind']; hit: SearchHit };
/** The groups in the order the list shows them. */
const ORDER: Option['group'][] = ['page', 'person', 'exam', 'phase', 'test', 'question'];
/** How long typing must pause before the server is asked. */
const PAUSE_MS = 250;

function useSettled(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), PAUSE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

/**
 * The top bar's search: the menu's pages by title (at most 10, SPEC.md §9) and, from two
 * characters on, the people, competitions, phases, tests and questions the person may see,
 * grouped by kind. Arrows move, Enter opens, Escape closes (the combobox's own keys).
 * Fetched when the search field is first reached (NavSearch.tsx), which it replaces, focused,
 * with what was typed in it meanwhile (`input`, kept by NavSearch).
 */
export function NavSearchBox({
  pages,
  canSearch,
  input,
  setInput,
}: {
  pages: NavItem[];
  canSearch: boolean;
  input: string;
  setInput: (value: string) => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Open at once when something was typed before the box arrived.
  const [open, setOpen] = useState(input.length > 0);
  // The combobox empties its text when it mounts (a "reset" to its value, none): what was typed
  // before it arrived stays. Later resets (after a choice, on leaving the field) go through.
  const arriving = useRef(true);
  useEffect(() => {
    arriving.current = false;
  }, []);
  const settled = useSettled(input.trim());
  const asking = canSearch && settled.length >= SEARCH_MIN && settled.length <= SEARCH_MAX;
  const found = useSearch(settled, asking);
  const title = (p: NavItem) => t(p.titleKey);
  const groupId = useId();

  const pageOptions: Option[] = searchPages(pages, title, input, NAV_SEARCH_SUGGESTIONS).map(
    (page) => ({ group: 'page', page }),
  );
  const hits: Option[] = asking
    ? (found.data?.hits ?? []).map((hit) => ({ group: hit.kind, hit }))
    : [];
  const options = [...pageOptions, ...hits].sort(
    (a, b) => ORDER.indexOf(a.group) - ORDER.indexOf(b.group),
  );

  const labelOf = (o: Option) => (o.group === 'page' ? title(o.page) : o.hit.title);
  const linkOf = (o: Option) => (o.group === 'page' ? o.page.path : o.hit.link);

  return (
    <Autocomplete<Option>
      size="small"
      sx={{ width: SEARCH_WIDTH }}
      // On a phone the box is narrow; its suggestions take the screen's width instead.
      slotProps={{
        popper: {
          placement: 'bottom-start',
          sx: { minWidth: 'min(320px, calc(100vw - 16px))' },
        },
      }}
      options={options}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      value={null}
      inputValue={input}
      onInputChange={(_, v, reason) => {
        if (reason === 'reset' && arriving.current) return;
        setInput(v.slice(0, SEARCH_MAX));
      }}
      filterOptions={(o) => o}
      groupBy={(o) => t(`nav.searchGroups.${o.group}`)}
      getOptionLabel={labelOf}
      getOptionKey={(o) => (o.group === 'page' ? `page:${o.page.id}` : `${o.group}:${o.hit.id}`)}
      isOptionEqualToValue={(a, b) => linkOf(a) === linkOf(b) && labelOf(a) === labelOf(b)}
      loading={asking && found.isFetching}
      loadingText={t('nav.searching')}
      noOptionsText={input.trim().length >= SEARCH_MIN ? t('nav.noResults') : t('nav.typeMore')}
      // Each kind a named group of the listbox (listbox › group › option), not a bare list.
      renderGroup={(params) => (
        // biome-ignore lint/a11y/useSemanticElements: a listbox holds options and groups, not a fieldset
        <li key={params.key} role="group" aria-labelledby={`${groupId}-${params.key}`}>
          <ListSubheader id={`${groupId}-${params.key}`} component="div">
            {params.group}
          </ListSubheader>
          <Box component="ul" role="none" sx={{ p: 0, m: 0 }}>
            {params.children}
          </Box>
        </li>
      )}
      renderOption={(props, o) => {
        const { key, ...rest } = props as typeof props & { key: string };
        return (
          <Box component="li" key={key} {...rest}>
            <Box>
              <Typography>{labelOf(o)}</Typography>
              {o.group !== 'page' && o.hit.context && (
                <Typography variant="body2" color="text.secondary">
                  {o.group === 'person'
                    ? t(`roles.${o.hit.context}`, { defaultValue: o.hit.context })
                    : o.hit.context}
                </Typography>
              )}
            </Box>
          </Box>
        );
      }}
      onChange={(_, o) => {
        const link = o ? linkOf(o) : undefined;
        if (link) {
          navigate(link);
          setInput('');
        }
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          autoFocus
          placeholder={t('nav.searchPlaceholder')}
          slotProps={{
            htmlInput: {
              ...params.inputProps,
              'aria-label': t('nav.searchLabel'),
              maxLength: SEARCH_MAX,
            },
            input: {
              ...params.InputProps,
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
      )}
    />
  );
}
