import Check from '@mui/icons-material/Check';
import DoNotDisturb from '@mui/icons-material/DoNotDisturb';
import {
  Alert,
  Box,
  Button,
  Chip,
  Paper,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { normalizePaperCode, type ScanPage } from '../../../../../../shared/schemas/paper.js';
import { ApiError } from '../../../../api/client.js';
import type { TestIds } from '../../../../components/answer-files/paths.js';
import { useSnackbar } from '../../../../lib/snackbar.js';
import { matchPage, pageImageBlob, paperKey, setPageAside } from '../../api/paper.js';

type Errors = { code?: string; item?: string; page?: string; form?: string };

/**
 * The pages nobody could read by themselves (a torn or smudged code, a spare page), one at a
 * time beside a short form: type the student's code (the dash and case do not matter), the
 * question's number, Enter. The booklet page is optional (the first not stored yet). A page
 * nobody will match (a blank spare page) is set aside. The next page comes up at once.
 */
export function MatchingPanel({
  ids,
  waiting,
  itemCount,
}: {
  ids: TestIds;
  waiting: readonly ScanPage[];
  itemCount: number;
}) {
  const { t, i18n } = useTranslation();
  const { notify } = useSnackbar();
  const queryClient = useQueryClient();
  const [currentId, setCurrentId] = useState<string | undefined>(waiting[0]?._id);
  const page = waiting.find((p) => p._id === currentId) ?? waiting[0];
  const [code, setCode] = useState('');
  const [item, setItem] = useState('');
  const [bookletPage, setBookletPage] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [image, setImage] = useState<string | undefined>();
  const codeInput = useRef<HTMLInputElement>(null);
  const itemInput = useRef<HTMLInputElement>(null);

  const pageId = page?._id;
  useEffect(() => {
    if (!pageId) return;
    let url: string | undefined;
    let live = true;
    setImage(undefined);
    pageImageBlob(ids, pageId)
      .then((blob) => {
        if (!live) return;
        url = URL.createObjectURL(blob);
        setImage(url);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [ids, pageId]);

  if (!page) {
    return (
      <Paper sx={{ p: 2 }} component="section" aria-labelledby="paper-matching">
        <Typography variant="h6" component="h2" id="paper-matching">
          {t('uploads.paper.match.title')}
        </Typography>
        <Typography color="text.secondary">{t('uploads.paper.match.none')}</Typography>
      </Paper>
    );
  }

  const position = waiting.indexOf(page) + 1;
  const next = () => {
    const after = waiting[position] ?? waiting[position - 2];
    setCurrentId(after?._id);
    setCode('');
    setItem('');
    setBookletPage('');
    setErrors({});
    codeInput.current?.focus();
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: paperKey(ids.testId) });

  const failed = (e: unknown) => {
    if (e instanceof ApiError) {
      const fields = e.fieldErrors;
      if (fields.code) return setErrors({ code: t('uploads.paper.match.codeUnknown') });
      if (fields.itemIndex) return setErrors({ item: t('uploads.paper.match.itemUnknown') });
      if (e.code === 'SCAN_PAGE_TAKEN') return setErrors({ page: t('errors.SCAN_PAGE_TAKEN') });
      if (e.code === 'SCAN_PAGE_NOT_WAITING') {
        void refresh();
        next();
        return notify('errors.SCAN_PAGE_NOT_WAITING', 'info');
      }
      if (i18n.exists(`errors.${e.code}`)) return setErrors({ form: t(`errors.${e.code}`) });
    }
    setErrors({ form: t('errors.GENERAL_ERROR') });
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found: Errors = {};
    const normal = normalizePaperCode(code);
    if (!/^[A-Z0-9]{3}-[A-Z0-9]{3}$/.test(normal)) found.code = t('uploads.paper.match.codeShape');
    const index = Number(item);
    if (!Number.isInteger(index) || index < 1 || index > itemCount) {
      found.item = t('uploads.paper.match.itemRange', { count: itemCount });
    }
    const pageNo = bookletPage.trim() === '' ? undefined : Number(bookletPage);
    if (pageNo !== undefined && (!Number.isInteger(pageNo) || pageNo < 1)) {
      found.page = t('error_invalid');
    }
    if (Object.keys(found).length > 0) {
      setErrors(found);
      (found.code ? codeInput : itemInput).current?.focus();
      return;
    }
    setBusy(true);
    try {
      const stored = await matchPage(ids, page._id, {
        code: normal,
        itemIndex: index,
        ...(pageNo === undefined ? {} : { bookletPage: pageNo }),
      });
      notify('uploads.paper.match.stored', 'success', {
        code: stored.code,
        item: stored.itemIndex,
        page: stored.bookletPage,
      });
      next();
      await refresh();
    } catch (err) {
      failed(err);
    } finally {
      setBusy(false);
    }
  };

  const setAside = async () => {
    setBusy(true);
    try {
      await setPageAside(ids, page._id);
      notify('uploads.paper.match.setAsideDone', 'info');
      next();
      await refresh();
    } catch (err) {
      failed(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper sx={{ p: 2 }} component="section" aria-labelledby="paper-matching">
      <Stack spacing={1.5}>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="h6" component="h2" id="paper-matching">
            {t('uploads.paper.match.title')}
          </Typography>
          <Chip
            size="small"
            color="warning"
            label={t('uploads.paper.match.count', { count: waiting.length })}
          />
        </Box>
        <Typography color="text.secondary">{t('uploads.paper.match.hint')}</Typography>
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 3fr) minmax(260px, 2fr)' },
            alignItems: 'start',
          }}
        >
          <Box
            sx={{
              border: 1,
              borderColor: 'divider',
              borderRadius: 1,
              bgcolor: 'grey.100',
              minHeight: 320,
              display: 'flex',
              justifyContent: 'center',
            }}
          >
            {image ? (
              <Box
                component="img"
                src={image}
                alt={t('uploads.paper.match.imageAlt', { page: page.pageNo })}
                sx={{ maxWidth: '100%', maxHeight: '70vh', objectFit: 'contain' }}
              />
            ) : (
              <Typography sx={{ alignSelf: 'center' }} color="text.secondary">
                {t('list.loading')}
              </Typography>
            )}
          </Box>
          <Box component="form" onSubmit={submit} noValidate aria-labelledby="paper-matching">
            <Stack spacing={2}>
              <Typography variant="subtitle1" component="h3">
                {t('uploads.paper.match.pageOf', {
                  position,
                  count: waiting.length,
                  page: page.pageNo,
                })}
              </Typography>
              <TextField
                inputRef={codeInput}
                autoFocus
                label={t('uploads.paper.match.code')}
                placeholder="K7P-2QX"
                value={code}
                onChange={(e) => {
                  const value = e.target.value;
                  setCode(value);
                  // Six characters typed: the code is whole, the question comes next.
                  if (
                    value.replace(/[^A-Za-z0-9]/g, '').length === 6 &&
                    code.length < value.length
                  ) {
                    itemInput.current?.focus();
                  }
                }}
                error={errors.code !== undefined}
                helperText={errors.code ?? t('uploads.paper.match.codeHint')}
                slotProps={{
                  htmlInput: {
                    autoComplete: 'off',
                    spellCheck: false,
                    style: { fontFamily: 'monospace', textTransform: 'uppercase' },
                  },
                }}
              />
              <TextField
                inputRef={itemInput}
                label={t('uploads.paper.match.item')}
                value={item}
                onChange={(e) => setItem(e.target.value.replace(/\D/g, ''))}
                error={errors.item !== undefined}
                helperText={errors.item ?? t('uploads.paper.match.itemRange', { count: itemCount })}
                slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
              />
              <ToggleButtonGroup
                exclusive
                size="small"
                value={item}
                onChange={(_, v: string | null) => v && setItem(v)}
                aria-label={t('uploads.paper.match.item')}
                sx={{ flexWrap: 'wrap', '& .MuiToggleButton-root': { minWidth: 40 } }}
              >
                {Array.from({ length: itemCount }, (_, i) => String(i + 1)).map((n) => (
                  <ToggleButton key={n} value={n} tabIndex={-1}>
                    {n}
                  </ToggleButton>
                ))}
              </ToggleButtonGroup>
              <TextField
                size="small"
                label={t('uploads.paper.match.bookletPage')}
                value={bookletPage}
                onChange={(e) => setBookletPage(e.target.value.replace(/\D/g, ''))}
                error={errors.page !== undefined}
                helperText={errors.page ?? t('uploads.paper.match.bookletPageHint')}
                slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
              />
              {errors.form && <Alert severity="error">{errors.form}</Alert>}
              <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
                <Button type="submit" variant="contained" startIcon={<Check />} disabled={busy}>
                  {t('uploads.paper.match.save')}
                </Button>
                <Button
                  variant="outlined"
                  color="inherit"
                  startIcon={<DoNotDisturb />}
                  onClick={setAside}
                  disabled={busy}
                >
                  {t('uploads.paper.match.setAside')}
                </Button>
              </Box>
            </Stack>
          </Box>
        </Box>
      </Stack>
    </Paper>
  );
}
