import { auditView, keysView, rotateKeysInPanel } from '../../shared/app/panel/keys';
import { isWrongCode, WRONG_CODE } from '../../shared/app/panel/sign-in';
import { CheckoutSigningConflictError, DomainError, ValidationError } from '../../shared/domain/errors';
import { changeRoleInPanel, invitePersonInPanel, type PanelTeamPorts, removePersonInPanel, revokeInviteInPanel, teamView } from '../../shared/app/panel/team';
import { teamPage } from '../../shared/pages/panel/team-pages';
import { field, pageAnswer, redirectTo } from '../../shared/http/panel/answers';
import { type SignedIn, signedInForm, signedInPage } from '../../shared/http/panel/signed-in';
import { routeGroupHandler } from '../../shared/http/route-group';
import { panelSettingsRoutes as routes } from '../../shared/http/route-table/panel-settings';
import { auditPage, keysPage, newKeysPage } from '../../shared/pages/panel/pages';
import { panelCheckoutChanges, panelCheckoutPorts, panelKeysPorts, panelTeamPorts } from '../../shared/wiring/panel-settings';
import { checkoutSettingsView, type PanelCheckoutPorts, setCheckoutSigningInPanel } from '../../shared/app/panel/checkout-settings';
import { checkoutPage } from '../../shared/pages/panel/checkout-pages';

/**
 * The merchant panel's settings (issue 27), one function: the API keys, the audit log, the team (the webhook has its own: ./webhooks.ts).
 * Not signed in: 303 to the sign-in page. Every change asks a fresh authenticator code (step-up).
 */

const rotateKeys = signedInForm(routes.panelRotateKeys, panelKeysPorts, async ({ ports, page, fields, ip, now }) => {
  try {
    return pageAnswer(200, newKeysPage(await rotateKeysInPanel(ports, { session: page.session, code: field(fields, 'code', 16), ip, now }), page.chrome));
  } catch (err) {
    if (isWrongCode(err)) return pageAnswer(401, keysPage({ ...(await keysView(ports, page.session)), message: WRONG_CODE }, page.chrome));
    throw err;
  }
});

/** The team page again, saying why a team form was refused (nothing changed); other errors are the panel's error pages. */
async function refusedTeamForm(ports: PanelTeamPorts, err: unknown, page: SignedIn, now: Date) {
  const view = await teamView(ports, page.session, now);
  if (isWrongCode(err)) return pageAnswer(401, teamPage(view, page.chrome, { message: WRONG_CODE }));
  if (err instanceof ValidationError) {
    // The operator's invite use case names its fields in English: the page says them in Portuguese.
    const errors = { ...err.fields, ...(err.fields.email ? { email: ['Informe um e-mail válido.'] } : {}) };
    return pageAnswer(422, teamPage(view, page.chrome, { errors }));
  }
  if (err instanceof DomainError && err.code === 'panel_email_taken')
    return pageAnswer(409, teamPage(view, page.chrome, { message: 'Este e-mail já entra no painel.' }));
  if (err instanceof DomainError && (err.kind === 'forbidden' || err.kind === 'conflict' || err.kind === 'not_found')) {
    return pageAnswer(err.kind === 'forbidden' ? 403 : err.kind === 'conflict' ? 409 : 404, teamPage(view, page.chrome, { message: err.message }));
  }
  throw err;
}

const invite = signedInForm(routes.panelInvitePerson, panelTeamPorts, async ({ ports, page, fields, ip, now }) => {
  try {
    const invited = await invitePersonInPanel(ports, {
      session: page.session,
      email: field(fields, 'email', 254),
      role: field(fields, 'role', 16),
      code: field(fields, 'code', 16),
      ip,
      now,
    });
    return pageAnswer(
      200,
      teamPage(await teamView(ports, page.session, now), page.chrome, {
        invited: { email: invited.email, role: invited.role, inviteUrl: invited.invite_url, expiresAt: invited.expires_at },
      }),
    );
  } catch (err) {
    return refusedTeamForm(ports, err, page, now);
  }
});

const changeRole = signedInForm(routes.panelChangeRole, panelTeamPorts, async ({ ports, page, fields, ip, now }) => {
  try {
    await changeRoleInPanel(ports, {
      session: page.session,
      personId: field(fields, 'person', 64),
      role: field(fields, 'role', 16),
      code: field(fields, 'code', 16),
      ip,
      now,
    });
    return redirectTo('/panel/equipe');
  } catch (err) {
    return refusedTeamForm(ports, err, page, now);
  }
});

