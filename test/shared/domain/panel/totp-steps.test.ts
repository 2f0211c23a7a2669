import { describe, expect, it } from 'vitest';
import { acceptsStep, codeDigits, isCodeShaped, TOTP_DIGITS, TOTP_PERIOD_SECONDS, TOTP_WINDOW, totpStepAt } from '../../../../shared/domain/panel/totp-steps';

describe('the authenticator settings', () => {
  it('are what every authenticator app supports: 30 s steps, 6 digits, one step of drift either way', () => {
    expect([TOTP_PERIOD_SECONDS, TOTP_DIGITS, TOTP_WINDOW]).toEqual([30, 6, 1]);
  });
});

describe('totpStepAt', () => {
  it('is floor(unix seconds / 30)', () => {
    expect(totpStepAt(new Date(0))).toBe(0);
    expect(totpStepAt(new Date(29_999))).toBe(0);
    expect(totpStepAt(new Date(30_000))).toBe(1);
    expect(totpStepAt(new Date(59_000))).toBe(1);
    expect(totpStepAt(new Date(60_000))).toBe(2);
    // RFC 6238 Appendix B: T = 1111111109 and 1111111111 fall in steps 0x23523EC and 0x23523ED.
    expect(totpStepAt(new Date(1_111_111_109_000))).toBe(0x23523ec);
    expect(totpStepAt(new Date(1_111_111_111_000))).toBe(0x23523ed);
    expect(totpStepAt(new Date(20_000_000_000_000))).toBe(0x27bc86aa);
  });
});

describe('acceptsStep (codes are used once)', () => {
  it('accepts the first code a person ever uses', () => {
    expect(acceptsStep(undefined, 0)).toBe(true);
    expect(acceptsStep(undefined, 37_037_037)).toBe(true);
  });

  it('refuses the same step twice', () => {
    expect(acceptsStep(37_037_037, 37_037_037)).toBe(false);
  });

  it('refuses an earlier step of the window after a later one', () => {
    expect(acceptsStep(37_037_037, 37_037_036)).toBe(false);
    expect(acceptsStep(37_037_037, 0)).toBe(false);
  });

  it('accepts a later step', () => {
    expect(acceptsStep(37_037_037, 37_037_038)).toBe(true);
    expect(acceptsStep(0, 1)).toBe(true);
  });
});

describe('isCodeShaped', () => {
  it('accepts exactly 6 ASCII digits, spaces aside', () => {
    expect(isCodeShaped('287082')).toBe(true);
    expect(isCodeShaped('000000')).toBe(true);
    expect(isCodeShaped('287 082')).toBe(true);
    expect(isCodeShaped(' 28 70 82 ')).toBe(true);
  });

  it('refuses other lengths, letters, other digits and other whitespace', () => {
    expect(isCodeShaped('')).toBe(false);
    expect(isCodeShaped('      ')).toBe(false);
    expect(isCodeShaped('28708')).toBe(false);
    expect(isCodeShaped('2870820')).toBe(false);
    expect(isCodeShaped('94287082')).toBe(false);
    expect(isCodeShaped('28708a')).toBe(false);
    expect(isCodeShaped('abcdef')).toBe(false);
    expect(isCodeShaped('287-082')).toBe(false);
    expect(isCodeShaped('287\t082')).toBe(false);
    expect(isCodeShaped('２８７０８２')).toBe(false); // full-width digits
    expect(isCodeShaped('٢٨٧٠٨٢')).toBe(false); // Arabic-Indic digits
  });
});

describe('codeDigits', () => {
  it('removes the spaces people type inside a code, and nothing else', () => {
    expect(codeDigits('287 082')).toBe('287082');
    expect(codeDigits(' 2 8 7 0 8 2 ')).toBe('287082');
    expect(codeDigits('287-082')).toBe('287-082');
  });
});
