import { AlertTitle } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Person } from '../../../../../shared/schemas/people.js';
import { ApiError } from '../../../api/client.js';
import { ConfirmDialog } from '../../../components/list/ConfirmDialog.js';
import { useSnackbar } from '../../../lib/snackbar.js';
import { useChangeAccountType } from '../api/change-account-type.js';

type Props = {
  /** The account to change; null keeps the dialog closed. */
  person: Person | null;
  /** The type it becomes. */
  to: 'student' | 'teacher';
  onClose: () => void;
};

/**
 * Asks an admin before turning a student account into a teacher one (or back): the person's
 * details of the old type are cleared and they complete the new registration. A refusal (the
 * account has enrolments, roles or students) is explained inside the dialog.
 */
export function AccountTypeDialog({ person, to, onClose }: Props) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const change = useChangeAccountType();
  const [failure, setFailure] = useState<string | null>(null);
  const name = [person?.familyName, person?.givenName].filter(Boolean).join(' ') || person?.email;

  const close = () => {
    setFailure(null);
    onClose();
  };
  const handleConfirm = async () => {
    if (!person?.email) return;
    try {
      await change.mutateAsync({ email: person.email, type: to });
      notify(`people.accountType.done.${to}`, 'success', { name });
      close();
    } catch (e) {
      const code = e instanceof ApiError ? e.code : 'GENERAL_ERROR';
      setFailure(code === 'USER_HAS_RESULTS' ? 'people.accountType.hasResults' : `errors.${code}`);
    }
  };

  return (
    <ConfirmDialog
      open={person !== null}
      title={t(`people.accountType.title.${to}`)}
      message={t(`people.accountType.text.${to}`, { name, email: person?.email ?? '' })}
      confirmLabel={t(`people.accountType.confirm.${to}`)}
      busy={change.isPending}
      error={
        failure && (
          <>
            <AlertTitle>{t('people.accountType.failed')}</AlertTitle>
            {t(failure, { defaultValue: t('errors.GENERAL_ERROR') })}
          </>
        )
      }
      onConfirm={handleConfirm}
      onClose={close}
    />
  );
}
