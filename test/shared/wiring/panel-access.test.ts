import { describe, expect, it } from 'vitest';
import { reachable } from '../../support/reachable';

const PASSWORDS = 'shared/adapters/crypto/password-hash.ts';

describe('the password hashing is bundled only where a password is checked or set (issue 26: every function within 450 KB)', () => {
  it('the money pages (withdrawals, invoices, statement) do not reach it', () => {
    const files = reachable('functions/panel/money.ts');
    expect(files.has('shared/wiring/panel.ts')).toBe(true);
    expect(files.has(PASSWORDS)).toBe(false);
  });

  it('the sign-in function reaches it (the check can fail)', () => {
    expect(reachable('functions/panel/access.ts').has(PASSWORDS)).toBe(true);
  });
});
