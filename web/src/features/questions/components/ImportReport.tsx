import {
  Alert,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type {
  ImageImportReport,
  SheetImportReport,
} from '../../../../../shared/schemas/questions.js';

export type AnyImportReport =
  | { kind: 'sheet'; report: SheetImportReport }
  | { kind: 'images'; report: ImageImportReport };

/**
 * What an import did, row by row: how many questions were added and, for each refused row of
 * the spreadsheet (or refused image), the field and the reason.
 */
export function ImportReport({ result }: { result: AnyImportReport }) {
  const { t } = useTranslation();
  const { createdCount, refused } = result.report;
  const reason = (code: string) =>
    code === 'FILE_TYPE_NOT_ALLOWED'
      ? t('questions.import.notImage')
      : code === code.toUpperCase()
        ? t(`errors.${code}`, { defaultValue: t('errors.GENERAL_ERROR') })
        : t(`error_${code}`, { defaultValue: t('error_invalid') });
  const rows =
    result.kind === 'sheet'
      ? result.report.refused.map((r) => ({
          where: String(r.row),
          field: r.field ? t(`questions.fields.${r.field}`, { defaultValue: r.field }) : '',
          why: reason(r.code),
        }))
      : result.report.refused.map((r) => ({ where: r.file, field: '', why: reason(r.code) }));
  return (
    <Stack spacing={1.5} component="section" aria-label={t('questions.import.report')}>
      <Alert severity={createdCount > 0 ? 'success' : 'info'} role="status">
        {t('questions.import.created', { count: createdCount })}
      </Alert>
      {refused.length > 0 && (
        <>
          <Alert severity="warning">
            {result.kind === 'sheet'
              ? t('questions.import.refusedRows', {
                  count: new Set(result.report.refused.map((r) => r.row)).size,
                })
              : t('questions.import.refusedFiles', { count: refused.length })}
          </Alert>
          <TableContainer sx={{ maxHeight: 280 }}>
            <Table size="small" stickyHeader aria-label={t('questions.import.refusedTable')}>
              <TableHead>
                <TableRow>
                  <TableCell>
                    {result.kind === 'sheet'
                      ? t('questions.import.row')
                      : t('questions.import.file')}
                  </TableCell>
                  {result.kind === 'sheet' && <TableCell>{t('questions.import.field')}</TableCell>}
                  <TableCell>{t('questions.import.reason')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((r, i) => (
                  // Several problems of one row share its number: the position tells them apart.
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows of a fixed report
                  <TableRow key={i}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.where}</TableCell>
                    {result.kind === 'sheet' && <TableCell>{r.field}</TableCell>}
                    <TableCell>{r.why}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </>
      )}
    </Stack>
  );
}
