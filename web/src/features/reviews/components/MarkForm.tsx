import Save from '@mui/icons-material/Save';
import SkipNext from '@mui/icons-material/SkipNext';
import {
  Box,
  Button,
  Checkbox,
  Chip,
  FormControlLabel,
  FormGroup,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldCode } from '../../../../../shared/errors.js';
import {
  MAX_NOTE_LENGTH,
  type MarkInput,
  type RubricCriterion,
} from '../../../../../shared/schemas/reviews.js';
import {
  checkMark,
  formatMark,
  formatMarkInput,
  quickMarks,
  readMark,
  rubricSum,
} from '../mark-form.js';

export type MarkFormValues = { score: number | null; criteria: string[]; note: string | null };

type Props = {
  /** Names the form (e.g. "Your mark", "Mediator's mark"). */
  title: string;
  maxScore: number;
  markStep: number;
  criteria: RubricCriterion[];
  /** What the form starts from: the caller's mark so far, if any. */
  initial: MarkFormValues;
  version: number;
  busy: boolean;
  /** A field code the server sent back for the mark or the criteria. */
  serverError?: { field: 'reviewerScore' | 'criteria'; code: FieldCode } | null;
  submitLabel: string;
  /** Offered when there is a next paper: save, then open it. */
  canGoNext: boolean;
  onSubmit: (body: MarkInput, then: 'stay' | 'next') => void;
};

/**
 * A mark: the rubric's criteria ticked (their points add up to the mark), or a free mark typed
 * with a decimal comma or point, or picked from the quick marks; a note. The step and the
 * range are checked as the mark is typed, the way the server checks them.
 */
