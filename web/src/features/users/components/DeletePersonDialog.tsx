import { AlertTitle, Button } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Person } from '../../../../../shared/schemas/people.js';
import { ApiError } from '../../../api/client.js';
import { ConfirmDialog } from '../../../components/list/ConfirmDialog.js';
import { useSnackbar } from '../../../lib/snackbar.js';
import { useAnonymiseUser } from '../api/anonymise-user.js';
import { useDeleteStudent } from '../api/delete-student.js';
import { useDeleteTeacher } from '../api/delete-teacher.js';
import type { PeopleKind } from '../use-bulk-state.js';

type Props = {
  kind: PeopleKind;
  /** The person to delete; null keeps the dialog closed. */
  person: Person | null;
  /** Admins are offered anonymisation when results forbid deletion. */
  canAnonymise: boolean;
  onClose: () => void;
};

type Failure = { key: string; values?: Record<string, number> };

/**
 * Why the server refused, as a message key: results to keep (anonymising is offered), or
 * marking work still open (how much; it is handed on first), or the error's own text.
 */
function failureOf(e: unknown): Failure {
  const code = e instanceof ApiError ? e.code : 'GENERAL_ERROR';
  if (code !== 'USER_HAS_RESULTS') return { key: `errors.${code}` };
  const details = (e as ApiError).details as
    | { reason?: string; openMarks?: number; pendingMediations?: number }
    | undefined;
  if (details?.reason === 'open_marking_work') {
    return {
      key: 'people.openMarkingWork',
      values: { marks: details.openMarks ?? 0, mediations: details.pendingMediations ?? 0 },
    };
  }
  return { key: 'people.deleteHasResults' };
}

/** Asks before deleting a student or teacher and explains a refusal inside the dialog. */
export function DeletePersonDialog({ kind, person, canAnonymise, onClose }: Props) {
  const { t } = useTranslation();
  const { notify, notifyError } = useSnackbar();
  const deleteStudent = useDeleteStudent();
  const deleteTeacher = useDeleteTeacher();
  const anonymise = useAnonymiseUser();
  const remove = kind === 'students' ? deleteStudent : deleteTeacher;
  const [failure, setFailure] = useState<Failure | null>(null);

  const name = [person?.familyName, person?.givenName].filter(Boolean).join(' ');
  const close = () => {
    setFailure(null);
    onClose();
  };

  const handleConfirm = async () => {
    if (!person?._id) return;
    try {
      await remove.mutateAsync(person._id);
      notify(`people.${kind}.deleted`);
      close();
    } catch (e) {
      // Deleting someone with results, or with marking work open, would lose them: the server
      // refuses (409), we say why.
      setFailure(failureOf(e));
    }
  };

  const handleAnonymise = async () => {
    if (!person?._id) return;
    try {
      await anonymise.mutateAsync(person._id);
      notify('people.anonymised');
      close();
    } catch (e) {
      const why = failureOf(e);
      if (why.key === 'people.openMarkingWork') setFailure(why);
      else notifyError(e, 'dialog_delete_user_error');
    }
  };

  const hasResults = failure?.key === 'people.deleteHasResults';
  return (
    <ConfirmDialog
      open={person !== null}
      title={t(`people.${kind}.deleteTitle`)}
      message={t(`people.${kind}.deleteText`, { name, email: person?.email ?? '' })}
      confirmLabel={t('people.delete')}
      destructive
      busy={remove.isPending || anonymise.isPending}
      error={
        failure && (
          <>
            <AlertTitle>{t('dialog_delete_user_error')}</AlertTitle>
            {t(failure.key, { ...failure.values, defaultValue: t('errors.GENERAL_ERROR') })}
          </>
        )
      }
      extraActions={
        hasResults &&
        canAnonymise && (
          <Button
            color="warning"
            variant="contained"
            onClick={handleAnonymise}
            disabled={anonymise.isPending}
          >
            {t('people.anonymise')}
          </Button>
        )
      }
      onConfirm={handleConfirm}
      onClose={close}
    />
  );
}
