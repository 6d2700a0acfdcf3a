import AddAPhoto from '@mui/icons-material/AddAPhoto';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Download from '@mui/icons-material/Download';
import PictureAsPdf from '@mui/icons-material/PictureAsPdf';
import Visibility from '@mui/icons-material/Visibility';
import {
  Alert,
  Box,
  Button,
  IconButton,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import { type ChangeEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '../../../../shared/errors.js';
import type {
  Answer,
  AnswerFile,
  RejectedFile,
  StudentItems,
} from '../../../../shared/schemas/uploads.js';
import { ANSWER_FILE_ACCEPT } from '../../../../shared/schemas/uploads-values.js';
import { ApiError } from '../../api/client.js';
import { saveBlob } from '../../lib/download.js';
import { useSnackbar } from '../../lib/snackbar.js';
import { ConfirmDialog } from '../list/ConfirmDialog.js';
import { getAnswerFile, useAnswerFileUrl } from './api/get-answer-file.js';
import { useSetAnswerFiles } from './api/set-answer-files.js';
import { useUploadAnswer } from './api/upload-answer.js';
import { FilePreviewDialog } from './FilePreviewDialog.js';
import { formatBytes, isImage } from './format.js';
import type { TestIds } from './paths.js';

type Props = {
  ids: TestIds;
  itemId: string;
  /** 'Întrebarea N': names the buttons for screen readers and tests. */
  itemLabel: string;
  answer: Answer | null;
  /** Staff entering a paper answer name the student; a student changes their own. */
  studentId?: string;
  /** Upload and delete offered; otherwise the files are only listed, previewed, downloaded. */
  canEdit: boolean;
  limits: StudentItems['limits'];
};

/** What the last upload did: kept files, and the refused ones with their reasons. */
type Report =
  | { kind: 'done'; kept: number; rejected: RejectedFile[] }
  | { kind: 'failed'; code: ErrorCode; rejected: RejectedFile[] };

const rejectedOf = (error: unknown): RejectedFile[] => {
  if (!(error instanceof ApiError)) return [];
  const details = error.details as { rejectedFiles?: RejectedFile[] } | undefined;
  return Array.isArray(details?.rejectedFiles) ? details.rejectedFiles : [];
};

/**
 * The pages of one answer: a list with preview, download and delete, and an upload button
 * that takes several files at once and opens the camera on phones. Files the server refuses
 * (type by their bytes, HEIC photos, size) are listed with the reason; the others are kept.
 */
export function AnswerFiles(props: Props) {
  const { ids, itemId, itemLabel, answer, studentId, canEdit, limits } = props;
  const { t, i18n } = useTranslation();
  const { notify } = useSnackbar();
  const inputId = useId();
  const upload = useUploadAnswer(ids);
  const setFiles = useSetAnswerFiles(ids);
  const [report, setReport] = useState<Report | null>(null);
  const [preview, setPreview] = useState<AnswerFile | null>(null);
  const [deleting, setDeleting] = useState<AnswerFile | null>(null);
  const files = answer?.answerFiles ?? [];
  const lang = i18n.language;

  const handleChoose = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = [...(event.target.files ?? [])];
    // The same file may be chosen again after a refusal: the input must report it anew.
    event.target.value = '';
    if (chosen.length === 0) return;
    // Too large for the server anyway: not worth a phone's upload.
    const tooLarge: RejectedFile[] = chosen
      .filter((f) => f.size > limits.maxFileBytes)
      .map((f) => ({ field: '', name: f.name, code: 'FILE_TOO_LARGE', mime: f.type || null }));
    const sent = chosen.filter((f) => f.size <= limits.maxFileBytes);
    if (sent.length === 0) {
      setReport({ kind: 'failed', code: 'FILE_TOO_LARGE', rejected: tooLarge });
      notify('message_question_answer_error', 'error');
      return;
    }
    setReport(null);
    try {
      const result = await upload.mutateAsync({ itemId, files: sent, studentId });
      const kept = sent.length - result.rejectedFiles.length;
      setReport({ kind: 'done', kept, rejected: [...tooLarge, ...result.rejectedFiles] });
      notify(
        'message_question_answer_success',
        tooLarge.length + result.rejectedFiles.length > 0 ? 'warning' : 'success',
      );
    } catch (error) {
      const code = error instanceof ApiError ? error.code : 'GENERAL_ERROR';
      setReport({ kind: 'failed', code, rejected: [...tooLarge, ...rejectedOf(error)] });
      notify('message_question_answer_error', 'error');
    }
  };

  /** A refused change of the pages: the window closed says so, anything else the fallback. */
  const notifyChangeFailed = (error: unknown, fallback: string) => {
    const code = error instanceof ApiError ? error.code : 'GENERAL_ERROR';
    const closed = code === 'PHASE_CLOSED' || code === 'TEST_NOT_ACTIVE';
    notify(closed ? `errors.${code}` : fallback, 'error');
  };

  const handleDelete = async () => {
    if (!answer || !deleting) return;
    try {
      await setFiles.mutateAsync({
        answerId: answer._id,
        answerFiles: files.filter((f) => f._id !== deleting._id).map((f) => f._id),
      });
      notify('message_question_answer_delete_success', 'success');
      setDeleting(null);
    } catch (error) {
      notifyChangeFailed(error, 'message_question_answer_delete_failed');
      setDeleting(null);
    }
  };

  /** Moves a page one place up or down: reviewers read the pages in this order. */
  const handleMove = async (index: number, by: -1 | 1) => {
    if (!answer) return;
    const order = files.map((f) => f._id);
    const [moved] = order.splice(index, 1);
    if (!moved) return;
    order.splice(index + by, 0, moved);
    try {
      await setFiles.mutateAsync({ answerId: answer._id, answerFiles: order });
    } catch (error) {
      notifyChangeFailed(error, 'answerFiles.moveFailed');
    }
  };

  const handleDownload = async (file: AnswerFile) => {
    if (!answer) return;
    try {
      saveBlob(await getAnswerFile(ids, answer._id, file._id), file.name);
    } catch {
      notify('msg_download_failed', 'error');
    }
  };

  return (
    <Stack spacing={1.5}>
      {files.length === 0 ? (
        <Typography color="text.secondary" variant="body2">
          {t('answerFiles.none')}
        </Typography>
      ) : (
        <List
          dense
          disablePadding
          aria-label={t('answerFiles.listLabel', { item: itemLabel })}
          sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}
        >
          {files.map((file, i) => (
            <ListItem
              key={file._id}
              divider={i < files.length - 1}
              sx={{ gap: { xs: 1, sm: 1.5 }, pl: { xs: 1, sm: 2 }, pr: 0.5 }}
            >
              {answer && <Thumb ids={ids} answerId={answer._id} file={file} />}
              <ListItemText
                primary={file.name}
                secondary={`${t('answerFiles.page', { n: i + 1 })} · ${formatBytes(file.size, lang)}`}
                sx={{ flex: '1 1 0', minWidth: 0, overflowWrap: 'anywhere' }}
              />
              <Box sx={{ display: 'flex', flexShrink: 0 }}>
                <Tooltip title={t('answerFiles.preview')}>
                  <IconButton
                    aria-label={t('answerFiles.previewFile', { name: file.name })}
                    onClick={() => setPreview(file)}
                  >
                    <Visibility />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t('answerFiles.download')}>
                  <IconButton
                    aria-label={t('answerFiles.downloadFile', { name: file.name })}
                    onClick={() => void handleDownload(file)}
                  >
                    <Download />
                  </IconButton>
                </Tooltip>
                {canEdit && files.length > 1 && (
                  <Box sx={{ display: 'flex', flexDirection: 'column' }}>
                    <Tooltip title={t('answerFiles.moveUp')} placement="left">
                      <span>
                        <IconButton
                          size="small"
                          aria-label={t('answerFiles.moveUpFile', { name: file.name })}
                          disabled={i === 0 || setFiles.isPending}
                          onClick={() => void handleMove(i, -1)}
                        >
                          <ArrowUpward fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                    <Tooltip title={t('answerFiles.moveDown')} placement="left">
                      <span>
                        <IconButton
                          size="small"
                          aria-label={t('answerFiles.moveDownFile', { name: file.name })}
                          disabled={i === files.length - 1 || setFiles.isPending}
                          onClick={() => void handleMove(i, 1)}
                        >
                          <ArrowDownward fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                  </Box>
                )}
                {canEdit && (
                  <Tooltip title={t('answerFiles.delete')}>
                    <IconButton
                      color="error"
                      aria-label={t('answerFiles.deleteFile', { name: file.name })}
                      onClick={() => setDeleting(file)}
                    >
                      <DeleteOutline />
                    </IconButton>
                  </Tooltip>
                )}
              </Box>
            </ListItem>
          ))}
        </List>
      )}

      {canEdit && (
        <Box>
          <Button
            component="label"
            htmlFor={inputId}
            variant={files.length === 0 ? 'contained' : 'outlined'}
            startIcon={<AddAPhoto />}
            disabled={upload.isPending}
            sx={{ minHeight: 44, width: { xs: '100%', sm: 'auto' } }}
          >
            {t(files.length === 0 ? 'answerFiles.upload' : 'answerFiles.uploadMore')}
            <input
              id={inputId}
              type="file"
              multiple
              accept={ANSWER_FILE_ACCEPT}
              hidden
              aria-label={t('answerFiles.uploadFor', { item: itemLabel })}
              onChange={(e) => void handleChoose(e)}
            />
          </Button>
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5 }}>
            {t('answerFiles.hint', {
              size: formatBytes(limits.maxFileBytes, lang),
              count: limits.maxFiles,
            })}
          </Typography>
        </Box>
      )}
      {upload.isPending && <LinearProgress aria-label={t('answerFiles.uploading')} />}
      {report && <UploadReport report={report} onClose={() => setReport(null)} />}

      {answer && (
        <FilePreviewDialog
          ids={ids}
          answerId={answer._id}
          file={preview}
          onClose={() => setPreview(null)}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('answerFiles.deleteTitle')}
        message={t('answerFiles.deleteText', { name: deleting?.name ?? '' })}
        confirmLabel={t('answerFiles.delete')}
        destructive
        busy={setFiles.isPending}
        onConfirm={() => void handleDelete()}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}

