import Delete from '@mui/icons-material/Delete';
import PictureAsPdf from '@mui/icons-material/PictureAsPdf';
import Print from '@mui/icons-material/Print';
import Tune from '@mui/icons-material/Tune';
import Visibility from '@mui/icons-material/Visibility';
import {
  Chip,
  CircularProgress,
  IconButton,
  Link,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { Test } from '../../../../../shared/schemas/tests.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { gradesTitle } from '../../../lib/grades-title.js';
import { formatScore } from '../../../lib/scores.js';
import { formatWindow, subjectLabel } from '../format.js';
import { printViewPath, testStudentsPath } from '../paths.js';

type Props = {
  ids: PhaseIds;
  /** Undefined while loading. */
  rows: Test[] | undefined;
  emptyText: string;
  /**
   * Managers get the points and delete buttons; `canDelete` (also for points) is false in a
   * closed phase.
   */
  isManager: boolean;
  canDelete: boolean;
  /** The test whose PDF is being made (its button spins, the others wait). */
  downloadingId: string | undefined;
  onPreview: (test: Test) => void;
  onDownload: (test: Test) => void;
  onPoints: (test: Test) => void;
  onDelete: (test: Test) => void;
};

/**
 * The phase's tests, one row each: 'Clasa 5, 6' (linking to the test's students), name and
 * subject, window, duration and score, questions by difficulty, published state, actions.
 */
export function TestsTable(props: Props) {
  const { t, i18n } = useTranslation();
  const { ids, rows } = props;
  const headers = [
    t('tests.columns.test'),
    t('tests.columns.window'),
    t('tests.columns.durationScore'),
    t('tests.columns.questions'),
    t('tests.columns.state'),
    t('list.actions'),
  ];
  const message = (text: string) => (
    <TableRow>
      <TableCell colSpan={headers.length}>
        <Typography color="text.secondary" sx={{ py: 2, textAlign: 'center' }}>
          {text}
        </Typography>
      </TableCell>
    </TableRow>
  );
  return (
    <TableContainer>
      <Table size="small" aria-label={t('tests.listLabel')}>
        <TableHead>
          <TableRow>
            {headers.map((label) => (
              <TableCell key={label} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                {label}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows?.map((test) => {
            const title = gradesTitle(test.grades, t);
            const testIds = { ...ids, testId: test._id };
            const isDownloading = props.downloadingId === test._id;
            return (
              <TableRow key={test._id} hover>
                <TableCell sx={{ minWidth: 180 }}>
                  <Link
                    component={RouterLink}
                    to={testStudentsPath(testIds)}
                    sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}
                  >
                    {title}
                  </Link>
                  <Typography variant="body2">{test.name}</Typography>
                  <Typography variant="caption" color="text.secondary">
                    {subjectLabel(test.subject, t)}
                  </Typography>
                </TableCell>
                <TableCell sx={{ minWidth: 150 }}>
                  {formatWindow(test.startDate, test.endDate, i18n.language)}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  <Typography variant="body2">
                    {t('tests.minutes', { count: test.duration })}
                  </Typography>
                  <Typography variant="body2">
                    {t('tests.points', {
                      count: test.totalScore,
                      score: formatScore(test.totalScore, i18n.language),
                    })}
                  </Typography>
                </TableCell>
                <TableCell sx={{ minWidth: 120 }}>
                  <Typography variant="body2">
                    {t('tests.questions', { count: test.itemCount })}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {t('tests.counts', {
                      easy: test.easyCount,
                      medium: test.mediumCount,
                      hard: test.hardCount,
                    })}
                  </Typography>
                  {test.categoryCounts.length > 0 && (
                    <Typography
                      variant="caption"
                      color="text.secondary"
                      sx={{ display: 'block' }}
                      data-testid="category-counts"
                    >
                      {test.categoryCounts
                        .map(({ category, count }) =>
                          t('tests.categoryCount', {
                            category: category || t('tests.noCategory'),
                            count,
                          }),
                        )
                        .join(' · ')}
                    </Typography>
                  )}
                </TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    variant="outlined"
                    color={test.published ? 'success' : 'default'}
                    label={test.published ? t('tests.publishedState') : t('tests.draftState')}
                  />
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap', px: 1 }}>
                  <Tooltip title={t('tests.preview')}>
                    <IconButton
                      size="small"
                      aria-label={t('tests.previewOf', { title })}
                      onClick={() => props.onPreview(test)}
                    >
                      <Visibility fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('tests.downloadPdf')}>
                    <span>
                      <IconButton
                        size="small"
                        aria-label={t('tests.downloadOf', { title })}
                        disabled={props.downloadingId !== undefined}
                        onClick={() => props.onDownload(test)}
                      >
                        {isDownloading ? (
                          <CircularProgress size={18} aria-label={t('tests.downloading')} />
                        ) : (
                          <PictureAsPdf fontSize="small" />
                        )}
                      </IconButton>
                    </span>
                  </Tooltip>
                  <Tooltip title={t('tests.printView')}>
                    <IconButton
                      size="small"
                      aria-label={t('tests.printViewOf', { title })}
                      href={printViewPath(testIds)}
                      target="_blank"
                      rel="noopener"
                    >
                      <Print fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  {props.isManager && (
                    <Tooltip title={t('tests.pointsEditor.open')}>
                      <span>
                        <IconButton
                          size="small"
                          aria-label={t('tests.pointsEditor.openOf', { title })}
                          disabled={!props.canDelete}
                          onClick={() => props.onPoints(test)}
                        >
                          <Tune fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                  )}
                  {props.isManager && (
                    <Tooltip title={t('tests.delete')}>
                      <span>
                        <IconButton
                          size="small"
                          aria-label={t('tests.deleteOf', { title })}
                          disabled={!props.canDelete}
                          onClick={() => props.onDelete(test)}
                        >
                          <Delete fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
          {rows?.length === 0 && message(props.emptyText)}
          {rows === undefined && message(t('list.loading'))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
