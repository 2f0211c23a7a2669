import { acceptInvite, enrollmentPage } from '../../shared/app/panel/enroll';
import {
  isWrongCode,
  SIGN_IN_AGAIN,
  signedInSession,
  signInWithCode,
  signInWithPassword,
  signOut,
  WRONG_CODE,
  WRONG_CREDENTIALS,
  WRONG_CURRENT_PASSWORD,
} from '../../shared/app/panel/sign-in';
import { changePassword, confirmNewAuthenticator, securityView, signOutEverywhere, startNewAuthenticator } from '../../shared/app/panel/security';
import { signedInForm, signedInPage } from '../../shared/http/panel/signed-in';
import { newAuthenticatorPage, securityPage } from '../../shared/pages/panel/security-pages';
import { sessionLive } from '../../shared/domain/panel/session';
import { UnauthorizedError, ValidationError } from '../../shared/domain/errors';
import { field, passwordField, pageAnswer, panelErrorAnswerPage, panelForm, preSession, redirectTo, userAgentOf } from '../../shared/http/panel/answers';
import { clearedSessionCookie, csrfTokenFor, panelCookie, SESSION_COOKIE, sessionCookie } from '../../shared/http/panel/cookies';
import { httpHandler } from '../../shared/http/pipeline';
import { routeGroupHandler } from '../../shared/http/route-group';
import { panelAccessRoutes as routes } from '../../shared/http/route-table/panel-access';
import { codePage, enrollPage, signInPage } from '../../shared/pages/panel/pages';
import { panelAccessPorts } from '../../shared/wiring/panel-access';
import { panelEnrollPorts } from '../../shared/wiring/panel-enroll';
import { panelPasswordPorts } from '../../shared/wiring/panel-password';

/**
 * The merchant panel's door (issue 27), one function for its routes: sign-in (password, then the
 * authenticator code), an invite's enrollment, sign-out, and the person's own security page (sessions,
 * sign out everywhere, a new password). Every form carries a CSRF token bound to a
 * cookie (the pre-session one before sign-in, the session's after); a wrong token changes nothing (403).
 */
const options = { errorPage: panelErrorAnswerPage };

const ENROLLED = 'Acesso criado. Entre com seu e-mail e sua senha.';

const signInPageHandler = httpHandler(
  routes.panelSignInPage,
  async ({ event, runtime, now }) => {
    const ports = await panelAccessPorts(runtime);
    if (await signedInSession(ports, panelCookie(event.cookies, SESSION_COOKIE), now, { touch: false })) return redirectTo('/panel');
    const pre = preSession(event);
    const { panel } = await runtime.serviceKeys();
    const notice = new URLSearchParams(event.rawQueryString ?? '').get('pronto') === '1' ? ENROLLED : undefined;
    return pageAnswer(200, signInPage({ csrfToken: csrfTokenFor(panel, pre.value), notice }), pre.setCookie);
  },
  options,
);

const signInHandler = httpHandler(
  routes.panelSignIn,
  async ({ event, clientIp, runtime, now }) => {
    const { panel } = await runtime.serviceKeys();
    const pre = preSession(event);
    const fields = panelForm(event, panel, pre.setCookie.length === 0 ? pre.value : undefined);
    const email = field(fields, 'email', 254);
    const ports = await panelAccessPorts(runtime);
    try {
      const { sessionId } = await signInWithPassword(ports, {
        email,
        password: passwordField(fields, 'password'),
        ip: clientIp,
        userAgent: userAgentOf(event),
        now,
      });
      return redirectTo('/panel/entrar/codigo', [sessionCookie(sessionId)]);
    } catch (err) {
      if (err instanceof UnauthorizedError)
        return pageAnswer(401, signInPage({ csrfToken: csrfTokenFor(panel, pre.value), email, message: WRONG_CREDENTIALS }));
      throw err;
    }
  },
  options,
);

