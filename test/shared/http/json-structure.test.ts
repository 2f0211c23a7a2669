import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstDuplicateKey, nestsDeeperThan } from '../../../shared/http/json-structure';

describe('firstDuplicateKey', () => {
  it('finds a key repeated in one object, at any depth, however it is escaped', () => {
    expect(firstDuplicateKey('{"a":1,"a":2}')).toBe('a');
    expect(firstDuplicateKey('{"a":1,"b":{"c":1,"c":2}}')).toBe('c');
    expect(firstDuplicateKey('[1,{"x":[{"k":1,"k":1}]}]')).toBe('k');
    expect(firstDuplicateKey('{"amount":1,"\\u0061mount":2}')).toBe('amount');
    expect(firstDuplicateKey('{"a\\"b":1,"a\\"b":2}')).toBe('a"b');
    expect(firstDuplicateKey('{"":1,"":2}')).toBe('');
  });

  it('does not mistake values, strings holding braces, or keys of sibling objects for repeats', () => {
    expect(firstDuplicateKey('{"a":"a","b":"a"}')).toBeUndefined();
    expect(firstDuplicateKey('{"a":{"a":{"a":1}}}')).toBeUndefined();
    expect(firstDuplicateKey('[{"a":1},{"a":2}]')).toBeUndefined();
    expect(firstDuplicateKey('{"a":"{\\"b\\":1,\\"b\\":2}","b":["a","a"]}')).toBeUndefined();
    expect(firstDuplicateKey('{"x":[{"a":1},{"a":1}],"a":3}')).toBeUndefined();
  });

  it('agrees with JSON.parse: a text has no repeat exactly when its keys survive parsing (property)', () => {
    const entries = fc.array(fc.tuple(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 2 })), { maxLength: 6 });
    fc.assert(
      fc.property(entries, (pairs) => {
        const text = `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
        const topRepeats = new Set(pairs.map(([k]) => k)).size !== pairs.length;
        const nested = pairs.some(([, v]) => firstDuplicateKey(JSON.stringify(v)) !== undefined);
        expect(firstDuplicateKey(text) !== undefined).toBe(topRepeats || nested);
      }),
      { numRuns: 500 },
    );
  });

  it('scans 100,000 levels of nesting without exhausting the stack', () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    expect(firstDuplicateKey(deep)).toBeUndefined();
  });
});

describe('nestsDeeperThan', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    expect(nestsDeeperThan('[[[]]]', 3)).toBe(false);
    expect(nestsDeeperThan('[[[[]]]]', 3)).toBe(true);
    expect(nestsDeeperThan('{"a":{"b":{"c":{}}}}', 3)).toBe(true);
    expect(nestsDeeperThan('{"a":"[[[[[[[[[[","b":"\\"[[[["}', 1)).toBe(false);
    expect(nestsDeeperThan('[[],[],[[]]]', 3)).toBe(false);
  });

  it('stops early on huge nesting and takes broken JSON', () => {
    expect(nestsDeeperThan('['.repeat(1_000_000), 32)).toBe(true);
    expect(nestsDeeperThan('{"a":', 32)).toBe(false);
    expect(nestsDeeperThan('"unterminated [[[[', 1)).toBe(false);
  });
});
