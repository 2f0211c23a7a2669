import { describe, expect, it } from 'vitest';
import { MAIL_LEASE_MS, sendQueuedMail } from '../../../../shared/app/mail/send-mail';
import type { MailClaim, MailOutbox, MailSent, QueuedMail } from '../../../../shared/ports/mail';

const NOW = new Date('2026-11-28T12:00:00.000Z');
const pending: QueuedMail = { status: 'pending', mailId: 'mail_1', kind: 'invite', to: 'ana@example.com', subject: 'Convite', text: 'link' };

function world(options: { mail?: QueuedMail; claim?: MailClaim; sendFails?: boolean; sender?: boolean; answer?: MailSent } = {}) {
  const steps: string[] = [];
  const outbox: MailOutbox = {
    get: async () => options.mail,
    claim: async (_id, now, until, to) => {
      steps.push(`claim until +${until.getTime() - now.getTime()} for ${to}`);
      return options.claim ?? 'claimed';
    },
    finish: async (_id, outcome) =>
      void steps.push(`finish ${outcome.status}${outcome.messageId ? ` ${outcome.messageId}` : ''}${outcome.reason ? ` (${outcome.reason})` : ''}`),
  };
  const send =
    options.sender === false
      ? undefined
      : async (mail: { to: string; subject: string; text: string; mailId: string; kind: string }): Promise<MailSent> => {
          steps.push(`send to ${mail.to}: ${mail.subject} [${mail.mailId} ${mail.kind}]`);
          if (options.sendFails) throw new Error('SES refused');
          return options.answer ?? { outcome: 'sent', messageId: 'ses-1' };
        };
  return { steps, ports: { outbox, send, now: () => NOW } };
}

const CLAIM = `claim until +${MAIL_LEASE_MS} for ana@example.com`;

describe('sending one queued mail (shared/app/mail/send-mail.ts)', () => {
  it('claims a lease (its recipient checked in the same write), sends with its id and kind, then marks it sent with the provider’s id', async () => {
    const w = world({ mail: pending });
    expect(await sendQueuedMail(w.ports, 'mail_1')).toBe('done');
    expect(w.steps).toEqual([CLAIM, 'send to ana@example.com: Convite [mail_1 invite]', 'finish sent ses-1']);
  });

  it('sends nothing for a message over already or unknown (a duplicate): done', async () => {
    for (const mail of [
      { status: 'sent', mailId: 'mail_1', kind: 'invite' } as QueuedMail,
      { status: 'suppressed', mailId: 'mail_1', kind: 'invite' } as QueuedMail,
      undefined,
    ]) {
      const w = world(mail ? { mail } : {});
      expect(await sendQueuedMail(w.ports, 'mail_1')).toBe('done');
      expect(w.steps).toEqual([]);
    }
  });

  it('sends nothing while another sending holds the lease: later (the queue hands it over again)', async () => {
    const w = world({ mail: pending, claim: 'busy' });
    expect(await sendQueuedMail(w.ports, 'mail_1')).toBe('later');
    expect(w.steps).toEqual([CLAIM]);
  });

  it('issue 44: sends nothing to a suppressed recipient, marks it not delivered (suppressed), never sent, never retried', async () => {
    const w = world({ mail: pending, claim: 'suppressed' });
    expect(await sendQueuedMail(w.ports, 'mail_1')).toBe('done');
    expect(w.steps).toEqual([CLAIM, 'finish suppressed (recipient suppressed (hard bounce or complaint))']);
  });

  it('issue 44: a message SES refuses for good (the sandbox’s unverified recipient) is marked rejected with the reason, not retried', async () => {
    const w = world({ mail: pending, answer: { outcome: 'rejected', reason: 'MessageRejected: Email address is not verified.' } });
    expect(await sendQueuedMail(w.ports, 'mail_1')).toBe('done');
    expect(w.steps).toEqual([CLAIM, 'send to ana@example.com: Convite [mail_1 invite]', 'finish rejected (MessageRejected: Email address is not verified.)']);
  });

  it('any other refusal of the provider throws and leaves it pending (retried by the queue, then its DLQ)', async () => {
    const w = world({ mail: pending, sendFails: true });
    await expect(sendQueuedMail(w.ports, 'mail_1')).rejects.toThrow('SES refused');
    expect(w.steps.some((s) => s.startsWith('finish'))).toBe(false);
  });

  it('without a sender configured, the message is marked skipped (said in the log), never retried', async () => {
    const w = world({ mail: pending, sender: false });
    expect(await sendQueuedMail(w.ports, 'mail_1')).toBe('done');
    expect(w.steps).toEqual([CLAIM, 'finish skipped']);
  });
});
