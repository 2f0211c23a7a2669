import { describe, expect, it } from 'vitest';
import translations from '@zxcvbn-ts/language-pt-br/dist/translations';
import { COMMON_PASSWORDS } from '../../../../shared/domain/panel/common-passwords.generated';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, MIN_PASSWORD_SCORE, passwordProblems, personalWords } from '../../../../shared/domain/panel/password-policy';

const CONTEXT = { email: 'joaopedro.silva@empresa.com.br', accountName: 'Padaria Pão Quente' };
const problemsOf = (password: string) => passwordProblems(password, CONTEXT);

const TOO_SHORT = 'A senha precisa ter pelo menos 12 caracteres.';
const TOO_LONG = 'A senha pode ter no máximo 128 caracteres.';
const TOO_COMMON = 'Esta senha é comum demais; escolha outra.';
const IS_EMAIL = 'A senha não pode ser o seu e-mail.';
const ONE_CHARACTER = 'A senha não pode repetir um só caractere.';
const WEAK = 'Esta senha é fácil de adivinhar; use uma frase mais longa, com palavras pouco comuns, sem o seu nome, e-mail ou o nome da conta.';
const PERSONAL_DATA = 'A senha não deve conter o seu e-mail nem o nome da conta.';
const ZXCVBN_WARNINGS: readonly string[] = [...Object.values(translations.warnings).filter((w) => w !== translations.warnings.userInputs), PERSONAL_DATA];

/** Refused as weak: the weak message first, then at most zxcvbn's warning in pt-BR. */
async function expectWeak(password: string, context = CONTEXT): Promise<void> {
  const problems = await passwordProblems(password, context);
  expect(problems[0], password).toBe(WEAK);
  expect(problems.length, password).toBeLessThanOrEqual(2);
  for (const warning of problems.slice(1)) expect(ZXCVBN_WARNINGS).toContain(warning);
}

/** A strong 128-character password (four random-looking words, repeated with a twist each time). */
const LONGEST = 'Vq7#rXe2!mTz9@Lk'.repeat(8);

