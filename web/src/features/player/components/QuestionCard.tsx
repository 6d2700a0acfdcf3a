import ArrowBack from '@mui/icons-material/ArrowBack';
import ArrowForward from '@mui/icons-material/ArrowForward';
import {
  Box,
  Button,
  Checkbox,
  Divider,
  FormControlLabel,
  Paper,
  Radio,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlayerItem, SubmittedAnswer } from '../../../../../shared/schemas/player.js';
import { MAX_OPEN_ANSWER_LENGTH } from '../../../../../shared/schemas/player-values.js';
import { formatScore } from '../../../lib/scores.js';
import type { SaveStatus } from '../lib/answer-queue.js';
import { acceptsTyping, numericAnswer } from '../lib/numeric.js';
import { optionOrder, toDisplayed, toStoredAnswer } from '../lib/option-order.js';
import { PlayerImage, PlayerStatement } from './PlayerStatement.js';
import { SaveStatusLabel } from './SaveStatusLabel.js';

type Props = {
  item: PlayerItem;
  index: number;
  total: number;
  answer: SubmittedAnswer | undefined;
  status: SaveStatus;
  /** Why the server refused the answer for good, when it said (a field code). */
  refusal?: string;
  testId: string;
  attemptId: string;
  attemptKey: string;
  disabled: boolean;
  onAnswer: (value: SubmittedAnswer) => void;
  onMove: (index: number) => void;
};

const letter = (k: number) => String.fromCharCode(65 + k);

/** One question: statement, image, the answer control, where the answer is, and moving on. */
export function QuestionCard(props: Props) {
  const { item, index, total, status } = props;
  const { t, i18n } = useTranslation();
  const headingId = useId();
  return (
    <Paper component="section" aria-labelledby={headingId} sx={{ p: { xs: 2, sm: 3 } }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 2 }}>
        <Typography
          id={headingId}
          variant="h6"
          component="h2"
          sx={{ fontWeight: 700, flex: 1, minWidth: 160 }}
        >
          {t('player.question', { n: item.position, total })}
          <Typography component="span" color="text.secondary" sx={{ ml: 1, fontWeight: 400 }}>
            {t('player.points', {
              count: item.score,
              score: formatScore(item.score, i18n.language),
            })}
          </Typography>
        </Typography>
        <SaveStatusLabel status={status} />
      </Box>
      <PlayerStatement testId={props.testId} attemptKey={props.attemptKey} markdown={item.itemQ} />
      {item.imageFileId && (
        <Box sx={{ mt: 2 }}>
          <PlayerImage
            testId={props.testId}
            attemptKey={props.attemptKey}
            fileId={item.imageFileId}
            alt={t('player.image', { n: item.position })}
          />
        </Box>
      )}
      <Divider sx={{ my: 2 }} />
      <AnswerControl key={item.itemId} {...props} />
      {status === 'rejected' && (
        <Typography color="error" variant="body2" role="alert" sx={{ mt: 1 }}>
          {t(`player.refused.${props.refusal ?? 'other'}`, {
            defaultValue: t('player.refused.other'),
          })}
        </Typography>
      )}
      <Stack direction="row" sx={{ mt: 3, justifyContent: 'space-between', gap: 1 }}>
        <Button
          startIcon={<ArrowBack />}
          disabled={index === 0}
          onClick={() => props.onMove(index - 1)}
        >
          {t('player.previous')}
        </Button>
        <Button
          endIcon={<ArrowForward />}
          variant="outlined"
          disabled={index >= total - 1}
          onClick={() => props.onMove(index + 1)}
        >
          {t('player.next')}
        </Button>
      </Stack>
    </Paper>
  );
}

function AnswerControl(props: Props) {
  const { item } = props;
  if (item.itemType === 'single' || item.itemType === 'multiple')
    return <ChoiceAnswer {...props} />;
  if (item.itemType === 'numeric') return <TypedAnswer {...props} numeric />;
  return <TypedAnswer {...props} numeric={false} />;
}

/**
 * Options in this student's own order (the letters follow the screen); what is stored is the
 * indices in the question's order.
 */
