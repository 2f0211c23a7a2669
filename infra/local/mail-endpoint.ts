import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export type MailEndpoint = { endpoint: string; dir: string; stop: () => Promise<void> };

/** A message as the stand-in keeps it (one JSON file per message under the mail directory). */
export type KeptMail = { messageId: string; from: string; to: string[]; subject: string; text: string; at: string };

/**
 * A loopback stand-in for Amazon SES (v2): answers SendEmail (`POST /v2/email/outbound-emails`, the call
 * the mail worker makes) by keeping the message as a JSON file under `dir` (`.local/mail/`), so the real
 * @aws-sdk/client-sesv2 code runs locally and a person (or a test) reads what would have been sent. It
 * refuses what SES refuses for a simple message: no sender, no recipient or more than 50, no subject.
 */
export async function startMailEndpoint(dir: string, port = 0): Promise<MailEndpoint> {
  mkdirSync(dir, { recursive: true });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const reply = (status: number, body: unknown, errorType?: string) => {
        res.writeHead(status, { 'Content-Type': 'application/json', ...(errorType ? { 'x-amzn-ErrorType': errorType } : {}) });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v2/email/outbound-emails') {
        return reply(404, { message: 'Only SendEmail is served locally' }, 'NotFoundException');
      }
      let input: {
        FromEmailAddress?: unknown;
        Destination?: { ToAddresses?: unknown };
        Content?: { Simple?: { Subject?: { Data?: unknown }; Body?: { Text?: { Data?: unknown } } } };
      };
      try {
        input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof input;
      } catch {
        return reply(400, { message: 'Body is not JSON' }, 'BadRequestException');
      }
      const to = Array.isArray(input.Destination?.ToAddresses) ? input.Destination.ToAddresses.filter((a): a is string => typeof a === 'string') : [];
      const subject = input.Content?.Simple?.Subject?.Data;
      const text = input.Content?.Simple?.Body?.Text?.Data;
      if (typeof input.FromEmailAddress !== 'string' || to.length === 0 || to.length > 50 || typeof subject !== 'string' || typeof text !== 'string') {
        return reply(400, { message: 'A simple message needs FromEmailAddress, 1 to 50 ToAddresses, a subject and a text body' }, 'BadRequestException');
      }
      const messageId = `local-${randomUUID()}`;
      const at = new Date().toISOString();
      const kept: KeptMail = { messageId, from: input.FromEmailAddress, to, subject, text, at };
      writeFileSync(join(dir, `${at.replace(/[:.]/g, '-')}-${messageId}.json`), `${JSON.stringify(kept, null, 2)}\n`, { mode: 0o600 });
      return reply(200, { MessageId: messageId });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return { endpoint: `http://127.0.0.1:${bound}`, dir, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}
