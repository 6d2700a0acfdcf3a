import { Autocomplete, TextField } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Person } from '../../../../../shared/schemas/people.js';
import { nameSearchWhere } from '../../../components/list/where.js';
import { useDebouncedValue } from '../../../lib/use-debounced-value.js';
import { useTeachers } from '../api/get-teachers.js';

const PICKER_FIELDS = ['_id', 'familyName', 'givenName', 'teacherCode', 'email'];
const PICKER_LIMIT = 20;

export const teacherLabel = (p: Person) => {
  const name = [p.familyName, p.givenName].filter(Boolean).join(' ') || p.email || '';
  return p.teacherCode ? `${name} (${p.teacherCode})` : name;
};

type Props = {
  /** The chosen teacher's id; '' for none ("all" in a filter). */
  value: string;
  onChange: (teacherId: string) => void;
  label: string;
  size?: 'small' | 'medium';
};

/** Searches teachers by name on the server (GET /teachers) and picks one. */
export function TeacherPicker({ value, onChange, label, size = 'small' }: Props) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<Person | null>(null);
  const settled = useDebouncedValue(search);
  const where = nameSearchWhere(settled);
  const { data, isFetching } = useTeachers({
    limit: PICKER_LIMIT,
    order: 'familyName ASC',
    fields: PICKER_FIELDS,
    ...(where ? { where } : {}),
  });
  // The filters were reset outside: forget the choice (React's derived-state pattern).
  if (!value && chosen) {
    setChosen(null);
    setInput('');
  }
  const current = value && chosen?._id === value ? chosen : null;

  return (
    <Autocomplete
      size={size}
      options={data ?? []}
      value={current}
      inputValue={input}
      getOptionLabel={teacherLabel}
      isOptionEqualToValue={(a, b) => a._id === b._id}
      // The server already filtered by name.
      filterOptions={(options) => options}
      loading={isFetching}
      loadingText={t('list.loading')}
      noOptionsText={t('list.empty')}
      clearText={t('list.clear')}
      openText={t('list.open')}
      closeText={t('common.close')}
      onChange={(_, teacher) => {
        setChosen(teacher);
        setInput(teacher ? teacherLabel(teacher) : '');
        setSearch('');
        onChange(teacher?._id ?? '');
      }}
      onInputChange={(_, text, reason) => {
        // 'reset' is MUI echoing the chosen option's label; that is not a search.
        if (reason === 'reset') return;
        setInput(text);
        setSearch(text);
      }}
      renderOption={(props, option) => {
        const { key, ...rest } = props;
        return (
          <li key={option._id ?? key} {...rest}>
            {teacherLabel(option)}
          </li>
        );
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          placeholder={t('list.all')}
          // Like the other filters: the label stays up and "All" shows while nothing is chosen.
          slotProps={{ inputLabel: { ...params.InputLabelProps, shrink: true } }}
        />
      )}
    />
  );
}
