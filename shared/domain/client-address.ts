/**
 * The key per-address limits count a client under (issue 43). One IPv6 subscriber gets a whole /64
 * (RFC 6177, and SLAAC gives every device its own addresses in it, changing them at will): counted
 * address by address, one client would have 2^64 counters. So an IPv6 address counts under its /64
 * prefix, an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, a dual-stack socket's form) under its IPv4,
 * and an IPv4 address as it is. Only the counting key changes: logs, sessions and the audit keep the
 * full address. Pure, no dependency: every API function counts per address, and each stays within its
 * bundle budget.
 */

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const GROUP = /^[0-9a-f]{1,4}$/;

/** The eight 16-bit groups of an IPv6 literal (`::` compression and a trailing dotted IPv4 allowed), or undefined. */
function ipv6Groups(text: string): number[] | undefined {
  const halves = text.toLowerCase().split('::');
  if (halves.length > 2) return undefined;
  const parts = halves.map((half) => (half === '' ? [] : half.split(':')));
  const last = parts[parts.length - 1] ?? [];
  const tail = last[last.length - 1];
  // A trailing a.b.c.d is the last two groups.
  if (tail !== undefined && tail.includes('.')) {
    if (!IPV4.test(tail)) return undefined;
    const [a = 0, b = 0, c = 0, d = 0] = tail.split('.').map(Number);
    last.splice(last.length - 1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
  }
  if (parts.some((groups) => groups.some((group) => !GROUP.test(group)))) return undefined;
  const [head = [], rest = []] = parts;
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  return [...head, ...(halves.length === 2 ? Array<string>(missing).fill('0') : []), ...rest].map((group) => parseInt(group, 16));
}

/**
 * The counting key of a client address: an IPv4 address as it is; an IPv4-mapped IPv6 address as its
 * IPv4 ("::ffff:192.0.2.7" → "192.0.2.7"); any other IPv6 address as its /64 prefix in RFC 5952 form
 * ("2001:DB8:1:2:a:b:c:d" → "2001:db8:1:2::/64"). Anything else (no address: "unknown") as it is.
 */
export function addressKey(address: string): string {
  if (IPV4.test(address)) return address;
  const groups = address.includes(':') ? ipv6Groups(address) : undefined;
  if (!groups) return address;
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) return `${g6 >> 8}.${g6 & 0xff}.${g7 >> 8}.${g7 & 0xff}`;
  const prefix = groups.slice(0, 4);
  while (prefix.length > 0 && prefix[prefix.length - 1] === 0) prefix.pop();
  return `${prefix.map((group) => group.toString(16)).join(':')}::/64`;
}