describe('the merchant panel password policy', () => {
  it('sets the length limits of NIST SP 800-63B: 12 to 128 characters; zxcvbn score 3 and over', () => {
    expect(MIN_PASSWORD_LENGTH).toBe(12);
    expect(MAX_PASSWORD_LENGTH).toBe(128);
    expect(MIN_PASSWORD_SCORE).toBe(3);
  });

  it('accepts 12 characters and refuses 11', async () => {
    expect(await problemsOf('Tq9#mZ2vL!pX')).toEqual([]);
    expect(await problemsOf('Tq9#mZ2vL!p')).toEqual([TOO_SHORT]);
    expect(await problemsOf('')).toEqual([TOO_SHORT]);
  });

  it('accepts 128 characters and refuses 129 (a refusal past the maximum, never a cut)', async () => {
    expect([...LONGEST]).toHaveLength(128);
    expect(await problemsOf(LONGEST)).toEqual([]);
    expect(await problemsOf(`${LONGEST}x`)).toEqual([TOO_LONG]);
    expect(await problemsOf(`${LONGEST}${'x'.repeat(10_000)}`)).toEqual([TOO_LONG]);
  });

  it('counts code points, not UTF-16 units: an emoji is one character', async () => {
    expect('🔐').toHaveLength(2);
    expect(await problemsOf('Tq9#mZ2vL!p🔐')).toEqual([]);
    expect(await problemsOf('Tq9#mZ2vL!🔐')).toEqual([TOO_SHORT]);
    expect(await problemsOf(`${LONGEST.slice(0, 127)}🔐`)).toEqual([]);
    expect(await problemsOf(`${LONGEST}🔐`)).toEqual([TOO_LONG]);
  });

  it('asks for no character classes: a long passphrase of lower-case words is accepted', async () => {
    for (const password of ['cavalo correto bateria grampo', 'pão de queijo com café às sete', 'correct horse battery staple', 'uma frase longa e boa 2026']) {
      expect(await problemsOf(password), password).toEqual([]);
    }
  });

  it('refuses the weak passwords of the issue: keyboard rows, common phrases, repeats', async () => {
    for (const password of ['qwertyuiopas', 'iloveyou1234', 'passwordpassword', 'abababababab', 'ababababababab', 'AaBbAaBbAaBb']) await expectWeak(password);
    // Each is refused for its weakness alone: none is in the shipped list, nor the e-mail, nor one character.
    for (const password of ['qwertyuiopas', 'iloveyou1234', 'passwordpassword', 'abababababab']) expect(COMMON_PASSWORDS.has(password)).toBe(false);
  });

  it("refuses the account's name, with or without its accents and spaces, and with digits added", async () => {
    for (const password of ['Padaria Pão Quente', 'padaria pao quente', 'PadariaPaoQuente', 'padariapaoquente', 'Padaria Pão Quente 1', 'quentepadaria']) {
      await expectWeak(password);
    }
    expect(await problemsOf('padariapaoquente')).toEqual([WEAK, PERSONAL_DATA]);
    // The same passwords with another account's name are estimated as they are (the name is what weakens them).
    expect(await passwordProblems('padariapaoquente', { ...CONTEXT, accountName: 'Oficina do Zé' })).toEqual([]);
    expect(await passwordProblems('PadariaPaoQuente', { ...CONTEXT, accountName: undefined })).toEqual([]);
  });

  it('refuses a password made of the e-mail, beyond the e-mail itself', async () => {
    for (const password of ['joaopedro.silva.2024', 'JoaoPedroSilva', 'silvajoaopedro']) await expectWeak(password);
    expect(await passwordProblems('joaopedro.silva.2024', { email: 'ana@example.com', accountName: undefined })).toEqual([]);
  });

  it('refuses a common password in any letter case', async () => {
    for (const password of ['qwerty123456', 'QWERTY123456', 'Qwerty123456', 'qWeRtY123456']) expect(await problemsOf(password)).toEqual([TOO_COMMON]);
  });

  it('refuses a common password written in full-width characters (compared and estimated after NFKC)', async () => {
    expect(await problemsOf('ｑｗｅｒｔｙ１２３４５６')).toEqual([TOO_COMMON]);
    await expectWeak('ｉｌｏｖｅｙｏｕ１２３４');
  });

  it('refuses common Brazilian Portuguese passwords, zxcvbn scoring some of them 3 (the list stays)', async () => {
    for (const password of ['Senha1234567', 'MinhaSenha123', 'mudar@123456', 'Brasil123456', 'PrimeiroAcesso']) {
      expect(await problemsOf(password)).toEqual([TOO_COMMON]);
    }
  });

  it('refuses the e-mail and its local part, in any letter case', async () => {
    expect(await problemsOf('joaopedro.silva@empresa.com.br')).toEqual([IS_EMAIL]);
    expect(await problemsOf('JoaoPedro.Silva@Empresa.com.br')).toEqual([IS_EMAIL]);
    expect(await problemsOf('JOAOPEDRO.SILVA')).toEqual([IS_EMAIL]);
    expect(await passwordProblems('joaopedro.silva', { email: '  JoaoPedro.Silva@Empresa.com.br ', accountName: undefined })).toEqual([IS_EMAIL]);
    expect(await problemsOf('empresa.com.br')).toEqual([]);
  });

  it('refuses one character repeated, in any letter case', async () => {
    expect(await problemsOf('############')).toEqual([ONE_CHARACTER]);
    expect(await problemsOf('AaAaAaAaAaAa')).toEqual([ONE_CHARACTER]);
    expect(await problemsOf('🔐'.repeat(12))).toEqual([ONE_CHARACTER]);
    expect(await problemsOf('zzzzz')).toEqual([TOO_SHORT, ONE_CHARACTER]);
    expect(await problemsOf('z')).toEqual([TOO_SHORT]);
  });

  it('lists every rule broken at once, in a fixed order; the estimate only for a password that breaks none', async () => {
    expect(await passwordProblems('aaaaaaaaaa', { email: 'aaaaaaaaaa@example.com', accountName: undefined })).toEqual([TOO_SHORT, IS_EMAIL, ONE_CHARACTER]);
    expect(await problemsOf('x'.repeat(129))).toEqual([TOO_LONG, ONE_CHARACTER]);
  });

  it("counts the e-mail, its local part and pieces, and the account's name (whole, joined, word by word, without accents) as guessed first", () => {
    expect(personalWords(CONTEXT)).toEqual([
      'joaopedro.silva@empresa.com.br',
      'joaopedro.silva',
      'joaopedro',
      'silva',
      'padaria pão quente',
      'padaria pao quente',
      'padariapãoquente',
      'padariapaoquente',
      'padaria',
      'pão',
      'pao',
      'quente',
    ]);
    expect(personalWords({ email: 'x@y.z', accountName: undefined })).toEqual(['x@y.z', 'x']);
  });
});

describe('the common password list', () => {
  it('holds the 229 long entries of zxcvbn 4.4.2 and the pt-BR ones, in the form the policy looks up', () => {
    expect(COMMON_PASSWORDS.size).toBe(262);
    for (const password of ['qwerty123456', '1qaz2wsx3edc', 'weihnachtsbaum', 'senha1234567', '123456789012', '0123456789ab']) {
      expect(COMMON_PASSWORDS.has(password)).toBe(true);
    }
    const misfits = [...COMMON_PASSWORDS].filter((p) => [...p].length < MIN_PASSWORD_LENGTH || p !== p.normalize('NFKC').toLowerCase());
    expect(misfits).toEqual([]);
  });
});
