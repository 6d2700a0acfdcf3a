import Download from '@mui/icons-material/Download';
import { Box, Button, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

type Props = {
  title: string;
  /** "12 elevi"; hidden until the count is known. */
  subtitle?: string;
  downloading: boolean;
  onDownload: () => void;
};

/** A people list's heading with its spreadsheet download button. */
export function ListHeader({ title, subtitle, downloading, onDownload }: Props) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
      <Box sx={{ flex: 1, minWidth: 200 }}>
        <Typography variant="h5" component="h1">
          {title}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ minHeight: 20 }}>
          {subtitle}
        </Typography>
      </Box>
      <Button
        variant="outlined"
        startIcon={<Download />}
        onClick={onDownload}
        disabled={downloading}
      >
        {downloading ? t('people.downloading') : t('people.download')}
      </Button>
    </Box>
  );
}