/** The code stage's session of the request: its cookie's value when that session awaits its code. */
async function pendingSignIn(ports: Awaited<ReturnType<typeof panelAccessPorts>>, cookie: string | undefined, now: Date): Promise<string | undefined> {
  if (cookie === undefined) return undefined;
  const session = await ports.sessions.get(ports.tokens.hash(cookie));
  return sessionLive(session, now) && session.stage === 'code' ? cookie : undefined;
}

const codePageHandler = httpHandler(
  routes.panelCodePage,
  async ({ event, runtime, now }) => {
    const ports = await panelAccessPorts(runtime);
    const cookie = await pendingSignIn(ports, panelCookie(event.cookies, SESSION_COOKIE), now);
    if (cookie === undefined) return redirectTo('/panel/entrar');
    const { panel } = await runtime.serviceKeys();
    return pageAnswer(200, codePage({ csrfToken: csrfTokenFor(panel, cookie) }));
  },
  options,
);

const codeHandler = httpHandler(
  routes.panelCode,
  async ({ event, clientIp, runtime, now }) => {
    const { panel } = await runtime.serviceKeys();
    const cookie = panelCookie(event.cookies, SESSION_COOKIE);
    const fields = panelForm(event, panel, cookie);
    const ports = await panelAccessPorts(runtime);
    try {
      const { sessionId } = await signInWithCode(ports, {
        sessionId: cookie,
        code: field(fields, 'code', 16),
        ip: clientIp,
        userAgent: userAgentOf(event),
        now,
      });
      return redirectTo('/panel', [sessionCookie(sessionId)]);
    } catch (err) {
      if (isWrongCode(err) && cookie !== undefined) {
        return pageAnswer(401, codePage({ csrfToken: csrfTokenFor(panel, cookie), message: WRONG_CODE }));
      }
      if (err instanceof UnauthorizedError) {
        const pre = preSession(event);
        return pageAnswer(401, signInPage({ csrfToken: csrfTokenFor(panel, pre.value), message: SIGN_IN_AGAIN }), [...pre.setCookie, clearedSessionCookie()]);
      }
      throw err;
    }
  },
  options,
);

const invitePageHandler = httpHandler(
  routes.panelInvitePage,
  async ({ event, runtime, now, params }) => {
    const ports = await panelEnrollPorts(runtime);
    const view = await enrollmentPage(ports, { token: params.token, now });
    const pre = preSession(event);
    const { panel } = await runtime.serviceKeys();
    return pageAnswer(200, enrollPage(view, { csrfToken: csrfTokenFor(panel, pre.value), action: `/panel/convite/${params.token}` }), pre.setCookie);
  },
  options,
);

const acceptInviteHandler = httpHandler(
  routes.panelAcceptInvite,
  async ({ event, clientIp, runtime, now, params }) => {
    const { panel } = await runtime.serviceKeys();
    const pre = preSession(event);
    const fields = panelForm(event, panel, pre.setCookie.length === 0 ? pre.value : undefined);
    const ports = await panelEnrollPorts(runtime);
    const sealedSecret = field(fields, 'enrollment', 512);
    try {
      await acceptInvite(ports, {
        token: params.token,
        password: passwordField(fields, 'password'),
        confirmation: passwordField(fields, 'confirmation'),
        code: field(fields, 'code', 16),
        sealedSecret,
        ip: clientIp,
        now,
      });
      return redirectTo('/panel/entrar?pronto=1');
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      // The page again with the same authenticator secret (the person may have scanned it already).
      const view = await enrollmentPage(ports, { token: params.token, now, sealedSecret });
      return pageAnswer(422, enrollPage(view, { csrfToken: csrfTokenFor(panel, pre.value), action: `/panel/convite/${params.token}`, errors: err.fields }));
    }
  },
  options,
);

