import AddPhotoAlternate from '@mui/icons-material/AddPhotoAlternate';
import { Box, Button, CircularProgress, TextField } from '@mui/material';
import { useRef } from 'react';
import { type Control, Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { MAX_STATEMENT_LENGTH } from '../../../../../shared/schemas/questions.js';
import { statementImage } from '../../../../../shared/statement-core.js';
import { ApiError } from '../../../api/client.js';
import { useSnackbar } from '../../../lib/snackbar.js';
import { useUploadFile } from '../api/upload-file.js';
import type { QuestionFormValues } from '../question-form.js';

type Props = { control: Control<QuestionFormValues>; disabled?: boolean };

const altOf = (name: string) => name.replace(/\.[a-z0-9]{1,5}$/i, '');

/**
 * The statement's text box (Markdown, formulas between `$…$`) with an image button: the image
 * is stored (POST /files) and its Markdown inserted where the cursor was.
 */
export function StatementEditor({ control, disabled }: Props) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const upload = useUploadFile();
  const textRef = useRef<HTMLTextAreaElement | null>(null);
  const fileRef = useRef<HTMLInputElement | null>(null);

  return (
    <Controller
      control={control}
      name="itemQ"
      render={({ field, fieldState }) => {
        const insertImage = async (file: File) => {
          try {
            const stored = await upload.mutateAsync(file);
            const text = field.value ?? '';
            const at = textRef.current?.selectionEnd ?? text.length;
            const before = text.slice(0, at);
            const image = statementImage(stored._id, altOf(file.name));
            // On a line of its own, so it renders as a block under the text.
            const glue = before && !before.endsWith('\n') ? '\n\n' : '';
            field.onChange(`${before}${glue}${image}\n${text.slice(at)}`);
          } catch (e) {
            const code = e instanceof ApiError ? e.code : '';
            notify(
              code === 'FILE_TYPE_NOT_ALLOWED' || code === 'FILE_TOO_LARGE'
                ? `questions.form.image_${code}`
                : 'msg_create_image_error',
              'error',
            );
          }
        };
        return (
          <Box>
            <TextField
              {...field}
              inputRef={(el: HTMLTextAreaElement | null) => {
                field.ref(el);
                textRef.current = el;
              }}
              label={t('questions.fields.itemQ')}
              required
              fullWidth
              multiline
              minRows={5}
              maxRows={16}
              disabled={disabled}
              error={fieldState.error !== undefined}
              helperText={
                fieldState.error?.message
                  ? t(`error_${fieldState.error.message}`)
                  : t('questions.form.itemQHint')
              }
              slotProps={{
                htmlInput: { maxLength: MAX_STATEMENT_LENGTH, spellCheck: false },
              }}
            />
            <input
              ref={fileRef}
              type="file"
              accept="image/png,image/jpeg"
              hidden
              aria-label={t('questions.form.imageFile')}
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (file) void insertImage(file);
              }}
            />
            <Button
              size="small"
              startIcon={upload.isPending ? <CircularProgress size={16} /> : <AddPhotoAlternate />}
              disabled={disabled || upload.isPending}
              onClick={() => fileRef.current?.click()}
              sx={{ mt: 0.5 }}
            >
              {t('questions.form.insertImage')}
            </Button>
          </Box>
        );
      }}
    />
  );
}
