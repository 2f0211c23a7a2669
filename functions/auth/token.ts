import { issueToken } from '../../shared/app/auth/issue-token';
import { issuedKeyPairOf } from '../../shared/domain/auth/basic';
import { unixSeconds } from '../../shared/ports/clock';
import { httpHandler } from '../../shared/http/pipeline';
import { authRoutes as routes } from '../../shared/http/route-table/auth';
import { tokenPorts } from '../../shared/wiring/auth';

/** POST /api/auth: public + secret key (HTTP Basic) → a signed Bearer token (spec 4.2, 5). */
export const handler = httpHandler(routes.authToken, async ({ event, runtime, now }) => {
  // A key of another shape than the issued ones (PUB- + 32, SEC- + 48) is refused before any read.
  const credentials = issuedKeyPairOf(event.headers?.authorization);
  return { status: 200, body: { success: await issueToken(tokenPorts(runtime), credentials, unixSeconds(now)) } };
});
