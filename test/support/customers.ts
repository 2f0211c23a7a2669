import { randomInt } from 'node:crypto';

/** A valid CPF built from a random 9-digit base with the official check-digit rule. */
export function randomCpf(): string {
  const base = Array.from({ length: 9 }, () => randomInt(10));
  if (base.every((d) => d === base[0])) base[0] = (base[0]! + 1) % 10;
  const digit = (digits: number[]) => {
    const sum = digits.reduce((acc, d, i) => acc + d * (digits.length + 1 - i), 0);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  const first = digit(base);
  const second = digit([...base, first]);
  return [...base, first, second].join('');
}

export function fullAddress() {
  return { zipcode: '01310-100', country_id: 76, state: 'SP', city: 'São Paulo', district: 'Bela Vista', street: 'Avenida Paulista', number: '1000' };
}

export function customerBody(overrides: Record<string, unknown> = {}) {
  const tag = randomInt(1_000_000_000);
  return { name: `Cliente ${tag}`, document: randomCpf(), document_type: 'CPF', email: `cliente${tag}@example.com`, ...overrides };
}
