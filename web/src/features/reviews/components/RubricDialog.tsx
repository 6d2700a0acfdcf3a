import Add from '@mui/icons-material/Add';
import Delete from '@mui/icons-material/Delete';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_RUBRIC_CRITERIA } from '../../../../../shared/schemas/reviews.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { useSnackbar } from '../../../lib/snackbar.js';
import { useRubric, useSaveRubric } from '../api/rubric.js';
import { formatMark, formatMarkInput, parseMark } from '../mark-form.js';

type Props = { ids: PhaseIds; itemId: string | null; title: string; onClose: () => void };
type Row = { key: string; id?: string; label: string; points: string };

let rowSeq = 0;
const newKey = () => `row-${++rowSeq}`;

/**
 * A question's marking scheme (barem): criteria with their points, which markers tick to
 * build a mark. With no criteria, marks are free.
 */
export function RubricDialog({ ids, itemId, title, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { notify } = useSnackbar();
  const titleId = useId();
  const rubric = useRubric(ids, itemId ?? '', itemId !== null);
  const save = useSaveRubric(ids, itemId ?? '');
  const [rows, setRows] = useState<Row[]>([]);
  const [tried, setTried] = useState(false);
  useEffect(() => {
    if (rubric.data) {
      setRows(
        rubric.data.criteria.map((c) => ({
          key: newKey(),
          id: c.id,
          label: c.label,
          points: formatMarkInput(c.points, lang),
        })),
      );
      setTried(false);
    }
  }, [rubric.data, lang]);

  const parsed = rows.map((r) => ({
    label: r.label.trim() ? null : 'error_required',
    points: ((p) => (typeof p === 'number' ? null : `error_${p}`))(parseMark(r.points)),
  }));
  const isValid = parsed.every((p) => !p.label && !p.points);
  const sum = rows.reduce((s, r) => {
    const p = parseMark(r.points);
    return typeof p === 'number' ? s + Math.round(p * 100) : s;
  }, 0);

  const update = (key: string, patch: Partial<Row>) =>
    setRows((all) => all.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  const handleSave = async () => {
    setTried(true);
    if (!isValid || !itemId) return;
    try {
      await save.mutateAsync({
        criteria: rows.map((r) => ({
          ...(r.id ? { id: r.id } : {}),
          label: r.label.trim(),
          points: parseMark(r.points) as number,
        })),
      });
      notify('reviews.rubric.saved', 'success');
      onClose();
    } catch {
      notify('reviews.rubric.failed', 'error');
    }
  };

  return (
    <Dialog
      open={itemId !== null}
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth="md"
      fullWidth
    >
      <DialogTitle id={titleId}>{t('reviews.rubric.title', { name: title })}</DialogTitle>
      <DialogContent dividers>
        {rubric.isPending && <CircularProgress aria-label={t('list.loading')} />}
        {rubric.isError && <Alert severity="error">{t('list.loadError')}</Alert>}
        {rubric.data && (
          <Stack spacing={2}>
            <Typography variant="body2" color="text.secondary">
              {t('reviews.rubric.hint')}
            </Typography>
            {rows.map((r, i) => (
              <Box key={r.key} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
                <TextField
                  label={t('reviews.rubric.criterion', { n: i + 1 })}
                  value={r.label}
                  onChange={(e) => update(r.key, { label: e.target.value })}
                  size="small"
                  multiline
                  sx={{ flex: 1 }}
                  error={tried && parsed[i]?.label !== null}
                  helperText={tried && parsed[i]?.label ? t(parsed[i]?.label ?? '') : undefined}
                />
                <TextField
                  label={t('reviews.rubric.points')}
                  value={r.points}
                  onChange={(e) => update(r.key, { points: e.target.value })}
                  size="small"
                  sx={{ width: 120 }}
                  slotProps={{ htmlInput: { inputMode: 'decimal' } }}
                  error={tried && parsed[i]?.points !== null}
                  helperText={tried && parsed[i]?.points ? t(parsed[i]?.points ?? '') : undefined}
                />
                <IconButton
                  aria-label={t('reviews.rubric.remove', { n: i + 1 })}
                  onClick={() => setRows((all) => all.filter((x) => x.key !== r.key))}
                >
                  <Delete />
                </IconButton>
              </Box>
            ))}
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
              <Button
                startIcon={<Add />}
                disabled={rows.length >= MAX_RUBRIC_CRITERIA}
                onClick={() => setRows((all) => [...all, { key: newKey(), label: '', points: '' }])}
              >
                {t('reviews.rubric.add')}
              </Button>
              <Typography sx={{ ml: 'auto', fontWeight: 600 }}>
                {t('reviews.rubric.sum', { count: sum / 100, value: formatMark(sum / 100, lang) })}
              </Typography>
            </Box>
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button
          variant="contained"
          disabled={save.isPending || !rubric.data}
          onClick={() => void handleSave()}
        >
          {t('common.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
