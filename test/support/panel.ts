import { shiftedBySteps } from '../../shared/adapters/crypto/totp-clock';
import { totpCodeAt } from '../../shared/adapters/crypto/totp';
import { admin, call, uniqueIp } from './api';
import { authenticatorNow, nextCode } from './totp-clock';

/** A browser's cookie jar for the panel's tests: what Set-Cookie gave, sent back as Cookie. */
export class Jar {
  private readonly values = new Map<string, string>();
  constructor(readonly ip: string = uniqueIp()) {}

  take(headers: Record<string, string | string[] | undefined>): void {
    const setCookies = headers['set-cookie'];
    for (const line of Array.isArray(setCookies) ? setCookies : setCookies ? [setCookies] : []) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (attributes.some((a) => a.trim().toLowerCase() === 'max-age=0')) this.values.delete(name);
      else this.values.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.values.get(name);
  }

  header(): Record<string, string> {
    return this.values.size === 0 ? {} : { cookie: [...this.values].map(([k, v]) => `${k}=${v}`).join('; ') };
  }
}

export type Page = { status: number; text: string; location: string | undefined };

/** A GET of a panel page with the jar's cookies; cookies it sets are kept. */
export async function get(jar: Jar, path: string): Promise<Page> {
  const reply = await call('GET', path, { headers: jar.header(), sourceIp: jar.ip });
  jar.take(reply.headers);
  return { status: reply.status, text: reply.text, location: typeof reply.headers.location === 'string' ? reply.headers.location : undefined };
}

/** A form post with the jar's cookies. */
export async function post(jar: Jar, path: string, fields: Record<string, string>): Promise<Page> {
  const reply = await call('POST', path, {
    headers: { ...jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    sourceIp: jar.ip,
  });
  jar.take(reply.headers);
  return { status: reply.status, text: reply.text, location: typeof reply.headers.location === 'string' ? reply.headers.location : undefined };
}

/** A hidden field's or an element's text in a page. */
export function hidden(html: string, name: string): string {
  const found = new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];
  if (found === undefined) throw new Error(`No field ${name} in the page`);
  return found;
}

export function elementText(html: string, id: string): string {
  const found = new RegExp(`id="${id}">([^<]*)<`).exec(html)?.[1];
  if (found === undefined) throw new Error(`No element #${id} in the page`);
  return found;
}

/**
 * The authenticator code a person would type, `offsetSteps` 30-second steps from the local stack's
 * authenticator time (real now + the authenticator's test offset: test/support/totp-clock.ts).
 */
export function codeFor(secret: string, offsetSteps = 0): string {
  return totpCodeAt(secret, shiftedBySteps(authenticatorNow(secret), offsetSteps));
}

export type Enrolled = {
  accountId: string;
  /** The account's API keys as the operator created them. */
  keys: { account_id: string; public_key: string; secret_key: string };
  email: string;
  password: string;
  secret: string;
  enrollCode: string;
  /** The last authenticator step this person used (codes work once: the next must be later). */
  lastStep: number;
};

/**
 * A fresh code for a step-up: a step later than the person's last one and inside the server's window,
 * the person's authenticator clock moved forward when it is not (never a wait: test/support/totp-clock.ts).
 * Records the step as used. Call it right before posting the code.
 */
export function freshCode(person: Enrolled): Promise<string> {
  const { code, step } = nextCode(person.secret, person.lastStep);
  person.lastStep = step;
  return Promise.resolve(code);
}

/** An account, an invite through the operator CLI, and its acceptance through the panel's pages. */
export async function enrolledPerson(
  role = 'owner',
  email = `p${Date.now()}${Math.floor(Math.random() * 1e6)}@example.com`,
  accountName = 'Loja do Painel',
): Promise<Enrolled> {
  const account = (await admin('account', 'create', '--name', accountName)).json as Enrolled['keys'];
  const invite = (await admin('panel', 'invite', '--account', account.account_id, '--email', email, '--role', role)).json as { invite_url: string };
  return { accountId: account.account_id, keys: account, ...(await acceptInvite(invite.invite_url, email)) };
}

/** An invite link accepted through the panel's pages: the password and authenticator the person chose. */
export async function acceptInvite(inviteUrl: string, email: string): Promise<Omit<Enrolled, 'accountId' | 'keys'>> {
  const path = new URL(inviteUrl).pathname;
  const jar = new Jar();
  const page = await get(jar, path);
  if (page.status !== 200) throw new Error(`invite page ${page.status}`);
  const secret = elementText(page.text, 'totp-secret');
  const password = `uma frase longa e boa ${Math.random().toString(36).slice(2, 10)}`;
  const { code: enrollCode, step: enrollStep } = nextCode(secret, undefined);
  const done = await post(jar, path, {
    csrf_token: hidden(page.text, 'csrf_token'),
    enrollment: hidden(page.text, 'enrollment'),
    password,
    confirmation: password,
    code: enrollCode,
  });
  if (done.status !== 303) throw new Error(`enrollment ${done.status}: ${done.text.slice(0, 300)}`);
  return { email, password, secret, enrollCode, lastStep: enrollStep };
}

/** Signs in through the two steps; the jar then holds the signed-in session. */
export async function signIn(jar: Jar, person: Enrolled): Promise<Page> {
  const page = await get(jar, '/panel/entrar');
  const passwordStep = await post(jar, '/panel/entrar', { csrf_token: hidden(page.text, 'csrf_token'), email: person.email, password: person.password });
  if (passwordStep.status !== 303) throw new Error(`password step ${passwordStep.status}`);
  const codePage = await get(jar, '/panel/entrar/codigo');
  // The next step's code: never the step the enrollment (or an earlier sign-in) used.
  return post(jar, '/panel/entrar/codigo', { csrf_token: hidden(codePage.text, 'csrf_token'), code: await freshCode(person) });
}
