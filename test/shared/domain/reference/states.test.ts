import { describe, expect, it } from 'vitest';
import { STATES, stateByUf, stateView, UF_CODES } from '../../../../shared/domain/reference/states';

/** IBGE codes of the 27 federative units (IBGE's table of UF codes). */
const IBGE: Record<string, number> = {
  RO: 11,
  AC: 12,
  AM: 13,
  RR: 14,
  PA: 15,
  AP: 16,
  TO: 17,
  MA: 21,
  PI: 22,
  CE: 23,
  RN: 24,
  PB: 25,
  PE: 26,
  AL: 27,
  SE: 28,
  BA: 29,
  MG: 31,
  ES: 32,
  RJ: 33,
  SP: 35,
  PR: 41,
  SC: 42,
  RS: 43,
  MS: 50,
  MT: 51,
  GO: 52,
  DF: 53,
};

describe('STATES', () => {
  it('lists the 26 states and the Federal District', () => {
    expect(STATES).toHaveLength(27);
    expect(new Set(STATES.map((s) => s.uf))).toEqual(new Set(Object.keys(IBGE)));
  });

  it('has unique UF and IBGE codes', () => {
    expect(new Set(STATES.map((s) => s.uf)).size).toBe(27);
    expect(new Set(STATES.map((s) => s.ibge)).size).toBe(27);
  });

  it('gives every UF its IBGE code', () => {
    for (const s of STATES) expect(s.ibge, s.uf).toBe(IBGE[s.uf]);
  });

  it.each([
    ['SP', 'São Paulo', 35, [11, 12, 13, 14, 15, 16, 17, 18, 19]],
    ['RJ', 'Rio de Janeiro', 33, [21, 22, 24]],
    ['DF', 'Distrito Federal', 53, [61]],
    ['AC', 'Acre', 12, [68]],
    ['TO', 'Tocantins', 17, [63]],
  ])('knows %s (%s): IBGE %i, DDD %j', (uf, name, ibge, ddd) => {
    expect(stateByUf(uf)).toEqual({ name, uf, ibge, ddd });
  });

  it('assigns each of the 67 Brazilian area codes to exactly one state', () => {
    const all = STATES.flatMap((s) => s.ddd);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(67);
    for (const ddd of all) expect(String(ddd)).toMatch(/^[1-9][1-9]$/);
  });

  it('gives every state a non-empty name and at least one area code', () => {
    for (const s of STATES) {
      expect(s.name.trim().length, s.uf).toBeGreaterThan(0);
      expect(s.ddd.length, s.uf).toBeGreaterThan(0);
    }
  });
});

describe('UF_CODES', () => {
  it('is the UF codes of STATES, in order', () => {
    expect(UF_CODES).toEqual(STATES.map((s) => s.uf));
    expect(UF_CODES).toHaveLength(27);
    for (const uf of UF_CODES) expect(uf).toMatch(/^[A-Z]{2}$/);
  });
});

describe('stateByUf', () => {
  it('ignores case', () => {
    expect(stateByUf('sp')?.uf).toBe('SP');
    expect(stateByUf('Rj')?.ibge).toBe(33);
    expect(stateByUf('df')).toBe(stateByUf('DF'));
  });

  it('finds nothing for an unknown or malformed code', () => {
    expect(stateByUf('XX')).toBeUndefined();
    expect(stateByUf('')).toBeUndefined();
    expect(stateByUf('SPX')).toBeUndefined();
    expect(stateByUf('S')).toBeUndefined();
  });
});

describe('stateView', () => {
  it('joins the area codes with commas', () => {
    expect(stateView({ name: 'São Paulo', uf: 'SP', ibge: 35, ddd: [11, 12, 13] })).toEqual({ name: 'São Paulo', uf: 'SP', ibge: 35, ddd: '11,12,13' });
    expect(stateView({ name: 'Acre', uf: 'AC', ibge: 12, ddd: [68] }).ddd).toBe('68');
  });

  it('shows Rio de Janeiro as the API gives it', () => {
    const rj = stateByUf('RJ');
    expect(rj).toBeDefined();
    if (rj) expect(stateView(rj)).toEqual({ name: 'Rio de Janeiro', uf: 'RJ', ibge: 33, ddd: '21,22,24' });
  });
});
