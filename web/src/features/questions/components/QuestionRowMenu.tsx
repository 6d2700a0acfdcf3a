import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Gavel from '@mui/icons-material/Gavel';
import MoreVert from '@mui/icons-material/MoreVert';
import RateReview from '@mui/icons-material/RateReview';
import { IconButton, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

type Props = {
  /** Names the question in the button's accessible label. */
  name: string;
  mediatorTo: string;
  reviewersTo: string;
  /** Absent when the user may not delete. */
  onDelete?: () => void;
};

/** The less frequent actions of a question row: its the question's teachers' pages and deleting it. */
export function QuestionRowMenu({ name, mediatorTo, reviewersTo, onDelete }: Props) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  return (
    <>
      <IconButton
        size="small"
        aria-label={t('questions.actions.more', { name })}
        aria-haspopup="menu"
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <MoreVert fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={close}>
        <MenuItem component={Link} to={mediatorTo} onClick={close}>
          <ListItemIcon>
            <Gavel fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('questions.questionTeachers.mediatorPage')}</ListItemText>
        </MenuItem>
        <MenuItem component={Link} to={reviewersTo} onClick={close}>
          <ListItemIcon>
            <RateReview fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('questions.questionTeachers.reviewersPage')}</ListItemText>
        </MenuItem>
        {onDelete && (
          <MenuItem
            onClick={() => {
              close();
              onDelete();
            }}
            sx={{ color: 'error.main' }}
          >
            <ListItemIcon sx={{ color: 'inherit' }}>
              <DeleteOutline fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t('questions.actions.delete')}</ListItemText>
          </MenuItem>
        )}
      </Menu>
    </>
  );
}
