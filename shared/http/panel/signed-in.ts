import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { signedInSession } from '../../app/panel/sign-in';
import type { PanelAccessPorts } from '../../app/panel/access-ports';
import type { PanelSession } from '../../domain/panel/session';
import type { PanelPage, SignedInChrome } from '../../pages/panel/pages';
import type { ChangeCompilers } from '../../wiring/compile';
import type { RouteResult } from '../answer';
import { httpHandler, type RouteRequest } from '../pipeline';
import type { ZodType } from 'zod';
import type { AnyRoute, RouteDef } from '../route';
import { pageAnswer, panelErrorAnswerPage, panelForm, redirectTo } from './answers';
import type { Runtime } from '../../wiring/runtime';
import { clearedSessionCookie, csrfTokenFor, panelCookie, SESSION_COOKIE } from './cookies';
import { SESSION_ENDED } from '../../app/panel/acting';
import { UnauthorizedError } from '../../domain/errors';

/** A signed-in page's context: the session, and what every page shows around its content (the e-mail, the sign-out form's token). */
export type SignedIn = { session: PanelSession; chrome: SignedInChrome };

/**
 * The signed-in session of the request's cookie (kept alive), with the page chrome; undefined when
 * there is none (the page then sends the browser to the sign-in page).
 */
export async function signedIn(
  event: APIGatewayProxyEventV2,
  runtime: Runtime,
  ports: Pick<PanelAccessPorts, 'sessions' | 'tokens'>,
  now: Date,
): Promise<SignedIn | undefined> {
  const cookie = panelCookie(event.cookies, SESSION_COOKIE);
  const session = await signedInSession(ports, cookie, now);
  if (!session || cookie === undefined) return undefined;
  const { panel } = await runtime.serviceKeys();
  return { session, chrome: { email: session.email, csrfToken: csrfTokenFor(panel, cookie) } };
}

type PagePorts = Pick<PanelAccessPorts, 'sessions' | 'tokens'>;

/**
 * A session whose person is gone (removed from the team) ends where it is used: the session closed, the
 * cookie cleared, the browser sent to the sign-in page, as for no session at all.
 */
async function endedSessionToSignIn(ports: PagePorts, page: SignedIn, run: () => Promise<RouteResult>): Promise<RouteResult> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof UnauthorizedError && err.message === SESSION_ENDED)) throw err;
    await ports.sessions.close(page.session.sessionHash);
    return redirectTo('/panel/entrar', [clearedSessionCookie()]);
  }
}

/** What a signed-in form's action gets: its ports, the page context, the form's fields, the client's address and the time. */
export type SignedInForm<Ports> = { ports: Ports; page: SignedIn; fields: URLSearchParams; ip: string; now: Date; event: APIGatewayProxyEventV2 };

/**
 * A signed-in page of the panel: its ports, the session (none: 303 to the sign-in page), then the page
 * the render gives (200). Errors are the panel's HTML pages.
 */
export function signedInPage<Ports extends PagePorts, Body extends ZodType | undefined, Query extends ZodType | undefined, Params extends ZodType | undefined>(
  route: RouteDef<Body, Query, Params>,
  portsOf: (runtime: Runtime) => Promise<Ports>,
  render: (ports: Ports, page: SignedIn, request: RouteRequest<Body, Query, Params>) => Promise<PanelPage>,
) {
  return httpHandler(
    route,
    async (request) => {
      const { event, runtime, now } = request;
      const ports = await portsOf(runtime);
      const page = await signedIn(event, runtime, ports, now);
      if (!page) return redirectTo('/panel/entrar');
      // The query the pipeline validated (API Gateway's view of it: repeated names joined by commas).
      return endedSessionToSignIn(ports, page, () => render(ports, page, request).then((html) => pageAnswer(200, html)));
    },
    { errorPage: panelErrorAnswerPage },
  );
}

/**
 * A signed-in form of the panel: the page's form with its CSRF token (400, 403 otherwise: nothing read
 * or changed), the session (none: 303 to the sign-in page), then the action's answer, whose changes
 * commit through `changes`.
 */
export function signedInForm<Ports extends PagePorts>(
  route: AnyRoute,
  portsOf: (runtime: Runtime) => Promise<Ports>,
  act: (form: SignedInForm<Ports>) => Promise<RouteResult>,
  changes?: ChangeCompilers,
) {
  return httpHandler(
    route,
    async ({ event, clientIp, runtime, now }) => {
      const { panel } = await runtime.serviceKeys();
      const fields = panelForm(event, panel, panelCookie(event.cookies, SESSION_COOKIE));
      const ports = await portsOf(runtime);
      const page = await signedIn(event, runtime, ports, now);
      if (!page) return redirectTo('/panel/entrar');
      return endedSessionToSignIn(ports, page, () => act({ ports, page, fields, ip: clientIp, now, event }));
    },
    { errorPage: panelErrorAnswerPage, ...(changes ? { changes } : {}) },
  );
}
