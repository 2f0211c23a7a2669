import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORDS } from '../../../../shared/domain/panel/common-passwords.generated';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordProblems } from '../../../../shared/domain/panel/password-policy';

const CONTEXT = { email: 'joaopedro.silva@empresa.com.br' };
const problemsOf = (password: string) => passwordProblems(password, CONTEXT);

const TOO_SHORT = 'A senha precisa ter pelo menos 12 caracteres.';
const TOO_LONG = 'A senha pode ter no máximo 128 caracteres.';
const TOO_COMMON = 'Esta senha é comum demais; escolha outra.';
const IS_EMAIL = 'A senha não pode ser o seu e-mail.';
const ONE_CHARACTER = 'A senha não pode repetir um só caractere.';

describe('the merchant panel password policy', () => {
  it('sets the length limits of NIST SP 800-63B: 12 to 128 characters', () => {
    expect(MIN_PASSWORD_LENGTH).toBe(12);
    expect(MAX_PASSWORD_LENGTH).toBe(128);
  });

  it('accepts 12 characters and refuses 11', () => {
    expect(problemsOf('Tq9#mZ2vL!pX')).toEqual([]);
    expect(problemsOf('Tq9#mZ2vL!p')).toEqual([TOO_SHORT]);
    expect(problemsOf('')).toEqual([TOO_SHORT]);
  });

  it('accepts 128 characters and refuses 129', () => {
    const longest = 'ab3$'.repeat(32);
    expect([...longest]).toHaveLength(128);
    expect(problemsOf(longest)).toEqual([]);
    expect(problemsOf(`${longest}x`)).toEqual([TOO_LONG]);
  });

  it('counts code points, not UTF-16 units: an emoji is one character', () => {
    expect('🔐').toHaveLength(2);
    expect(problemsOf('Tq9#mZ2vL!p🔐')).toEqual([]);
    expect(problemsOf('Tq9#mZ2vL!🔐')).toEqual([TOO_SHORT]);
    expect(problemsOf(`${'ab3$'.repeat(31)}xyz🔐`)).toEqual([]);
    expect(problemsOf(`${'ab3$'.repeat(31)}xyzw🔐`)).toEqual([TOO_LONG]);
  });

  it('asks for no character classes: a long passphrase of lower-case words is accepted', () => {
    expect(problemsOf('cavalo correto bateria grampo')).toEqual([]);
    expect(problemsOf('pão de queijo com café às sete')).toEqual([]);
  });

  it('refuses a common password in any letter case', () => {
    for (const password of ['qwerty123456', 'QWERTY123456', 'Qwerty123456', 'qWeRtY123456']) expect(problemsOf(password)).toEqual([TOO_COMMON]);
    expect(problemsOf('iloveyou1234')).toEqual([]);
  });

  it('refuses a common password written in full-width characters (compared after NFKC)', () => {
    expect(problemsOf('ｑｗｅｒｔｙ１２３４５６')).toEqual([TOO_COMMON]);
  });

  it('refuses common Brazilian Portuguese passwords', () => {
    for (const password of ['Senha1234567', 'MinhaSenha123', 'mudar@123456', 'Brasil123456', 'PrimeiroAcesso']) {
      expect(problemsOf(password)).toEqual([TOO_COMMON]);
    }
  });

  it('refuses the e-mail and its local part, in any letter case', () => {
    expect(problemsOf('joaopedro.silva@empresa.com.br')).toEqual([IS_EMAIL]);
    expect(problemsOf('JoaoPedro.Silva@Empresa.com.br')).toEqual([IS_EMAIL]);
    expect(problemsOf('JOAOPEDRO.SILVA')).toEqual([IS_EMAIL]);
    expect(passwordProblems('joaopedro.silva', { email: '  JoaoPedro.Silva@Empresa.com.br ' })).toEqual([IS_EMAIL]);
    expect(problemsOf('joaopedro.silva.2024')).toEqual([]);
    expect(problemsOf('empresa.com.br')).toEqual([]);
  });

  it('refuses one character repeated, in any letter case, and not two', () => {
    expect(problemsOf('############')).toEqual([ONE_CHARACTER]);
    expect(problemsOf('AaAaAaAaAaAa')).toEqual([ONE_CHARACTER]);
    expect(problemsOf('🔐'.repeat(12))).toEqual([ONE_CHARACTER]);
    expect(problemsOf('ababababababab')).toEqual([]);
    expect(problemsOf('zzzzz')).toEqual([TOO_SHORT, ONE_CHARACTER]);
    expect(problemsOf('z')).toEqual([TOO_SHORT]);
  });

  it('lists every problem at once, in a fixed order', () => {
    expect(passwordProblems('aaaaaaaaaa', { email: 'aaaaaaaaaa@example.com' })).toEqual([TOO_SHORT, IS_EMAIL, ONE_CHARACTER]);
    expect(problemsOf('x'.repeat(129))).toEqual([TOO_LONG, ONE_CHARACTER]);
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
