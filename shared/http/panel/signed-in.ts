import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { signedInSession } from '../../app/panel/sign-in';
import type { PanelAccessPorts } from '../../app/panel/access-ports';
import type { PanelSession } from '../../domain/panel/session';
import type { SignedInChrome } from '../../panel/pages';
import type { Runtime } from '../../runtime';
import { csrfTokenFor, panelCookie, SESSION_COOKIE } from './cookies';

/** A signed-in page's context: the session, and what every page shows around its content (the e-mail, the sign-out form's token). */
export type SignedIn = { session: PanelSession; chrome: SignedInChrome };

/**
 * The signed-in session of the request's cookie (kept alive), with the page chrome; undefined when
 * there is none (the page then sends the browser to the sign-in page).
 */
export async function signedIn(event: APIGatewayProxyEventV2, runtime: Runtime, ports: Pick<PanelAccessPorts, 'sessions' | 'tokens'>, now: Date): Promise<SignedIn | undefined> {
  const cookie = panelCookie(event.cookies, SESSION_COOKIE);
  const session = await signedInSession(ports, cookie, now);
  if (!session || cookie === undefined) return undefined;
  const { panel } = await runtime.serviceKeys();
  return { session, chrome: { email: session.email, csrfToken: csrfTokenFor(panel, cookie) } };
}