/** A person removed, or (issue 43: `invite` in place of `person`, one route for both, the stack's resources being few) a pending invite revoked. */
const removePerson = signedInForm(routes.panelRemovePerson, panelTeamPorts, async ({ ports, page, fields, ip, now }) => {
  try {
    const code = field(fields, 'code', 16);
    if (fields.has('invite') && !fields.has('person'))
      await revokeInviteInPanel(ports, { session: page.session, invite: field(fields, 'invite', 64), code, ip, now });
    else await removePersonInPanel(ports, { session: page.session, personId: field(fields, 'person', 64), code, ip, now });
    return redirectTo('/panel/equipe');
  } catch (err) {
    return refusedTeamForm(ports, err, page, now);
  }
});

/** The checkout page again, saying why a form was refused (nothing changed); other errors are the panel's error pages. */
async function refusedCheckoutForm(ports: PanelCheckoutPorts, err: unknown, page: SignedIn) {
  const view = await checkoutSettingsView(ports, page.session);
  if (isWrongCode(err)) return pageAnswer(401, checkoutPage({ ...view, message: WRONG_CODE }, page.chrome));
  if (err instanceof CheckoutSigningConflictError) {
    return pageAnswer(409, checkoutPage({ ...view, message: 'As configurações do checkout mudaram enquanto o pedido corria: tente de novo.' }, page.chrome));
  }
  throw err;
}

/** A saved checkout setting (committed after this answer): the page with what was saved, and a new secret once. */
function savedCheckout(answer: { required: boolean; hasSecret: boolean; secret?: string }, page: SignedIn) {
  const notice = answer.secret
    ? 'Novo segredo de assinatura emitido. O anterior parou de valer na hora.'
    : `Salvo: formulários assinados ${answer.required ? 'exigidos' : 'opcionais'}.`;
  return pageAnswer(200, checkoutPage({ ...answer, mayManage: true, notice }, page.chrome));
}

const setCheckoutSigning = signedInForm(
  routes.panelSetCheckoutSigning,
  panelCheckoutPorts,
  async ({ ports, page, fields, ip, now }) => {
    const flag = field(fields, 'require', 8);
    if (flag !== 'on' && flag !== 'off') {
      return pageAnswer(422, checkoutPage({ ...(await checkoutSettingsView(ports, page.session)), errors: { require: ['Escolha sim ou não.'] } }, page.chrome));
    }
    try {
      const { answer, changes } = await setCheckoutSigningInPanel(ports, {
        session: page.session,
        require: flag === 'on',
        rotate: false,
        code: field(fields, 'code', 16),
        ip,
        now,
      });
      return { ...savedCheckout(answer, page), changes };
    } catch (err) {
      return refusedCheckoutForm(ports, err, page);
    }
  },
  panelCheckoutChanges,
);

const rotateCheckoutSecret = signedInForm(
  routes.panelRotateCheckoutSecret,
  panelCheckoutPorts,
  async ({ ports, page, fields, ip, now }) => {
    try {
      const { answer, changes } = await setCheckoutSigningInPanel(ports, { session: page.session, rotate: true, code: field(fields, 'code', 16), ip, now });
      return { ...savedCheckout(answer, page), changes };
    } catch (err) {
      return refusedCheckoutForm(ports, err, page);
    }
  },
  panelCheckoutChanges,
);

export const handler = routeGroupHandler([
  [
    routes.panelCheckoutPage,
    signedInPage(routes.panelCheckoutPage, panelCheckoutPorts, async (ports, page) =>
      checkoutPage(await checkoutSettingsView(ports, page.session), page.chrome),
    ),
  ],
  [routes.panelSetCheckoutSigning, setCheckoutSigning],
  [routes.panelRotateCheckoutSecret, rotateCheckoutSecret],
  [
    routes.panelTeam,
    signedInPage(routes.panelTeam, panelTeamPorts, async (ports, page, request) => teamPage(await teamView(ports, page.session, request.now), page.chrome)),
  ],
  [routes.panelInvitePerson, invite],
  [routes.panelChangeRole, changeRole],
  [routes.panelRemovePerson, removePerson],
  [routes.panelKeysPage, signedInPage(routes.panelKeysPage, panelKeysPorts, async (ports, page) => keysPage(await keysView(ports, page.session), page.chrome))],
  [routes.panelRotateKeys, rotateKeys],
  [
    routes.panelAuditLog,
    signedInPage(routes.panelAuditLog, panelKeysPorts, async (ports, page) => auditPage(await auditView(ports, page.session), page.chrome)),
  ],
]);