const signOutHandler = httpHandler(
  routes.panelSignOut,
  async ({ event, clientIp, runtime, now }) => {
    const { panel } = await runtime.serviceKeys();
    const cookie = panelCookie(event.cookies, SESSION_COOKIE);
    panelForm(event, panel, cookie);
    await signOut(await panelAccessPorts(runtime), { sessionId: cookie, ip: clientIp, now });
    return redirectTo('/panel/entrar', [clearedSessionCookie()]);
  },
  options,
);

const securityPageHandler = signedInPage(routes.panelSecurity, panelAccessPorts, async (ports, page) =>
  securityPage(await securityView(ports, page.session), page.chrome),
);

/** Every session ended (this one too): the cookie cleared, to the sign-in page. */
const signedOutEverywhere = () => redirectTo('/panel/entrar', [clearedSessionCookie()]);

const changePasswordHandler = signedInForm(routes.panelChangePassword, panelPasswordPorts, async ({ ports, page, fields, ip, now }) => {
  try {
    await changePassword(ports, {
      session: page.session,
      current: passwordField(fields, 'current'),
      password: passwordField(fields, 'password'),
      confirmation: passwordField(fields, 'confirmation'),
      ip,
      now,
    });
    return signedOutEverywhere();
  } catch (err) {
    const again = async (status: number, form: Parameters<typeof securityPage>[2]) =>
      pageAnswer(status, securityPage(await securityView(ports, page.session), page.chrome, form));
    if (err instanceof ValidationError) return again(422, { errors: err.fields });
    if (err instanceof UnauthorizedError && err.message === WRONG_CURRENT_PASSWORD) return again(401, { errors: { current: [WRONG_CURRENT_PASSWORD] } });
    throw err;
  }
});

const signOutEverywhereHandler = signedInForm(routes.panelSignOutEverywhere, panelAccessPorts, async ({ ports, page, ip, now }) => {
  await signOutEverywhere(ports, { session: page.session, ip, now });
  return signedOutEverywhere();
});

const startNewAuthenticatorHandler = signedInForm(routes.panelStartNewAuthenticator, panelEnrollPorts, async ({ ports, page, fields, ip, now }) => {
  try {
    return pageAnswer(
      200,
      newAuthenticatorPage(await startNewAuthenticator(ports, { session: page.session, code: field(fields, 'code', 16), ip, now }), page.chrome),
    );
  } catch (err) {
    if (isWrongCode(err)) {
      return pageAnswer(401, securityPage(await securityView(ports, page.session), page.chrome, { message: WRONG_CODE }));
    }
    throw err;
  }
});

const AUTHENTICATOR_REPLACED = 'Autenticador trocado: use o aplicativo novo a partir de agora.';

const confirmNewAuthenticatorHandler = signedInForm(routes.panelConfirmNewAuthenticator, panelAccessPorts, async ({ ports, page, fields, ip, now }) => {
  try {
    await confirmNewAuthenticator(ports, { session: page.session, sealedSecret: field(fields, 'enrollment', 512), code: field(fields, 'code', 16), ip, now });
    return pageAnswer(200, securityPage(await securityView(ports, page.session), page.chrome, { notice: AUTHENTICATOR_REPLACED }));
  } catch (err) {
    if (err instanceof ValidationError) return pageAnswer(422, securityPage(await securityView(ports, page.session), page.chrome, { errors: err.fields }));
    throw err;
  }
});

export const handler = routeGroupHandler([
  [routes.panelStartNewAuthenticator, startNewAuthenticatorHandler],
  [routes.panelConfirmNewAuthenticator, confirmNewAuthenticatorHandler],
  [routes.panelSecurity, securityPageHandler],
  [routes.panelChangePassword, changePasswordHandler],
  [routes.panelSignOutEverywhere, signOutEverywhereHandler],
  [routes.panelSignInPage, signInPageHandler],
  [routes.panelSignIn, signInHandler],
  [routes.panelCodePage, codePageHandler],
  [routes.panelCode, codeHandler],
  [routes.panelInvitePage, invitePageHandler],
  [routes.panelAcceptInvite, acceptInviteHandler],
  [routes.panelSignOut, signOutHandler],
]);
