import Download from '@mui/icons-material/Download';
import RotateRight from '@mui/icons-material/RotateRight';
import ZoomIn from '@mui/icons-material/ZoomIn';
import ZoomOut from '@mui/icons-material/ZoomOut';
import ZoomOutMap from '@mui/icons-material/ZoomOutMap';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  IconButton,
  Paper,
  ToggleButton,
  ToggleButtonGroup,
  Tooltip,
  Typography,
} from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReviewPage } from '../../../../../shared/schemas/reviews.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { saveBlob } from '../../../lib/download.js';
import { useSnackbar } from '../../../lib/snackbar.js';
import { getAnswerZip, useEntryFileUrl } from '../api/get-answer-files.js';
import { useShortcuts } from '../keyboard.js';
import type { EntryKind } from '../paths.js';

type Props = {
  ids: PhaseIds;
  kind: EntryKind;
  reviewId: string;
  /** The answer's anonymous code: the zip is named by it, as the server names it. */
  code: string;
  pages: ReviewPage[];
  /** An online open item's typed answer. */
  text: string | null;
  /** An online choice or numeric answer as given (appeals), already written out. */
  submitted?: string | null;
};

export const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 2.5, 3] as const;

/**
 * The answer being marked: its scanned pages one at a time, zoomed and turned (photos arrive
 * sideways), a PDF in the browser's own viewer, or the typed text; and every page as a zip.
 * Shortcuts: + and − zoom, 0 fits the width, r turns the page, 1…9 choose a page.
 */
