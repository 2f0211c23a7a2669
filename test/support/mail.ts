import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeptMail } from '../../infra/local/mail-endpoint';
import { stack } from './api';
import { eventually } from './ledger';

/** Every message the local SES stand-in kept for this address (files under the stack's mail directory), oldest first. */
export function mailTo(address: string): KeptMail[] {
  const dir = stack().mailDir;
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as KeptMail)
    .filter((mail) => mail.to.includes(address));
}

/** Waits until `count` messages were kept for the address (the stream, the mail queue and its worker run in between). */
export function eventuallyMailTo(address: string, count = 1, timeoutMs = 20_000): Promise<KeptMail[]> {
  return eventually(
    () => mailTo(address),
    (mails) => mails.length >= count,
    timeoutMs,
    200,
  );
}
