import AccountCircle from '@mui/icons-material/AccountCircle';
import Assignment from '@mui/icons-material/Assignment';
import EmojiEvents from '@mui/icons-material/EmojiEvents';
import Group from '@mui/icons-material/Group';
import Help from '@mui/icons-material/Help';
import HowToReg from '@mui/icons-material/HowToReg';
import LockClock from '@mui/icons-material/LockClock';
import Mail from '@mui/icons-material/Mail';
import Person from '@mui/icons-material/Person';
import RateReview from '@mui/icons-material/RateReview';
import School from '@mui/icons-material/School';
import WorkspacePremium from '@mui/icons-material/WorkspacePremium';
import type { SvgIconProps } from '@mui/material';
import type { ComponentType } from 'react';

const ICONS: Record<string, ComponentType<SvgIconProps>> = {
  account_circle: AccountCircle,
  assignment: Assignment,
  emoji_events: EmojiEvents,
  group: Group,
  help: Help,
  how_to_reg: HowToReg,
  lock_clock: LockClock,
  mail: Mail,
  person: Person,
  rate_review: RateReview,
  school: School,
  workspace_premium: WorkspacePremium,
};

export function NavIcon({ name, ...props }: { name: string } & SvgIconProps) {
  const Icon = ICONS[name] ?? Help;
  return <Icon {...props} />;
}
