import { describe, expect, it } from 'vitest';
import { MAIL_LEASE_MS, sendQueuedMail } from '../../../../shared/app/mail/send-mail';
import type { MailOutbox, QueuedMail } from '../../../../shared/ports/mail';

const NOW = new Date('2026-11-28T12:00:00.000Z');
const pending: QueuedMail = { status: 'pending', mailId: 'mail_1', kind: 'invite', to: 'ana@example.com', subject: 'Convite', text: 'link' };

function world(options: { mail?: QueuedMail; claims?: boolean; sendFails?: boolean; sender?: boolean } = {}) {
  const steps: string[] = [];
  const outbox: MailOutbox = {
    get: async () => options.mail,
    claim: async (_id, now, until) => {
      steps.push(`claim until +${until.getTime() - now.getTime()}`);
      return options.claims !== false;
    },
    finish: async (_id, outcome) => void steps.push(`finish ${outcome.status}${outcome.messageId ? ` ${outcome.messageId}` : ''}`),
  };
  const send =
    options.sender === false
      ? undefined
      : async (mail: { to: string; subject: string; text: string }) => {
          steps.push(`send to ${mail.to}: ${mail.subject}`);
          if (options.sendFails) throw new Error('SES refused');
          return { messageId: 'ses-1' };
        };
  return { steps, ports: { outbox, send, now: () => NOW } };
}

describe('sending one queued mail (shared/app/mail/send-mail.ts)', () => {
  it('claims a lease, sends, then marks it sent with the provider’s id', async () => {
    const w = world({ mail: pending });
    expect(await sendQueuedMail(w.ports, 'mail_1')).toBe('done');
    expect(w.steps).toEqual([`claim until +${MAIL_LEASE_MS}`, 'send to ana@example.com: Convite', 'finish sent ses-1']);
  });

  it('sends nothing for a message over already or unknown (a duplicate): done', async () => {
    for (const mail of [{ status: 'sent', mailId: 'mail_1', kind: 'invite' } as QueuedMail, undefined]) {
      const w = world(mail ? { mail } : {});
      expect(await sendQueuedMail(w.ports, 'mail_1')).toBe('done');
      expect(w.steps).toEqual([]);
    }
  });

  it('sends nothing while another sending holds the lease: later (the queue hands it over again)', async () => {
    const w = world({ mail: pending, claims: false });
    expect(await sendQueuedMail(w.ports, 'mail_1')).toBe('later');
    expect(w.steps).toEqual([`claim until +${MAIL_LEASE_MS}`]);
  });

  it('a refusal of the provider throws and leaves it pending (retried by the queue, then its DLQ)', async () => {
    const w = world({ mail: pending, sendFails: true });
    await expect(sendQueuedMail(w.ports, 'mail_1')).rejects.toThrow('SES refused');
    expect(w.steps.some((s) => s.startsWith('finish'))).toBe(false);
  });

  it('without a sender configured, the message is marked skipped (said in the log), never retried', async () => {
    const w = world({ mail: pending, sender: false });
    expect(await sendQueuedMail(w.ports, 'mail_1')).toBe('done');
    expect(w.steps).toEqual([`claim until +${MAIL_LEASE_MS}`, 'finish skipped']);
  });
});
