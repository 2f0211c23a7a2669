import type { PanelRole } from '../../domain/panel/roles';

/** What the enrollment page shows (the secret as text too, for people who cannot scan). */
export type InviteAnswerView = {
  email: string;
  role: PanelRole;
  roleLabel: string;
  secret: string;
  otpauthUri: string;
  qrDataUri: string;
  sealedSecret: string;
};
