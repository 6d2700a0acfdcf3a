import ExpandMore from '@mui/icons-material/ExpandMore';
import NetworkCheck from '@mui/icons-material/NetworkCheck';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Alert,
  AlertTitle,
  Box,
  Button,
  Paper,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuth } from '../../lib/auth.js';

const STUDENT = ['s1', 's2', 's3', 's4', 's5', 's6', 's7'];
const TEACHER = ['t1', 't2', 't3', 't9', 't10', 't11', 't12', 't13', 't4', 't5', 't6', 't7', 't8'];

function Faq({ title, ids }: { title: string; ids: string[] }) {
  const { t } = useTranslation();
  return (
    <Box component="section" sx={{ mb: 3 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {ids.map((id) => (
        <Accordion key={id} disableGutters>
          <AccordionSummary expandIcon={<ExpandMore />}>
            <Typography sx={{ fontWeight: 500 }}>{t(`help.${id}q`)}</Typography>
          </AccordionSummary>
          <AccordionDetails>
            <Typography color="text.secondary">{t(`help.${id}a`)}</Typography>
          </AccordionDetails>
        </Accordion>
      ))}
    </Box>
  );
}

/** /ajutor: student and teacher FAQs; a signed-in user sees their own first. */
export function HelpPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const sections = [
    { key: 'students', ids: STUDENT },
    { key: 'teachers', ids: TEACHER },
  ];
  if (user && user.type !== 'student') sections.reverse();
  return (
    <Paper sx={{ p: { xs: 2, sm: 4 } }}>
      <Typography variant="h4" component="h1" sx={{ mb: 3 }}>
        {t('help.title')}
      </Typography>
      <Alert severity="info" icon={<NetworkCheck />} sx={{ mb: 3 }}>
        <AlertTitle>{t('help.connectionCheck.title')}</AlertTitle>
        {t('help.connectionCheck.text')}
        <Box sx={{ mt: 1 }}>
          <Button component={Link} to="/verificare-conexiune" variant="outlined" size="small">
            {t('help.connectionCheck.link')}
          </Button>
        </Box>
      </Alert>
      {sections.map((s) => (
        <Faq key={s.key} title={t(`help.${s.key}`)} ids={s.ids} />
      ))}
      <Typography color="text.secondary">{t('help.contact')}</Typography>
    </Paper>
  );
}
