import { requestPasswordReset, resetPage, resetPassword, RESET_LINK_GONE } from '../../shared/app/panel/password-reset';
import { isWrongCode, WRONG_CODE } from '../../shared/app/panel/sign-in';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/domain/errors';
import { field, passwordField, pageAnswer, panelErrorAnswerPage, panelForm, preSession } from '../../shared/http/panel/answers';
import { csrfTokenFor } from '../../shared/http/panel/cookies';
import { httpHandler } from '../../shared/http/pipeline';
import { routeGroupHandler } from '../../shared/http/route-group';
import { panelRecoveryRoutes as routes } from '../../shared/http/route-table/panel-recovery';
import { forgotPage, recoveryMessagePage, RESET_ASKED, resetPasswordPage } from '../../shared/pages/panel/recovery-pages';
import { panelRecoveryPorts } from '../../shared/wiring/panel-recovery';

/**
 * The merchant panel's password recovery (issue 27), one function: "Esqueci a senha" mails a reset link
 * (the same answer for any e-mail), and the link's page takes a new password with a code of the
 * authenticator. Forms carry a CSRF token bound to the pre-session cookie, as the sign-in's do.
 */
const options = { errorPage: panelErrorAnswerPage };

const SIGN_IN = { href: '/panel/entrar', text: 'Entrar no painel' };
const ASK_AGAIN = { href: '/panel/senha/esqueci', text: 'Pedir outro link' };

const forgotPageHandler = httpHandler(
  routes.panelForgotPage,
  async ({ event, runtime }) => {
    const pre = preSession(event);
    const { panel } = await runtime.serviceKeys();
    return pageAnswer(200, forgotPage({ csrfToken: csrfTokenFor(panel, pre.value) }), pre.setCookie);
  },
  options,
);

const forgotHandler = httpHandler(
  routes.panelForgotPassword,
  async ({ event, clientIp, runtime, now }) => {
    const { panel } = await runtime.serviceKeys();
    const pre = preSession(event);
    const fields = panelForm(event, panel, pre.setCookie.length === 0 ? pre.value : undefined);
    // The answer never says whether the e-mail signs in, nor whether a link went (the per-e-mail limit).
    await requestPasswordReset(await panelRecoveryPorts(runtime), { email: field(fields, 'email', 254), requestedBy: 'self', ip: clientIp, now });
    return pageAnswer(200, forgotPage({ csrfToken: csrfTokenFor(panel, pre.value), notice: RESET_ASKED }), pre.setCookie);
  },
  options,
);

const resetPageHandler = httpHandler(
  routes.panelResetPage,
  async ({ event, runtime, now, params }) => {
    const ports = await panelRecoveryPorts(runtime);
    try {
      const { email } = await resetPage(ports, { token: params.token, now });
      const pre = preSession(event);
      const { panel } = await runtime.serviceKeys();
      return pageAnswer(
        200,
        resetPasswordPage({ csrfToken: csrfTokenFor(panel, pre.value), action: `/panel/senha/redefinir/${params.token}`, email }),
        pre.setCookie,
      );
    } catch (err) {
      if (err instanceof NotFoundError) return pageAnswer(404, recoveryMessagePage({ title: 'Link inválido', message: RESET_LINK_GONE, link: ASK_AGAIN }));
      throw err;
    }
  },
  options,
);

const resetHandler = httpHandler(
  routes.panelResetPassword,
  async ({ event, clientIp, runtime, now, params }) => {
    const { panel } = await runtime.serviceKeys();
    const pre = preSession(event);
    const fields = panelForm(event, panel, pre.setCookie.length === 0 ? pre.value : undefined);
    const ports = await panelRecoveryPorts(runtime);
    const input = {
      token: params.token,
      password: passwordField(fields, 'password'),
      confirmation: passwordField(fields, 'confirmation'),
      code: field(fields, 'code', 16),
      ip: clientIp,
      now,
    };
    try {
      await resetPassword(ports, input);
      return pageAnswer(
        200,
        recoveryMessagePage({
          title: 'Senha nova salva',
          message: 'Senha nova salva. Todas as sessões abertas terminaram: entre de novo com ela.',
          link: SIGN_IN,
        }),
      );
    } catch (err) {
      const again = async (status: number, form: { message?: string; errors?: Record<string, string[]> }) => {
        const { email } = await resetPage(ports, { token: params.token, now });
        const action = `/panel/senha/redefinir/${params.token}`;
        return pageAnswer(status, resetPasswordPage({ csrfToken: csrfTokenFor(panel, pre.value), action, email, ...form }), pre.setCookie);
      };
      if (err instanceof NotFoundError) return pageAnswer(404, recoveryMessagePage({ title: 'Link inválido', message: RESET_LINK_GONE, link: ASK_AGAIN }));
      if (err instanceof ConflictError) return pageAnswer(409, recoveryMessagePage({ title: 'Link já usado', message: err.message, link: ASK_AGAIN }));
      if (err instanceof ValidationError) return again(422, { errors: err.fields });
      if (isWrongCode(err)) return again(401, { message: WRONG_CODE });
      throw err;
    }
  },
  options,
);

export const handler = routeGroupHandler([
  [routes.panelForgotPage, forgotPageHandler],
  [routes.panelForgotPassword, forgotHandler],
  [routes.panelResetPage, resetPageHandler],
  [routes.panelResetPassword, resetHandler],
]);
