import Download from '@mui/icons-material/Download';
import OpenInNew from '@mui/icons-material/OpenInNew';
import PictureAsPdf from '@mui/icons-material/PictureAsPdf';
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
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnswerFile } from '../../../../shared/schemas/uploads.js';
import { saveBlob } from '../../lib/download.js';
import { useAnswerFileUrl } from './api/get-answer-file.js';
import { formatBytes, isImage } from './format.js';
import type { TestIds } from './paths.js';

type Props = {
  ids: TestIds;
  answerId: string;
  file: AnswerFile | null;
  onClose: () => void;
};

/**
 * A page of an answer: images shown whole; a PDF in the browser's own viewer inside the dialog
 * (phone browsers show none there: they open it in a new tab), or downloaded. Full screen on
 * phones.
 */
export function FilePreviewDialog({ ids, answerId, file, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const url = useAnswerFileUrl(ids, answerId, file?._id ?? '', file !== null);

  const handleDownload = async () => {
    if (!file || !url.data) return;
    saveBlob(await (await fetch(url.data)).blob(), file.name);
  };

  return (
    <Dialog
      open={file !== null}
      onClose={onClose}
      aria-labelledby={titleId}
      fullScreen={isPhone}
      maxWidth="md"
      fullWidth
    >
      <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
        {file?.name}
        {file && (
          <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 1 }}>
            {formatBytes(file.size, i18n.language)}
          </Typography>
        )}
      </DialogTitle>
      <DialogContent dividers sx={{ display: 'grid', placeItems: 'center', minHeight: 200 }}>
        {url.isPending && <CircularProgress aria-label={t('list.loading')} />}
        {url.isError && <Alert severity="error">{t('msg_download_failed')}</Alert>}
        {file && url.data && isImage(file.mime) && (
          <Box
            component="img"
            src={url.data}
            alt={t('answerFiles.previewAlt', { name: file.name })}
            sx={{ maxWidth: '100%', maxHeight: '75vh', objectFit: 'contain', display: 'block' }}
          />
        )}
        {file && url.data && !isImage(file.mime) && (
          <Stack
            spacing={isPhone ? 2 : 1}
            sx={
              isPhone
                ? { alignItems: 'center', textAlign: 'center', py: 2 }
                : { width: '100%', alignItems: 'flex-end' }
            }
          >
            {isPhone ? (
              <>
                <PictureAsPdf color="error" sx={{ fontSize: 64 }} />
                <Typography>{t('answerFiles.pdfHint')}</Typography>
              </>
            ) : (
              <Box
                component="iframe"
                src={url.data}
                title={t('answerFiles.pdfFrame', { name: file.name })}
                sx={{ width: '100%', height: '70vh', border: 0, display: 'block' }}
              />
            )}
            <Button
              variant={isPhone ? 'contained' : 'text'}
              size={isPhone ? 'medium' : 'small'}
              startIcon={<OpenInNew />}
              onClick={() => window.open(url.data, '_blank', 'noopener')}
            >
              {t(isPhone ? 'answerFiles.openPdf' : 'answerFiles.openPdfTab')}
            </Button>
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button startIcon={<Download />} disabled={!url.data} onClick={() => void handleDownload()}>
          {t('answerFiles.download')}
        </Button>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
