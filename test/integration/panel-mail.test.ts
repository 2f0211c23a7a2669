import { describe, expect, it } from 'vitest';
import { admin, newAccount } from '../support/api';
import { scanAll } from '../support/ledger';
import { eventuallyMailTo, mailTo } from '../support/mail';
import { acceptInvite, Jar, signIn } from '../support/panel';

describe("merchant panel: mail through SES's stand-in (issue 27)", () => {
  it('mails the invite link to the invited person (queued with the invite), then a notice of each sign-in; each message sent once, its text not kept', async () => {
    const { account_id: accountId } = await newAccount();
    const email = `correio${Date.now()}@example.com`;
    const invited = await admin('panel', 'invite', '--account', accountId, '--email', email, '--role', 'finance');
    expect(invited.code, invited.stderr).toBe(0);
    const { invite_url: inviteUrl } = invited.json as { invite_url: string };

    const [invite] = await eventuallyMailTo(email);
    expect(invite?.subject).toBe('Convite para o painel do gateway de pagamentos');
    expect(invite?.from).toContain('@');
    expect(invite?.text).toContain(inviteUrl);
    expect(invite?.text).toContain('Financeiro');

    const person = { accountId, keys: { account_id: accountId, public_key: '', secret_key: '' }, ...(await acceptInvite(inviteUrl, email)) };
    const jar = new Jar();
    expect((await signIn(jar, person)).status).toBe(303);
    const mails = await eventuallyMailTo(email, 2);
    expect(mails.map((m) => m.subject)).toEqual(['Convite para o painel do gateway de pagamentos', 'Novo acesso ao painel']);
    expect(mails[1]?.text).toContain(jar.ip);

    // Each message once: the queued items end sent, their sealed text removed.
    const items = await scanAll({
      FilterExpression: '#t = :t AND begins_with(PK, :p)',
      ExpressionAttributeNames: { '#t': 'type' },
      ExpressionAttributeValues: { ':t': 'mail', ':p': 'MAIL#' },
    });
    const ours = items.filter((item) => mails.some((m) => m.messageId === item.messageId));
    expect(ours.map((item) => [item.kind, item.status, item.bodySealed])).toEqual(
      expect.arrayContaining([
        ['invite', 'sent', undefined],
        ['sign_in_notice', 'sent', undefined],
      ]),
    );
    expect(ours).toHaveLength(2);
    expect(mailTo(email)).toHaveLength(2);
  }, 90_000);
});
