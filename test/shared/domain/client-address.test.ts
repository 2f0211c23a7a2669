import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { addressKey } from '../../../shared/domain/client-address';

const group = fc.integer({ min: 0, max: 0xffff });
/** An IPv6 address as eight groups, with zero-heavy groups often (so `::` and zero prefixes come up). */
const groups = fc.array(fc.oneof(group, fc.constant(0)), { minLength: 8, maxLength: 8 });

/** The groups written as a literal: RFC 5952 (ipaddr.js), fully expanded with leading zeros, or uncompressed in upper case. */
function written(g: number[], style: number): string {
  const address = new ipaddr.IPv6(g);
  if (style === 0) return address.toString();
  if (style === 1) return g.map((x) => x.toString(16).padStart(4, '0')).join(':');
  return address.toNormalizedString().toUpperCase();
}

/** The /64 the oracle (ipaddr.js) names: its network address in RFC 5952 form. */
const oracle64 = (g: number[]) => `${ipaddr.IPv6.networkAddressFromCIDR(`${new ipaddr.IPv6(g).toString()}/64`).toString()}/64`;

const notMapped = (g: number[]) => !(g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff);

describe('the counting key of a client address (issue 43: a /64 is one client)', () => {
  it('keeps an IPv4 address as it is', () => {
    for (const ip of ['192.0.2.7', '10.0.0.1', '255.255.255.255', '0.0.0.0']) expect(addressKey(ip)).toBe(ip);
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4, in either form', () => {
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('::FFFF:c000:0207')).toBe('192.0.2.7');
    expect(addressKey('0:0:0:0:0:ffff:10.1.2.3')).toBe('10.1.2.3');
  });

  it('counts an IPv6 address under its /64 prefix, in RFC 5952 form', () => {
    expect(addressKey('2001:db8:1:2:a:b:c:d')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:DB8:0001:0002:0000:0000:0000:0001')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8::/64');
    expect(addressKey('2001:db8:0:0:1::')).toBe('2001:db8::/64');
    expect(addressKey('0:0:0:1::5')).toBe('0:0:0:1::/64');
    expect(addressKey('::1')).toBe('::/64');
    expect(addressKey('fe80::1:2:3:4')).toBe('fe80::/64');
    expect(addressKey('2001:db8:1:2:3:4:192.0.2.7')).toBe('2001:db8:1:2::/64');
  });

  it('keeps what is no address as it is (the shared "unknown" counter)', () => {
    for (const text of ['unknown', '', '1:2:3', '1::2::3', '12345::', '1:2:3:4:5:6:7:8:9', 'g::1', '::ffff:300.1.2.3', '1.2.3', '01.2.3.4']) {
      expect(addressKey(text)).toBe(text);
    }
  });

  it('gives any two addresses of one /64 the same key, the /64 ipaddr.js names, however written', () => {
    fc.assert(
      fc.property(
        groups,
        fc.array(group, { minLength: 4, maxLength: 4 }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 2 }),
        (g, host, s1, s2) => {
          const other = [...g.slice(0, 4), ...host];
          fc.pre(notMapped(g) && notMapped(other));
          expect(addressKey(written(g, s1))).toBe(oracle64(g));
          expect(addressKey(written(other, s2))).toBe(addressKey(written(g, s1)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('gives addresses of different /64s different keys', () => {
    fc.assert(
      fc.property(groups, groups, (a, b) => {
        fc.pre(notMapped(a) && notMapped(b) && a.slice(0, 4).some((x, i) => x !== b[i]));
        expect(addressKey(written(a, 0))).not.toBe(addressKey(written(b, 0)));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives an IPv4 address and its mapped IPv6 form one key, and different IPv4 addresses different keys', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.ipV4(), (a, b) => {
        expect(addressKey(`::ffff:${a}`)).toBe(addressKey(a));
        if (a !== b) expect(addressKey(a)).not.toBe(addressKey(b));
      }),
    );
  });
});