export function AnswerViewer({ ids, kind, reviewId, code, pages, text, submitted }: Props) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const [index, setIndex] = useState(0);
  const [zoomIndex, setZoomIndex] = useState(2);
  const [rotation, setRotation] = useState(0);
  const page = pages[Math.min(index, pages.length - 1)] ?? null;
  const isPdf = page?.mime === 'application/pdf';
  const url = useEntryFileUrl(ids, kind, reviewId, page?._id ?? null);
  const zoom = ZOOMS[zoomIndex] ?? 1;

  // Another paper: back to its first page, upright, at full width.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the paper changes
  useEffect(() => {
    setIndex(0);
    setZoomIndex(2);
    setRotation(0);
  }, [reviewId]);

  const zoomIn = () => setZoomIndex((z) => Math.min(ZOOMS.length - 1, z + 1));
  const zoomOut = () => setZoomIndex((z) => Math.max(0, z - 1));
  const rotate = () => setRotation((r) => (r + 90) % 360);
  const pageKeys = Object.fromEntries(
    pages.slice(0, 9).map((_, i) => [String(i + 1), () => setIndex(i)]),
  );
  useShortcuts({
    '+': zoomIn,
    '=': zoomIn,
    '-': zoomOut,
    '0': () => setZoomIndex(2),
    r: rotate,
    R: rotate,
    ...pageKeys,
  });

  const handleDownload = async () => {
    try {
      saveBlob(await getAnswerZip(ids, kind, reviewId), `response_${code}.zip`);
    } catch {
      notify('msg_download_failed', 'error');
    }
  };

  return (
    <Paper
      component="section"
      aria-label={t('reviews.answer.title')}
      sx={{ p: { xs: 1, sm: 2 }, display: 'flex', flexDirection: 'column', gap: 1 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1, minWidth: 120 }}>
          {t('reviews.answer.title')}
        </Typography>
        {pages.length > 0 && (
          <>
            <Tooltip title={`${t('reviews.answer.zoomOut')} (−)`}>
              <span>
                <IconButton
                  aria-label={t('reviews.answer.zoomOut')}
                  onClick={zoomOut}
                  disabled={isPdf || zoomIndex === 0}
                >
                  <ZoomOut />
                </IconButton>
              </span>
            </Tooltip>
            <Typography
              variant="body2"
              sx={{ minWidth: 44, textAlign: 'center' }}
              aria-label={t('reviews.answer.zoomLevel')}
            >
              {Math.round(zoom * 100)}%
            </Typography>
            <Tooltip title={`${t('reviews.answer.zoomIn')} (+)`}>
              <span>
                <IconButton
                  aria-label={t('reviews.answer.zoomIn')}
                  onClick={zoomIn}
                  disabled={isPdf || zoomIndex === ZOOMS.length - 1}
                >
                  <ZoomIn />
                </IconButton>
              </span>
            </Tooltip>
            <Tooltip title={`${t('reviews.answer.fit')} (0)`}>
              <span>
                <IconButton
                  aria-label={t('reviews.answer.fit')}
                  onClick={() => setZoomIndex(2)}
                  disabled={isPdf}
                >
                  <ZoomOutMap />
                </IconButton>
              </span>
            </Tooltip>
            <Tooltip title={`${t('reviews.answer.rotate')} (r)`}>
              <span>
                <IconButton
                  aria-label={t('reviews.answer.rotate')}
                  onClick={rotate}
                  disabled={isPdf}
                >
                  <RotateRight />
                </IconButton>
              </span>
            </Tooltip>
            <Button size="small" startIcon={<Download />} onClick={() => void handleDownload()}>
              {t('reviews.answer.download')}
            </Button>
          </>
        )}
      </Box>
      {pages.length > 1 && (
        <ToggleButtonGroup
          size="small"
          exclusive
          value={index}
          onChange={(_, v: number | null) => v !== null && setIndex(v)}
          aria-label={t('reviews.answer.pages')}
          // Each page's button at least 32 px wide: a touch target (WCAG 2.5.8).
          sx={{ flexWrap: 'wrap', '& .MuiToggleButton-root': { minWidth: 32 } }}
        >
          {pages.map((p, i) => (
            <ToggleButton key={p._id} value={i} aria-label={t('reviews.answer.page', { n: i + 1 })}>
              {i + 1}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      )}
      {pages.length === 0 && text === null && !submitted && (
        <Alert severity="info">{t('reviews.answer.empty')}</Alert>
      )}
      {text !== null && (
        <Box
          sx={{
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            bgcolor: 'action.hover',
            p: 2,
            borderRadius: 1,
            fontSize: `${zoom}rem`,
          }}
          aria-label={t('reviews.answer.typed')}
        >
          {text}
        </Box>
      )}
      {submitted && (
        <Typography>
          <strong>{t('reviews.answer.submitted')}:</strong> {submitted}
        </Typography>
      )}
      {page && (
        // Focusable, so a page zoomed past the box scrolls with the arrow keys too.
        <Box
          tabIndex={0}
          role="region"
          aria-label={t('reviews.answer.pageAlt', { n: index + 1 })}
          sx={{
            '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: 2 },
            height: { xs: '60vh', md: 'calc(100vh - 260px)' },
            minHeight: 320,
            overflow: 'auto',
            bgcolor: 'grey.200',
            borderRadius: 1,
            // A page zoomed wider than the box scrolls from its left edge: centred with auto
            // margins (which never push it out of reach), not by the grid.
            display: url.data ? 'block' : 'grid',
            placeItems: 'center',
          }}
        >
          {url.isPending && <CircularProgress aria-label={t('list.loading')} />}
          {url.isError && <Alert severity="error">{t('msg_download_failed')}</Alert>}
          {url.data && isPdf && (
            <Box
              component="iframe"
              src={url.data}
              title={t('reviews.answer.pageAlt', { n: index + 1 })}
              sx={{ width: '100%', height: '100%', border: 0, display: 'block' }}
            />
          )}
          {url.data && !isPdf && (
            <RotatedImage
              src={url.data}
              alt={t('reviews.answer.pageAlt', { n: index + 1 })}
              zoom={zoom}
              rotation={rotation}
            />
          )}
        </Box>
      )}
    </Paper>
  );
}

/**
 * An image at `zoom` × the box's width, turned by `rotation` degrees; a quarter turn swaps
 * the space it takes, so the scroll area follows the turned page.
 */
function RotatedImage(props: { src: string; alt: string; zoom: number; rotation: number }) {
  const frame = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [ratio, setRatio] = useState(0.75);
  useEffect(() => {
    const parent = frame.current?.parentElement;
    if (!parent) return;
    const observer = new ResizeObserver(() => setWidth(parent.clientWidth - 16));
    observer.observe(parent);
    setWidth(parent.clientWidth - 16);
    return () => observer.disconnect();
  }, []);
  const sideways = props.rotation % 180 !== 0;
  const boxWidth = Math.max(0, width * props.zoom);
  // Upright: the image is as wide as the box; sideways: its height is.
  const imageWidth = sideways ? boxWidth * ratio : boxWidth;
  const imageHeight = sideways ? boxWidth : boxWidth / ratio;
  const boxHeight = sideways ? imageWidth : imageHeight;
  return (
    <Box
      ref={frame}
      sx={{ position: 'relative', width: boxWidth, height: boxHeight, my: 1, mx: 'auto' }}
    >
      <Box
        component="img"
        src={props.src}
        alt={props.alt}
        data-rotation={props.rotation}
        onLoad={(e) => {
          const img = e.currentTarget as HTMLImageElement;
          if (img.naturalWidth && img.naturalHeight) setRatio(img.naturalWidth / img.naturalHeight);
        }}
        sx={{
          position: 'absolute',
          left: '50%',
          top: '50%',
          width: imageWidth,
          height: imageHeight,
          maxWidth: 'none',
          transform: `translate(-50%, -50%) rotate(${props.rotation}deg)`,
          boxShadow: 2,
          bgcolor: 'common.white',
        }}
      />
    </Box>
  );
}
