import PersonAdd from '@mui/icons-material/PersonAdd';
import { Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTeachersById } from '../api/get-teachers.js';
import { personName } from '../format.js';
import { useReport } from '../use-report.js';
import { TeacherChecklistDialog } from './TeacherChecklistDialog.js';

type Props = {
  title: string;
  /** What the role may do, one line. */
  hint: string;
  ids: readonly string[];
  canEdit: boolean;
  /** Saves the whole new list (the API replaces it). */
  save: (ids: string[]) => Promise<unknown>;
  /** The picker's order (coordinators: given name, SPEC.md §9). */
  orderBy?: 'familyName' | 'givenName';
  /** A finer role that comes with this one (SPEC.md §6: the question manager), and what it does. */
  alsoRole?: { label: string; hint: string };
};

/**
 * One teacher role of a competition or edition (exam admins, staff, coordinators): who has it,
 * and for those who may change it a checklist that saves each click with the
 * `add_coordinator_*` messages.
 */
export function TeacherRoleCard({ title, hint, ids, canEdit, save, orderBy, alsoRole }: Props) {
  const { t } = useTranslation();
  const report = useReport();
  const [open, setOpen] = useState(false);
  const teachers = useTeachersById(ids);
  const named = ids.length > 0 ? (teachers.data ?? []) : [];

  const handleToggle = async (teacherId: string, checked: boolean) => {
    const next = checked ? [...ids, teacherId] : ids.filter((id) => id !== teacherId);
    const state = checked ? 'checked' : 'unchecked';
    try {
      await save(next);
      report.success(`add_coordinator_success_msg_${state}`);
    } catch (e) {
      report.failure(e, `add_coordinator_error_msg_${state}`);
    }
  };

  return (
    <Paper component="section" aria-label={title} sx={{ p: 2, height: '100%' }}>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
        <Box sx={{ flex: 1 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {title}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {hint}
          </Typography>
          {alsoRole && (
            <Box sx={{ mt: 1 }}>
              <Chip size="small" variant="outlined" color="primary" label={alsoRole.label} />
              <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
                {alsoRole.hint}
              </Typography>
            </Box>
          )}
        </Box>
        {canEdit && (
          <Button size="small" startIcon={<PersonAdd />} onClick={() => setOpen(true)}>
            {t('exams.team.choose')}
          </Button>
        )}
      </Box>
      <Stack direction="row" sx={{ mt: 1.5, flexWrap: 'wrap', gap: 1 }}>
        {named.map((p) => (
          <Chip key={p._id} label={personName(p)} size="small" />
        ))}
        {ids.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {t('exams.team.nobody')}
          </Typography>
        )}
      </Stack>
      {canEdit && (
        <TeacherChecklistDialog
          open={open}
          title={alsoRole ? `${title} · ${alsoRole.label}` : title}
          chosenIds={ids}
          onToggle={handleToggle}
          onClose={() => setOpen(false)}
          orderBy={orderBy}
        />
      )}
    </Paper>
  );
}
