import Download from '@mui/icons-material/Download';
import UploadFile from '@mui/icons-material/UploadFile';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Tab,
  Tabs,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Exam } from '../../../../../shared/schemas/exams.js';
import {
  type Difficulty,
  IMPORT_TEMPLATE_NAME,
  MAX_IMPORT_UNPACKED_BYTES,
} from '../../../../../shared/schemas/questions.js';
import { ApiError } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { SelectField } from '../../../components/pickers/select-field.js';
import { saveBlob } from '../../../lib/download.js';
import { useImportTemplate } from '../api/get-import-template.js';
import { useImportImages } from '../api/import-images.js';
import { useImportQuestions } from '../api/import-questions.js';
import { difficultyOptions, disciplineOptions, gradeOptions } from '../format.js';
import { failureKey } from '../use-question-report.js';
import { type AnyImportReport, ImportReport } from './ImportReport.js';

type Props = { open: boolean; ids: PhaseIds; exam: Exam; onClose: () => void };
type Kind = AnyImportReport['kind'];

/** A file button: the chosen names beside it. */
function FilePicker(props: {
  label: string;
  accept: string;
  multiple?: boolean;
  files: File[];
  disabled?: boolean;
  error?: string;
  onChange: (files: File[]) => void;
}) {
  const { t } = useTranslation();
  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
        <Button
          component="label"
          variant="outlined"
          startIcon={<UploadFile />}
          disabled={props.disabled}
        >
          {props.label}
          <input
            hidden
            type="file"
            accept={props.accept}
            multiple={props.multiple}
            aria-label={props.label}
            onChange={(e) => {
              props.onChange([...(e.target.files ?? [])]);
              e.target.value = '';
            }}
          />
        </Button>
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ overflowWrap: 'anywhere', minWidth: 0 }}
        >
          {props.files.length === 0
            ? t('questions.import.noFile')
            : props.files.length === 1
              ? props.files[0]?.name
              : t('questions.import.files', { count: props.files.length })}
        </Typography>
      </Box>
      {props.error && (
        <Typography variant="caption" color="error" role="alert">
          {props.error}
        </Typography>
      )}
    </Box>
  );
}

/** A refusal of the whole file, in words (a row-by-row report comes back otherwise). */
function fileProblem(
  error: unknown,
  t: (key: string, values?: Record<string, unknown>) => string,
): string {
  if (error instanceof ApiError) {
    if (error.code === 'SPREADSHEET_TOO_LARGE') {
      const megabytes = Math.round(MAX_IMPORT_UNPACKED_BYTES / (1024 * 1024));
      return t('questions.import.tooLarge', { megabytes });
    }
    const codes = error.fieldErrors.file ?? error.fieldErrors.image ?? [];
    if (codes.includes('too_long')) return t('questions.import.tooManyRows');
    if (codes.includes('invalid')) return t('questions.import.unreadable');
    if (codes.includes('required')) return t('questions.import.chooseFile');
    if (error.code === 'FILE_TYPE_NOT_ALLOWED') return t('questions.import.notSheet');
  }
  return t(failureKey(error, 'questions.import.failed'));
}

/**
 * Import questions: a spreadsheet (one row a question, from the downloadable template) or
 * images (one open question each, with the subject and grade chosen here). Either way the
 * answer is a row-by-row report of what was added and what was refused and why.
 */