function ChoiceAnswer({ item, answer, attemptId, testId, attemptKey, disabled, onAnswer }: Props) {
  const { t } = useTranslation();
  const isMultiple = item.itemType === 'multiple';
  const order = useMemo(
    () => optionOrder(item.itemAnswers.length, `${attemptId}:${item.itemId}`),
    [item.itemAnswers.length, attemptId, item.itemId],
  );
  const stored = Array.isArray(answer) ? answer : [];
  const ticked = new Set(toDisplayed(order, stored));
  const groupLabel = t(isMultiple ? 'player.chooseMany' : 'player.chooseOne');

  const toggle = (k: number) => {
    if (isMultiple) {
      const next = new Set(ticked);
      if (next.has(k)) next.delete(k);
      else next.add(k);
      onAnswer(toStoredAnswer(order, next));
    } else {
      onAnswer(toStoredAnswer(order, [k]));
    }
  };

  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {groupLabel}
      </Typography>
      <Box
        role={isMultiple ? 'group' : 'radiogroup'}
        aria-label={groupLabel}
        sx={{ display: 'grid', gap: 1 }}
      >
        {order.map((own, k) => {
          const checked = ticked.has(k);
          const Control = isMultiple ? Checkbox : Radio;
          return (
            <FormControlLabel
              key={own}
              disabled={disabled}
              control={<Control checked={checked} onChange={() => toggle(k)} sx={{ mt: -0.5 }} />}
              label={
                <Box sx={{ display: 'flex', gap: 1, alignItems: 'baseline', py: 0.75 }}>
                  <Typography component="span" sx={{ fontWeight: 700 }}>
                    {letter(k)}.
                  </Typography>
                  <PlayerStatement
                    testId={testId}
                    attemptKey={attemptKey}
                    markdown={item.itemAnswers[own] ?? ''}
                    inline
                  />
                </Box>
              }
              sx={{
                m: 0,
                pr: 1,
                alignItems: 'flex-start',
                border: 1,
                borderRadius: 1.5,
                borderColor: checked ? 'primary.main' : 'divider',
                bgcolor: checked ? 'action.selected' : undefined,
                '& .MuiFormControlLabel-label': { flex: 1, minWidth: 0 },
              }}
            />
          );
        })}
      </Box>
      {!isMultiple && stored.length > 0 && (
        <Button size="small" sx={{ mt: 1 }} disabled={disabled} onClick={() => onAnswer(null)}>
          {t('player.clearAnswer')}
        </Button>
      )}
    </Box>
  );
}

/** A number (decimal comma or point) or, for open items, text; every change is saved. */
function TypedAnswer({ item, answer, disabled, onAnswer, numeric }: Props & { numeric: boolean }) {
  const { t } = useTranslation();
  const fromAnswer = typeof answer === 'string' ? answer : '';
  const [text, setText] = useState(fromAnswer);
  // A restored answer (reload, another device) replaces what the field shows.
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the item and its stored value
  useEffect(() => setText(fromAnswer), [item.itemId, fromAnswer]);
  const isIncomplete = numeric && numericAnswer(text) === undefined;

  const change = (value: string) => {
    if (numeric ? !acceptsTyping(value) : value.length > MAX_OPEN_ANSWER_LENGTH) return;
    setText(value);
    const next = numeric ? numericAnswer(value) : value.trim() === '' ? null : value;
    if (next !== undefined) onAnswer(next);
  };

  return (
    <TextField
      label={t(numeric ? 'player.numericLabel' : 'player.openLabel')}
      value={text}
      disabled={disabled}
      onChange={(e) => change(e.target.value)}
      error={isIncomplete}
      helperText={
        isIncomplete ? t('player.numericIncomplete') : numeric ? t('player.numericHelp') : undefined
      }
      fullWidth={!numeric}
      multiline={!numeric}
      minRows={numeric ? undefined : 4}
      autoComplete="off"
      slotProps={{
        htmlInput: numeric ? { inputMode: 'decimal' } : { maxLength: MAX_OPEN_ANSWER_LENGTH },
      }}
      sx={numeric ? { width: { xs: '100%', sm: 280 } } : undefined}
    />
  );
}
