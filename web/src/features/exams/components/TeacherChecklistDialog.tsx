import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  ListSubheader,
  Typography,
} from '@mui/material';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Person } from '../../../../../shared/schemas/people.js';
import { SearchBox } from '../../../components/list/SearchBox.js';
import { andWhere, nameSearchWhere } from '../../../components/list/where.js';
import { SelectedMark } from '../../../components/pickers/SelectedMark.js';
import { TEACHER_FIELDS, useTeachers, useTeachersById } from '../api/get-teachers.js';
import { personName } from '../format.js';

const PICKER_LIMIT = 20;

type Props = {
  open: boolean;
  title: string;
  /** The teachers on the list now. */
  chosenIds: readonly string[];
  /** Saves one teacher checked or unchecked; the dialog stays open. */
  onToggle: (teacherId: string, checked: boolean) => Promise<void>;
  onClose: () => void;
  /** The found teachers' order; SPEC.md §9 orders the coordinator list by given name. */
  orderBy?: 'familyName' | 'givenName';
};

/**
 * A checkbox list of active teachers found by name (GET /user-mgmt/teachers): the chosen
 * ones first, then the search results. Each click saves at once.
 */
export function TeacherChecklistDialog({
  open,
  title,
  chosenIds,
  onToggle,
  onClose,
  orderBy = 'familyName',
}: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  const [search, setSearch] = useState('');
  const [pending, setPending] = useState<string | null>(null);
  const chosen = useTeachersById(chosenIds);
  const found = useTeachers(
    {
      where: andWhere({ state: 'active' }, nameSearchWhere(search)),
      limit: PICKER_LIMIT,
      order: `${orderBy} ASC`,
      fields: TEACHER_FIELDS,
    },
    open,
  );
  const others = (found.data ?? []).filter((p) => p._id && !chosenIds.includes(p._id));
  const chosenRows = chosenIds.length > 0 ? (chosen.data ?? []) : [];

  const toggle = async (teacherId: string, checked: boolean) => {
    setPending(teacherId);
    try {
      await onToggle(teacherId, checked);
    } finally {
      setPending(null);
    }
  };

  const row = (p: Person, checked: boolean) => {
    const id = p._id ?? '';
    const labelId = `${titleId}-${id}`;
    return (
      <ListItem key={id} disablePadding>
        {/* The row is the checkbox: a real one inside the row's button was a control nested
            in another, which screen readers reach twice. */}
        <ListItemButton
          dense
          role="checkbox"
          aria-checked={checked}
          aria-labelledby={labelId}
          disabled={pending !== null}
          onClick={() => void toggle(id, !checked)}
        >
          <SelectedMark checked={checked} />
          <ListItemText
            id={labelId}
            primary={
              // Listed by given name: the given name first, so the order reads.
              orderBy === 'givenName'
                ? [p.givenName, p.familyName].filter(Boolean).join(' ') || personName(p)
                : personName(p)
            }
            secondary={[p.email, p.county].filter(Boolean).join(' · ')}
          />
        </ListItemButton>
      </ListItem>
    );
  };

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent dividers sx={{ minHeight: 360 }}>
        <SearchBox
          fullWidth
          autoFocus
          label={t('exams.team.search')}
          placeholder={t('exams.team.searchPlaceholder')}
          value={search}
          onChange={setSearch}
        />
        <List dense aria-label={title}>
          {chosenRows.length > 0 && <ListSubheader>{t('exams.team.chosen')}</ListSubheader>}
          {chosenRows.map((p) => row(p, true))}
          <ListSubheader>{t('exams.team.activeTeachers')}</ListSubheader>
          {others.map((p) => row(p, false))}
        </List>
        {found.data && others.length === 0 && (
          <Typography color="text.secondary" sx={{ px: 2 }}>
            {t('exams.team.noOthers')}
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
