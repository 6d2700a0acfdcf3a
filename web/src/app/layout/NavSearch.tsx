import SearchIcon from '@mui/icons-material/Search';
import { Autocomplete, InputAdornment, TextField } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { NAV_SEARCH_SUGGESTIONS } from '../../../../shared/constants.js';
import { type NavItem, searchPages } from '../navigation.js';

/** Finds a page of the menu by its title; at most 10 suggestions (SPEC.md §9). */
export function NavSearch({ pages }: { pages: NavItem[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [input, setInput] = useState('');
  const title = (p: NavItem) => t(p.titleKey);

  return (
    <Autocomplete<NavItem>
      size="small"
      sx={{ width: { xs: 112, sm: 240 } }}
      options={pages}
      value={null}
      inputValue={input}
      onInputChange={(_, v) => setInput(v)}
      filterOptions={(options, state) =>
        searchPages(options, title, state.inputValue, NAV_SEARCH_SUGGESTIONS)
      }
      getOptionLabel={title}
      noOptionsText={t('nav.noResults')}
      onChange={(_, page) => {
        if (page?.path) {
          navigate(page.path);
          setInput('');
        }
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          placeholder={t('nav.searchPlaceholder')}
          slotProps={{
            htmlInput: { ...params.inputProps, 'aria-label': t('nav.searchLabel') },
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