export function ImportDialog({ open, ids, exam, onClose }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const [kind, setKind] = useState<Kind>('sheet');
  const [sheet, setSheet] = useState<File[]>([]);
  const [images, setImages] = useState<File[]>([]);
  const [discipline, setDiscipline] = useState(exam.subject);
  const [grade, setGrade] = useState<number | ''>(
    exam.grades.length === 1 ? (exam.grades[0] ?? '') : '',
  );
  const [difficulty, setDifficulty] = useState<Difficulty>('medium');
  const [category, setCategory] = useState('');
  const [isChecked, setIsChecked] = useState(false);
  const [result, setResult] = useState<AnyImportReport | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const template = useImportTemplate(ids);
  const importSheet = useImportQuestions(ids);
  const importImages = useImportImages(ids);
  const busy = importSheet.isPending || importImages.isPending;

  const reset = () => {
    setResult(null);
    setProblem(null);
    setIsChecked(false);
  };
  const close = () => {
    reset();
    setSheet([]);
    setImages([]);
    onClose();
  };

  const handleTemplate = async () => {
    try {
      saveBlob(await template.mutateAsync(), IMPORT_TEMPLATE_NAME);
    } catch {
      setProblem(t('msg_download_failed'));
    }
  };

  const handleImport = async () => {
    setIsChecked(true);
    setProblem(null);
    setResult(null);
    try {
      if (kind === 'sheet') {
        const [file] = sheet;
        if (!file) return;
        setResult({ kind, report: await importSheet.mutateAsync(file) });
        // The same file again would add the same questions twice.
        setSheet([]);
      } else {
        if (images.length === 0 || !discipline || grade === '') return;
        const report = await importImages.mutateAsync({
          images,
          discipline,
          grade,
          difficulty,
          ...(category.trim() ? { category: category.trim() } : {}),
        });
        setResult({ kind, report });
        setImages([]);
      }
      setIsChecked(false);
    } catch (e) {
      setProblem(fileProblem(e, t));
    }
  };

  const required = t('error_required');
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : close}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
      fullScreen={isPhone}
    >
      <DialogTitle id={titleId}>{t('questions.import.title')}</DialogTitle>
      <Tabs
        value={kind}
        onChange={(_, next: Kind) => {
          setKind(next);
          reset();
        }}
        variant="fullWidth"
        aria-label={t('questions.import.kind')}
        sx={{ borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab value="sheet" label={t('questions.import.sheetTab')} disabled={busy} />
        <Tab value="images" label={t('questions.import.imagesTab')} disabled={busy} />
      </Tabs>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {kind === 'sheet' ? (
            <>
              <Typography variant="body2">{t('questions.import.sheetHint')}</Typography>
              <Box>
                <Button
                  startIcon={template.isPending ? <CircularProgress size={16} /> : <Download />}
                  onClick={() => void handleTemplate()}
                  disabled={template.isPending}
                >
                  {t('questions.import.template')}
                </Button>
              </Box>
              <FilePicker
                label={t('questions.import.chooseSheet')}
                accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                files={sheet}
                disabled={busy}
                error={isChecked && sheet.length === 0 ? required : undefined}
                onChange={(files) => {
                  setSheet(files.slice(0, 1));
                  reset();
                }}
              />
            </>
          ) : (
            <>
              <Typography variant="body2">{t('questions.import.imagesHint')}</Typography>
              <Box
                sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}
              >
                <SelectField
                  size="small"
                  required
                  label={t('questions.fields.itemDiscipline')}
                  options={disciplineOptions(t, exam.subject)}
                  value={discipline}
                  onChange={(v) => setDiscipline(v)}
                  error={isChecked && !discipline}
                  helperText={isChecked && !discipline ? required : undefined}
                />
                <SelectField
                  size="small"
                  required
                  label={t('questions.fields.itemGrade')}
                  options={gradeOptions(t, exam.grades)}
                  value={grade}
                  onChange={(v) => setGrade(v)}
                  error={isChecked && grade === ''}
                  helperText={isChecked && grade === '' ? required : undefined}
                />
                <SelectField
                  size="small"
                  label={t('questions.fields.difficulty')}
                  options={difficultyOptions(t)}
                  value={difficulty}
                  onChange={(v) => v && setDifficulty(v)}
                />
                <TextField
                  size="small"
                  label={t('questions.fields.itemCategory')}
                  value={category}
                  onChange={(e) => setCategory(e.target.value)}
                  slotProps={{ htmlInput: { maxLength: 100 } }}
                />
              </Box>
              <FilePicker
                label={t('questions.import.chooseImages')}
                accept="image/png,image/jpeg"
                multiple
                files={images}
                disabled={busy}
                error={isChecked && images.length === 0 ? required : undefined}
                onChange={(files) => {
                  setImages(files);
                  reset();
                }}
              />
            </>
          )}
          {busy && <Typography role="status">{t('questions.import.running')}</Typography>}
          {problem && <Alert severity="error">{problem}</Alert>}
          {result && <ImportReport result={result} />}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy}>
          {t('common.close')}
        </Button>
        <Button
          variant="contained"
          onClick={() => void handleImport()}
          disabled={busy}
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {t('questions.import.run')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
