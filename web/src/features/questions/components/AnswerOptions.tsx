import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import {
  Box,
  Button,
  Checkbox,
  FormHelperText,
  IconButton,
  Radio,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { type Control, Controller, useFieldArray, useFormState, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { MAX_ANSWER_LENGTH, MAX_ANSWERS } from '../../../../../shared/schemas/questions.js';
import {
  optionLetter,
  type QuestionFormValues,
  shiftCorrect,
  toggleCorrect,
} from '../question-form.js';

type Props = { control: Control<QuestionFormValues>; disabled?: boolean };

/**
 * The options of a single- or multiple-choice question, each with its "correct" mark: a radio
 * for single choice, checkboxes for multiple. Removing an option keeps the marks on the
 * options they were on.
 */
export function AnswerOptions({ control, disabled }: Props) {
  const { t } = useTranslation();
  const { fields, append, remove } = useFieldArray({ control, name: 'itemAnswers' });
  const itemType = useWatch({ control, name: 'itemType' });
  const { errors } = useFormState({ control, name: 'itemAnswers' });
  const answersError = errors.itemAnswers?.message ?? errors.itemAnswers?.root?.message;
  return (
    <Controller
      control={control}
      name="itemCorrectAnswers"
      render={({ field: correct, fieldState }) => {
        const message = fieldState.error?.message ?? answersError;
        return (
          <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
            <Typography component="legend" variant="subtitle2" sx={{ mb: 1 }}>
              {itemType === 'single'
                ? t('questions.form.optionsSingle')
                : t('questions.form.optionsMultiple')}
            </Typography>
            <Stack spacing={1}>
              {fields.map((f, index) => {
                const letter = optionLetter(index);
                const isCorrect = correct.value.includes(index);
                const Mark = itemType === 'single' ? Radio : Checkbox;
                return (
                  <Box key={f.id} sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
                    <Tooltip title={t('questions.form.markCorrect')}>
                      <Mark
                        checked={isCorrect}
                        disabled={disabled}
                        onChange={() =>
                          correct.onChange(toggleCorrect(itemType, correct.value, index))
                        }
                        slotProps={{
                          input: { 'aria-label': t('questions.form.correctOption', { letter }) },
                        }}
                        sx={{ mt: 0.5 }}
                      />
                    </Tooltip>
                    <Controller
                      control={control}
                      name={`itemAnswers.${index}.text`}
                      render={({ field, fieldState: optionState }) => (
                        <TextField
                          {...field}
                          size="small"
                          fullWidth
                          multiline
                          disabled={disabled}
                          label={t('questions.form.option', { letter })}
                          error={optionState.error !== undefined}
                          helperText={
                            optionState.error?.message && t(`error_${optionState.error.message}`)
                          }
                          slotProps={{ htmlInput: { maxLength: MAX_ANSWER_LENGTH } }}
                        />
                      )}
                    />
                    <IconButton
                      aria-label={t('questions.form.removeOption', { letter })}
                      disabled={disabled || fields.length <= 2}
                      onClick={() => {
                        correct.onChange(shiftCorrect(correct.value, index));
                        remove(index);
                      }}
                      sx={{ mt: 0.25 }}
                    >
                      <DeleteOutline />
                    </IconButton>
                  </Box>
                );
              })}
            </Stack>
            {message && (
              <FormHelperText error sx={{ mx: 1.75 }}>
                {t(`error_${message}`)}
              </FormHelperText>
            )}
            <Button
              size="small"
              startIcon={<Add />}
              onClick={() => append({ text: '' })}
              disabled={disabled || fields.length >= MAX_ANSWERS}
              sx={{ mt: 1 }}
            >
              {t('questions.form.addOption')}
            </Button>
          </Box>
        );
      }}
    />
  );
}