export function MarkForm(props: Props) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const formId = useId();
  const hasRubric = props.criteria.length > 0;
  const [mode, setMode] = useState<'rubric' | 'free'>(
    hasRubric && (props.initial.score === null || props.initial.criteria.length > 0)
      ? 'rubric'
      : 'free',
  );
  const [ticked, setTicked] = useState<string[]>(props.initial.criteria);
  const [text, setText] = useState(
    props.initial.score === null ? '' : formatMarkInput(props.initial.score, lang),
  );
  const [note, setNote] = useState(props.initial.note ?? '');
  const [tried, setTried] = useState(false);

  const isRubric = mode === 'rubric' && hasRubric;
  const sum = rubricSum(props.criteria, ticked);
  const read: number | FieldCode = isRubric
    ? (checkMark(sum, props.maxScore, props.markStep) ?? sum)
    : readMark(text, props.maxScore, props.markStep);
  const localError = typeof read === 'number' ? null : read;
  // 'required' waits for a first try; a wrong mark shows as soon as it is typed.
  const shownError =
    (localError && (localError !== 'required' || tried) ? localError : null) ??
    (props.serverError?.field === 'reviewerScore' || props.serverError?.field === 'criteria'
      ? props.serverError.code
      : null);
  // A mark out of bounds or off the step says the bound ("între 0 și 7"), not a rule's name.
  const errorText = (code: string) =>
    code === 'out_of_range'
      ? t('reviews.mark.outOfRange', { max: formatMark(props.maxScore, lang) })
      : code === 'not_in_step'
        ? t('reviews.mark.notInStep', { step: formatMark(props.markStep, lang) })
        : t(`error_${code}`);
  const noteTooLong = note.length > MAX_NOTE_LENGTH;
  const quick = quickMarks(props.maxScore, props.markStep);

  const submit = (then: 'stay' | 'next') => {
    setTried(true);
    if (typeof read !== 'number' || noteTooLong || props.busy) return;
    props.onSubmit(
      {
        reviewerScore: read,
        ...(isRubric ? { criteria: ticked } : {}),
        note: note.trim() ? note.trim() : null,
        version: props.version,
      },
      then,
    );
  };

  const handleSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit('stay');
  };

  const toggle = (id: string) =>
    setTicked((all) => (all.includes(id) ? all.filter((x) => x !== id) : [...all, id]));

  return (
    <Box
      component="form"
      noValidate
      aria-labelledby={formId}
      onSubmit={handleSubmit}
      onKeyDown={(e) => {
        // Ctrl+Enter: save and go on to the next paper.
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          submit(props.canGoNext ? 'next' : 'stay');
        }
      }}
    >
      <Stack spacing={1.5}>
        <Typography variant="subtitle1" component="h3" id={formId} sx={{ fontWeight: 600 }}>
          {props.title}
        </Typography>
        {hasRubric && (
          <ToggleButtonGroup
            size="small"
            exclusive
            value={mode}
            onChange={(_, v: 'rubric' | 'free' | null) => v && setMode(v)}
            aria-label={t('reviews.mark.mode')}
          >
            <ToggleButton value="rubric">{t('reviews.mark.byRubric')}</ToggleButton>
            <ToggleButton value="free">{t('reviews.mark.free')}</ToggleButton>
          </ToggleButtonGroup>
        )}
        {isRubric ? (
          <Box>
            <FormGroup aria-label={t('reviews.mark.criteria')}>
              {props.criteria.map((c) => (
                <FormControlLabel
                  key={c.id}
                  sx={{ alignItems: 'flex-start', mb: 0.5 }}
                  control={
                    <Checkbox
                      size="small"
                      checked={ticked.includes(c.id)}
                      onChange={() => toggle(c.id)}
                      sx={{ pt: 0.25 }}
                    />
                  }
                  label={
                    <span>
                      {c.label}{' '}
                      <Typography component="span" color="text.secondary" variant="body2">
                        ({t('reviews.pointsShort', { value: formatMark(c.points, lang) })})
                      </Typography>
                    </span>
                  }
                />
              ))}
            </FormGroup>
            <Typography
              sx={{ mt: 1, fontWeight: 600 }}
              role="status"
              color={shownError ? 'error' : 'text.primary'}
            >
              {t('reviews.mark.rubricTotal', {
                value: formatMark(sum, lang),
                max: formatMark(props.maxScore, lang),
              })}
            </Typography>
            {shownError && (
              <Typography variant="body2" color="error">
                {errorText(shownError)}
              </Typography>
            )}
          </Box>
        ) : (
          <>
            <TextField
              label={t('reviews.mark.score', { max: formatMark(props.maxScore, lang) })}
              value={text}
              onChange={(e) => setText(e.target.value)}
              error={shownError !== null}
              helperText={
                shownError
                  ? errorText(shownError)
                  : t('reviews.mark.scoreHint', {
                      max: formatMark(props.maxScore, lang),
                      step: formatMark(props.markStep, lang),
                    })
              }
              slotProps={{ htmlInput: { inputMode: 'decimal', autoComplete: 'off' } }}
              size="small"
              autoFocus
              sx={{ maxWidth: 260 }}
            />
            {quick.length > 0 && (
              <Box
                sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}
                role="group"
                aria-label={t('reviews.mark.quick')}
              >
                {quick.map((q) => (
                  <Chip
                    key={q}
                    label={formatMark(q, lang)}
                    size="small"
                    clickable
                    color={typeof read === 'number' && read === q ? 'primary' : 'default'}
                    onClick={() => setText(formatMarkInput(q, lang))}
                  />
                ))}
              </Box>
            )}
          </>
        )}
        <TextField
          label={t('reviews.mark.note')}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          multiline
          minRows={2}
          maxRows={8}
          size="small"
          error={noteTooLong}
          helperText={noteTooLong ? t('error_too_long') : t('reviews.mark.noteHint')}
        />
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Button type="submit" variant="contained" startIcon={<Save />} disabled={props.busy}>
            {props.submitLabel}
          </Button>
          {props.canGoNext && (
            <Button
              variant="outlined"
              startIcon={<SkipNext />}
              disabled={props.busy}
              onClick={() => submit('next')}
            >
              {t('reviews.mark.saveNext')}
            </Button>
          )}
        </Box>
      </Stack>
    </Box>
  );
}
