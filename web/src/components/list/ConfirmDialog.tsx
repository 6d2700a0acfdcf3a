import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from '@mui/material';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';

type Props = {
  open: boolean;
  title: string;
  /** What will happen; plain text is wrapped in a paragraph. */
  message: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** Red confirm button for destructive actions (delete). */
  destructive?: boolean;
  /** The action is running: buttons disabled, the dialog stays. */
  busy?: boolean;
  /** Why the action failed, shown inside the dialog (e.g. a refused deletion). */
  error?: ReactNode;
  /** Further buttons, e.g. an alternative offered after a refusal. */
  extraActions?: ReactNode;
  onConfirm: () => void;
  onClose: () => void;
};

/** A yes/no question before an action that cannot be undone; errors stay visible in it. */
export function ConfirmDialog(props: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Dialog
      open={props.open}
      onClose={props.busy ? undefined : props.onClose}
      aria-labelledby={titleId}
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={titleId}>{props.title}</DialogTitle>
      <DialogContent>
        {typeof props.message === 'string' ? (
          <DialogContentText>{props.message}</DialogContentText>
        ) : (
          props.message
        )}
        {props.error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {props.error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        {props.extraActions}
        <Button onClick={props.onClose} disabled={props.busy}>
          {props.error ? t('common.close') : (props.cancelLabel ?? t('common.cancel'))}
        </Button>
        {!props.error && (
          <Button
            onClick={props.onConfirm}
            disabled={props.busy}
            variant="contained"
            color={props.destructive ? 'error' : 'primary'}
          >
            {props.confirmLabel}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
