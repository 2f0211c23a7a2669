import { describe, expect, it } from 'vitest';
import { inviteMail, passwordResetMail, signInNoticeMail } from '../../../../shared/domain/panel/mail';

describe("the panel's mail texts (shared/domain/panel/mail.ts)", () => {
  it('an invite names the account, the role in pt-BR, the link and until when (Brasília time)', () => {
    const mail = inviteMail({
      to: 'ana@example.com',
      accountId: 'acct_1',
      role: 'finance',
      link: 'https://pay.example/panel/convite/t',
      expiresAt: '2026-12-01T15:30:00.000Z',
    });
    expect(mail).toMatchObject({ kind: 'invite', to: 'ana@example.com' });
    expect(mail.text).toContain('acct_1');
    expect(mail.text).toContain('Financeiro');
    expect(mail.text).toContain('https://pay.example/panel/convite/t');
    expect(mail.text).toContain('01/12/2026 12:30');
  });

  it('a reset link says it works once and asks the authenticator too', () => {
    const mail = passwordResetMail({ to: 'ana@example.com', link: 'https://pay.example/panel/senha/redefinir/t', expiresAt: '2026-12-01T15:30:00.000Z' });
    expect(mail.kind).toBe('password_reset');
    expect(mail.text).toContain('https://pay.example/panel/senha/redefinir/t');
    expect(mail.text).toContain('autenticador');
  });

  it("a sign-in notice gives when and from where; the browser's text is cut short and kept to printable ASCII", () => {
    const mail = signInNoticeMail({
      to: 'ana@example.com',
      at: '2026-11-28T12:00:00.000Z',
      ip: '203.0.113.7',
      userAgent: `Mozilla\u0000\n\u202e${'x'.repeat(200)}`,
    });
    expect(mail.text).toContain('28/11/2026 09:00');
    expect(mail.text).toContain('203.0.113.7');
    expect(mail.text.includes('\u0000') || mail.text.includes('\u202e')).toBe(false);
    expect(mail.text).toContain(`(Mozilla${'x'.repeat(113)}…)`);
  });
});
