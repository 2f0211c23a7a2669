import fc from 'fast-check';

/** JSON text written verbatim where a value goes: numbers JSON.stringify cannot write (1e400, -0), broken fragments. */
export class RawJson {
  constructor(readonly text: string) {}
  toString(): string {
    return `RawJson(${this.text.length > 60 ? `${this.text.slice(0, 60)}…` : this.text})`;
  }
}

/** An object written with its entries as given, so a key can appear twice. */
export class DuplicateKeys {
  constructor(readonly entries: readonly (readonly [string, unknown])[]) {}
  toString(): string {
    return `DuplicateKeys(${JSON.stringify(this.entries.map(([k]) => k))})`;
  }
}

/** JSON.stringify, except that RawJson is written verbatim and DuplicateKeys keeps every entry. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof DuplicateKeys) return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** `depth` arrays inside one another: `[[[…]]]`. */
export const deepArray = (depth: number) => new RawJson(`${'['.repeat(depth)}${']'.repeat(depth)}`);
/** `depth` objects inside one another: `{"a":{"a":…1}}`. */
export const deepObject = (depth: number) => new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

/** Numbers at and past the edges: overflow to ±Infinity, underflow, negative zero, binary fractions, exponents. */
export const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    new RawJson('1e400'),
    new RawJson('-1e400'),
    new RawJson('1e-400'),
    new RawJson('-0'),
    new RawJson('-0.0'),
    new RawJson('1E2'),
    new RawJson('100.000000000000000000001'),
    new RawJson('0.1e1'),
    0.1 + 0.2,
    999_999_999.999,
    999_999_999.99,
    999_999_999,
    1_000_000_000,
    9_999_999_999.99,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 2,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    -Number.MAX_VALUE,
    1e21,
    1e-7,
    -1,
    0,
    0.001,
    0.005,
    0.01,
    3.335,
    3.3335,
    3.33335,
    100,
    100.0001,
    100.00001,
    2 ** 31,
    -(2 ** 31),
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: 0, max: 10_000_000 }).map((n) => n / 100),
);

/** Strings that break naive code: empty, long, control characters, lone surrogates, right-to-left marks, injections, numbers as text. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '   \t\n',
    '0',
    '-1',
    '1e400',
    'NaN',
    'Infinity',
    'null',
    'undefined',
    'true',
    '[]',
    '{}',
    '0x10',
    '1_000',
    '00000000000000000001',
    '9'.repeat(40),
    'x'.repeat(5_000),
    'é'.repeat(3_000),
    '\u0000',
    'a\u0000b',
    '\u0007\u001b[31m\u007f',
    '\u202eevil',
    '\ud800',
    '\udfff',
    'x\ud83d',
    '😀',
    '🇧🇷'.repeat(50),
    'São Paulo – ção',
    'İıß',
    '\u200b\u200d\ufeff',
    '\r\n',
    '%00',
    '%',
    '%2F',
    '../../etc/passwd',
    "' OR '1'='1",
    '"; DROP TABLE x; --',
    '${7*7}{{7*7}}',
    '<script>alert(1)</script>',
    'INV-AAAAAA',
    'WD-AAAAAAAAAAAA',
    'ACCT#x',
    '#',
    '__proto__',
    'constructor',
    'a'.repeat(2_049),
    '2030-02-30',
    '2030-01-31T00:00:00Z',
    '529.982.247-25',
    'maria@example.com',
    '4111111111111111',
    'https://93.184.215.14/hook',
  ),
  fc.string({ unit: 'binary', maxLength: 48 }),
  fc.string({ unit: 'grapheme', maxLength: 48 }),
  fc.string({ unit: fc.constantFrom('0', '1', '9', '-', '.', '/', ' ', 'e', '+'), maxLength: 24 }),
  fc.integer().map(String),
  fc.double().map(String),
);

/** Any JSON value a client could send in place of a field: hostile numbers and strings, other types, nesting. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileNumber, weight: 4 },
  { arbitrary: hostileString, weight: 4 },
  {
    arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [1], ['x'], { a: 1 }, deepArray(40), deepObject(40), deepArray(5_000)),
    weight: 2,
  },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
  { arbitrary: fc.array(hostileNumber, { maxLength: 3 }), weight: 1 },
);

/** Names a client could add beside the real fields. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    '',
    ' ',
    'toString',
    'hasOwnProperty',
    'PK',
    'SK',
    'accountId',
    'status',
    'id',
    'total',
    '$where',
    'a.b',
    'k'.repeat(300),
    '\u0000',
    '😀',
  ),
  fc.string({ unit: 'grapheme', maxLength: 16 }),
);

/** Whole bodies that are not a JSON object: nothing, blanks, other JSON types, broken or odd JSON. */
export const hostileWholeBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\n\t ',
    'null',
    'true',
    '0',
    '-0',
    '1e400',
    '"text"',
    '[]',
    '[{}]',
    '[1,2,3]',
    '{',
    '}',
    '{"a":',
    '{"a":1,}',
    "{'a':1}",
    '{"a":1}{"b":2}',
    '{a:1}',
    '\u0000',
    '\ufeff{}',
    'NaN',
    '{"__proto__":{"admin":true}}',
    '{"constructor":{"prototype":{"admin":true}}}',
    'amount=100&quantity=1',
    '<xml/>',
    toJsonText(deepArray(100_000)),
    toJsonText(deepObject(20_000)),
    `{"x":${toJsonText(deepArray(100_000))}}`,
  ),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
);

/** Strings in the shapes a path parameter takes, right and wrong. */
export const nearIds: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^\d{1,16}$/),
  fc.stringMatching(/^\d{17,30}$/),
  fc.stringMatching(/^INV-[A-Z0-9]{6}$/),
  fc.stringMatching(/^WD-[A-Z0-9]{12}$/),
  fc.stringMatching(/^[A-Za-z0-9]{32}$/),
  fc.stringMatching(/^\d{5}-?\d{3}$/),
);
