import Print from '@mui/icons-material/Print';
import { Alert, Box, Button, GlobalStyles, LinearProgress, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { TestItem, TestPaper } from '../../../../shared/schemas/tests.js';
import { ApiError } from '../../api/client.js';
import { Statement } from '../../components/statement/Statement.js';
import { useAuth } from '../../lib/auth.js';
import { gradesTitle } from '../../lib/grades-title.js';
import { formatScore } from '../../lib/scores.js';
import { useTestPaper } from './api/get-test-paper.js';
import { itemMarkdown, subjectLabel } from './format.js';

const letter = (index: number) => String.fromCharCode(65 + index);

/** Printing: white page, A4 margins, no shadows, an item never split over two pages. */
const printStyles = (
  <GlobalStyles
    styles={{
      '@page': { size: 'A4', margin: '16mm 15mm' },
      '@media print': {
        'html, body': { background: '#fff !important' },
        '#main': { padding: '0 !important' },
        '.paper-item': { breakInside: 'avoid' },
      },
    }}
  />
);

/**
 * /test-download/examen/{examId}/edition/{editionId}/phase/{phaseId}/test/{testId}: the test
 * paper to print from the browser (the same content as the PDF download). The route needs no
 * role; the data call decides who may see it.
 */
export function TestPaperPage() {
  const { t } = useTranslation();
  const { status } = useAuth();
  const { examId = '', editionId = '', phaseId = '', testId = '' } = useParams();
  const paper = useTestPaper({ examId, editionId, phaseId, testId }, status === 'user');

  if (status === 'guest') {
    return (
      <Alert
        severity="info"
        action={
          <Button component={Link} to="/" color="inherit" size="small">
            {t('tests.paper.signIn')}
          </Button>
        }
      >
        {t('tests.paper.signedOut')}
      </Alert>
    );
  }
  if (paper.error) {
    const code = paper.error instanceof ApiError ? paper.error.code : 'GENERAL_ERROR';
    const message =
      code === 'OPERATION_NOT_PERMITTED'
        ? t('msg_no_rights_download_test')
        : code === 'NOT_FOUND'
          ? t('tests.paper.notFound')
          : t('msg_preview_test_error');
    return (
      <Alert
        severity={code === 'NOT_FOUND' ? 'warning' : 'error'}
        sx={{ maxWidth: 800, mx: 'auto' }}
      >
        {message}
      </Alert>
    );
  }
  if (!paper.data) return <LinearProgress aria-label={t('list.loading')} />;
  return <PaperSheet test={paper.data} />;
}

function PaperSheet({ test }: { test: TestPaper }) {
  const { t, i18n } = useTranslation();
  const items = [...test.items].sort((a, b) => a.position - b.position);
  const points = (score: number) =>
    t('tests.points', { count: score, score: formatScore(score, i18n.language) });
  return (
    <Box
      component="article"
      aria-label={t('tests.paper.label')}
      sx={{
        maxWidth: 820,
        mx: 'auto',
        bgcolor: 'background.paper',
        color: 'text.primary',
        p: { xs: 2, sm: 5 },
        boxShadow: 1,
        borderRadius: 1,
        '@media print': {
          boxShadow: 'none',
          p: 0,
          maxWidth: 'none',
          color: '#000',
          bgcolor: '#fff',
        },
      }}
    >
      {printStyles}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 2, displayPrint: 'none' }}>
        <Button variant="contained" startIcon={<Print />} onClick={() => window.print()}>
          {t('tests.paper.print')}
        </Button>
      </Box>
      <Box component="header" sx={{ borderBottom: 2, pb: 1.5, mb: 2.5 }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
          {test.examName}
        </Typography>
        <Typography>{[test.editionName, test.phaseName, test.testName].join(' · ')}</Typography>
        <Box
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            columnGap: 3,
            rowGap: 0.5,
            mt: 1,
            fontWeight: 700,
          }}
        >
          <span>{gradesTitle(test.grades, t)}</span>
          <span>{subjectLabel(test.subject, t)}</span>
          <span>
            {t('tests.paper.duration')}: {t('tests.minutes', { count: test.duration })}
          </span>
          <span>
            {t('tests.paper.totalScore')}: {points(test.totalScore)}
          </span>
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 3, mt: 2 }}>
          {[t('tests.paper.studentName'), t('tests.paper.school'), t('tests.paper.code')].map(
            (label) => (
              <Box key={label} sx={{ flex: '1 1 180px', borderBottom: '1px dotted', pb: 2 }}>
                {label}:
              </Box>
            ),
          )}
        </Box>
      </Box>
      <Stack component="main" spacing={2.5}>
        {items.map((item, index) => (
          <PaperItem key={item._id} item={item} index={index} points={points(item.score)} />
        ))}
      </Stack>
      <Typography variant="body2" sx={{ mt: 3 }}>
        {t('tests.paper.footer', { duration: t('tests.minutes', { count: test.duration }) })}
      </Typography>
    </Box>
  );
}

function PaperItem({ item, index, points }: { item: TestItem; index: number; points: string }) {
  const { t } = useTranslation();
  const hasOptions = item.itemType === 'single' || item.itemType === 'multiple';
  return (
    <Box
      component="section"
      className="paper-item"
      aria-label={t('tests.itemTitle', { n: index + 1 })}
    >
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700 }}>
        {t('tests.itemTitle', { n: index + 1 })}{' '}
        <Typography component="span" sx={{ fontWeight: 400 }}>
          ({points})
        </Typography>
      </Typography>
      <Statement
        markdown={itemMarkdown(item)}
        sx={{ '& img.statement-image': { maxHeight: '110mm' } }}
      />
      <Typography variant="body2" sx={{ fontStyle: 'italic', my: 0.5 }}>
        {t(`tests.paper.hint.${item.itemType}`)}
      </Typography>
      {hasOptions && (
        <Box component="ol" sx={{ listStyle: 'none', pl: 3, my: 0.5 }}>
          {item.itemAnswers.map((answer, i) => (
            <Box
              component="li"
              // biome-ignore lint/suspicious/noArrayIndexKey: options are positional, the letter is their name
              key={i}
              sx={{ display: 'flex', alignItems: 'baseline', gap: 1, my: 0.5 }}
            >
              <Box
                component="span"
                aria-hidden
                sx={{
                  width: 12,
                  height: 12,
                  border: '1px solid',
                  flex: 'none',
                  alignSelf: 'center',
                }}
              />
              <b>{letter(i)}.</b>
              <Statement markdown={answer} inline sx={{ flex: 1, minWidth: 0 }} />
            </Box>
          ))}
        </Box>
      )}
      {item.itemType === 'numeric' && (
        <Typography sx={{ mt: 1 }}>
          {t('tests.paper.answer')}:{' '}
          <Box
            component="span"
            sx={{ display: 'inline-block', width: 220, borderBottom: '1px solid' }}
          />
        </Typography>
      )}
      {item.itemType === 'open' && (
        // A drawn box, named as a picture: a name on a plain div is lost to screen readers.
        <Box
          role="img"
          aria-label={t('tests.paper.answerSpace')}
          sx={{ border: '1px solid', borderColor: 'grey.500', minHeight: 200, mt: 1 }}
        />
      )}
    </Box>
  );
}
