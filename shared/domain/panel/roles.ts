/**
 * Who may do what in the merchant panel (issue 27): one table of actions and the roles allowed each,
 * and the team rule that an account always keeps an owner. Pure: values in, values out.
 */

/** The roles a person holds in one account, from most to least powerful. */
export const PANEL_ROLES = ['owner', 'admin', 'developer', 'finance', 'viewer'] as const;
export type PanelRole = (typeof PANEL_ROLES)[number];

/** The roles' names as the panel shows them (pt-BR). */
export const ROLE_LABELS: Readonly<Record<PanelRole, string>> = {
  owner: 'Proprietário',
  admin: 'Administrador',
  developer: 'Desenvolvedor',
  finance: 'Financeiro',
  viewer: 'Leitura',
};

/**
 * Every panel action, and the roles that may take it. Reading pages is every role's; a person's own
 * password, authenticator and sessions are every person's own (not in this table).
 */
const ALLOWED = {
  /** Overview, invoices, withdrawals, statement, customers, payment methods, webhooks and settings pages. */
  read: ['owner', 'admin', 'developer', 'finance', 'viewer'],
  /** New API keys (the old ones stop at once). */
  'keys.rotate': ['owner', 'admin', 'developer'],
  /** The webhook URL, its secret, the test ping and a redelivery. */
  'webhooks.manage': ['owner', 'admin', 'developer'],
  /** The hosted checkout's signed forms and their secret. */
  'checkout.manage': ['owner', 'admin', 'developer'],
  /** A new Pix withdrawal. */
  'withdrawals.create': ['owner', 'admin', 'finance'],
  /** The statement's CSV export. */
  'statement.export': ['owner', 'admin', 'finance'],
  /** Invite, change a role, remove a person. */
  'team.manage': ['owner', 'admin'],
  /** The account's audit log. */
  'audit.read': ['owner', 'admin'],
} as const satisfies Record<string, readonly PanelRole[]>;

export type PanelAction = keyof typeof ALLOWED;

/** The actions that ask for a fresh authenticator code even in a live session (issue 27: step-up). */
export const STEP_UP_ACTIONS: ReadonlySet<PanelAction> = new Set<PanelAction>([
  'keys.rotate',
  'webhooks.manage',
  'checkout.manage',
  'withdrawals.create',
  'team.manage',
]);

export function mayAct(role: PanelRole, action: PanelAction): boolean {
  return (ALLOWED[action] as readonly PanelRole[]).includes(role);
}

export function isPanelRole(value: unknown): value is PanelRole {
  return typeof value === 'string' && (PANEL_ROLES as readonly string[]).includes(value);
}

/** A team member as the team rules see it. */
export type TeamMember = { personId: string; role: PanelRole };

/** A change to the team: a role given, or a person removed. */
export type TeamChange = { kind: 'role'; personId: string; role: PanelRole } | { kind: 'remove'; personId: string };

/**
 * Why `actor` may not make `change` to `team` (undefined: it may). An admin neither makes nor touches
 * an owner; nobody removes or demotes the last owner.
 */
export function teamChangeRefusal(team: readonly TeamMember[], actor: TeamMember, change: TeamChange): string | undefined {
  if (!mayAct(actor.role, 'team.manage')) return 'Seu papel não permite mudar a equipe.';
  const target = team.find((member) => member.personId === change.personId);
  if (!target) return 'Pessoa não encontrada.';
  if (actor.role !== 'owner' && (target.role === 'owner' || (change.kind === 'role' && change.role === 'owner'))) {
    return 'Só um proprietário pode mudar proprietários.';
  }
  const stillOwner = change.kind === 'role' && change.role === 'owner';
  if (target.role === 'owner' && !stillOwner && team.filter((member) => member.role === 'owner').length === 1) {
    return 'A conta precisa de pelo menos um proprietário.';
  }
  return undefined;
}

/** Whether `role` is at least as powerful as `than` (PANEL_ROLES runs from most to least powerful). */
export function roleAtLeast(role: PanelRole, than: PanelRole): boolean {
  return PANEL_ROLES.indexOf(role) <= PANEL_ROLES.indexOf(than);
}

/** Whether a role change takes power away (issue 43: the invites the person sent stop with it). */
export function roleLowered(from: PanelRole, to: PanelRole): boolean {
  return !roleAtLeast(to, from);
}

/** Who may invite whom: a manager of the team, and only an owner invites an owner. */
export function inviteRefusal(actor: TeamMember, role: PanelRole): string | undefined {
  if (!mayAct(actor.role, 'team.manage')) return 'Seu papel não permite convidar pessoas.';
  if (role === 'owner' && actor.role !== 'owner') return 'Só um proprietário pode convidar um proprietário.';
  return undefined;
}
