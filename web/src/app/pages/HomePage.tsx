import {
  Alert,
  Box,
  Card,
  CardActionArea,
  CardContent,
  Grid,
  Paper,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router';
import { useHome } from '../../api/home.js';
import { useMarkerWork } from '../../api/marker-work.js';
import { useAuth } from '../../lib/auth.js';
import { NavIcon } from '../layout/icons.js';
import { flatPages, hidesExams, NAVIGATION, visibleNavigation } from '../navigation.js';
import { OrganiserHome, StudentHome, TeacherHome } from './home-sections.js';

/**
 * `/` once signed in: registration first, then the inactive notice, then what to do next (the
 * home-service's sections for the person's parts), then the pages of the menu.
 */
export function HomePage() {
  const { t } = useTranslation();
  const { user, thankYou } = useAuth();
  const role = user?.state === 'active' ? user.type : undefined;
  const work = useMarkerWork(role === 'admin' || (role === 'teacher' && user?.registered === true));
  const ready = role === 'admin' || (role !== undefined && user?.registered === true);
  const home = useHome(ready);

  if (!user) return null;
  if (!user.registered && user.type !== 'admin') {
    return (
      <Navigate
        to={user.type === 'student' ? '/inregistrare/elev' : '/inregistrare/profesor'}
        replace
      />
    );
  }

  const name = user.givenName ?? user.email;
  const pages = flatPages(
    visibleNavigation(role, NAVIGATION, {
      marks: work.marks,
      noExams: hidesExams(role, ready && !home.isError, home.data?.menu.exams),
    }),
  );
  const next = home.data;

  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      {thankYou && (
        <Alert severity="success" role="status">
          {t('register.thankYou')}
        </Alert>
      )}
      <Paper sx={{ p: 3 }}>
        <Typography variant="h4" component="h1">
          {t('layout.welcomeUser', { name })}
        </Typography>
        <Typography color="text.secondary">
          {t(user.type === 'student' ? 'home.student.hint' : 'home.hint')}
        </Typography>
      </Paper>
      {home.isError && <Alert severity="error">{t('list.loadError')}</Alert>}
      {next?.organiser && <OrganiserHome part={next.organiser} />}
      {next?.teacher && (
        <TeacherHome part={next.teacher} showEmpty={!next.organiser && !work.marks} />
      )}
      {next?.student && <StudentHome part={next.student} />}
      <Typography variant="h6" component="h2">
        {t('home.pages')}
      </Typography>
      {user.state !== 'active' && (
        <Alert severity="warning" variant="outlined" data-testid="inactive-notice">
          <Typography sx={{ fontWeight: 600 }}>{t('layout.inactiveTitle')}</Typography>
          {t(user.type === 'student' ? 'layout.inactiveStudent' : 'layout.inactiveTeacher')}
        </Alert>
      )}
      <Grid container spacing={2}>
        {pages.map((page) => (
          <Grid key={page.id} size={{ xs: 12, sm: 6, md: 4 }}>
            <Card variant="outlined">
              <CardActionArea component={Link} to={page.path ?? '/'}>
                <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
                  <NavIcon name={page.icon} color="primary" />
                  <Box>
                    <Typography sx={{ fontWeight: 500 }}>{t(page.titleKey)}</Typography>
                    {page.id === 'to-mark' && work.waiting > 0 && (
                      <Typography variant="body2" color="text.secondary">
                        {t('reviews.home.waiting', { count: work.waiting })}
                      </Typography>
                    )}
                  </Box>
                </CardContent>
              </CardActionArea>
            </Card>
          </Grid>
        ))}
      </Grid>
    </Box>
  );
}