/** A small picture of an image page; a PDF icon for documents. */
function Thumb({ ids, answerId, file }: { ids: TestIds; answerId: string; file: AnswerFile }) {
  const image = isImage(file.mime);
  const url = useAnswerFileUrl(ids, answerId, file._id, image);
  const box = {
    width: 48,
    height: 48,
    borderRadius: 1,
    flexShrink: 0,
    bgcolor: 'action.hover',
    display: 'grid',
    placeItems: 'center',
    overflow: 'hidden',
  } as const;
  if (!image) {
    return (
      <Box sx={box} aria-hidden>
        <PictureAsPdf color="error" />
      </Box>
    );
  }
  return (
    <Box sx={box} aria-hidden>
      {url.data && (
        <Box
          component="img"
          src={url.data}
          alt=""
          sx={{ width: '100%', height: '100%', objectFit: 'cover' }}
        />
      )}
    </Box>
  );
}

/** The outcome of the last upload, with each refused file and why. */
function UploadReport({ report, onClose }: { report: Report; onClose: () => void }) {
  const { t } = useTranslation();
  const severity =
    report.kind === 'failed' ? 'error' : report.rejected.length > 0 ? 'warning' : 'success';
  return (
    <Alert severity={severity} onClose={onClose} role="alert">
      <Typography variant="body2" sx={{ fontWeight: 500 }}>
        {report.kind === 'done' || report.rejected.length > 0
          ? // Each refused file says why below; the headline only counts what was kept.
            t('answerFiles.kept', { count: report.kind === 'done' ? report.kept : 0 })
          : t(`errors.${report.code}`, { defaultValue: t('message_question_answer_error') })}
      </Typography>
      {report.rejected.length > 0 && (
        <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
          {report.rejected.map((r, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the same name may be refused twice
            <li key={`${r.name}-${i}`}>
              <strong>{r.name}</strong>: {t(`answerFiles.rejected.${r.code}`)}
            </li>
          ))}
        </Box>
      )}
    </Alert>
  );
}
