import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { withTimeout } from '../../platform/timeout';
import { DNS_TIMEOUT_DEFAULT_MS } from '../../domain/time-budgets';

/**
 * URL rules of `PUT /api/webhook` (spec 4.7): https only, no user or password, port 443 or 8443,
 * and a host that is (or resolves only to) ordinary public unicast addresses (SSRF protection).
 * DNS sits behind the `Resolver` port so the rules are testable without the network, and every
 * look-up runs under a hard time limit; the delivery side must connect to one of the returned
 * `addresses` (pinning), not resolve the name again.
 */

import type { Resolver } from './dns';

export { dnsResolver, type Resolver } from './dns';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * IANA global unicast (2000::/3). ipaddr.js's IPv6 `range()` answers 'unicast' for everything it
 * has no name for, including the deprecated IPv4-compatible block ::/96 (::7f00:1 is ::127.0.0.1)
 * and all unallocated space (4000::/2, …), so an IPv6 address must also be inside this block.
 */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
/** NAT64 well-known prefix (RFC 6052): the IPv4 address is the last 32 bits. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
/**
 * NAT64 local-use prefix (RFC 8215). The operator may carve any RFC 6052 prefix length out of it,
 * so the IPv4 address can sit in several places; every possible reading must be public.
 */
const NAT64_LOCAL_USE = ipaddr.IPv6.parseCIDR('64:ff9b:1::/48');
/** Byte positions of the embedded IPv4 address for RFC 6052 prefix lengths 48, 56, 64 and 96 (byte 8 is the "u" octet). */
const NAT64_LOCAL_USE_POSITIONS: readonly (readonly number[])[] = [
  [6, 7, 9, 10],
  [7, 9, 10, 11],
  [9, 10, 11, 12],
  [12, 13, 14, 15],
];

/**
 * Parses an IP address in canonical textual form only. Node's `isIP` refuses the shorthand and
 * numeric IPv4 forms that ipaddr.js would accept (`127.1`, `2130706433`, `010.0.0.1`); zone ids
 * (`fe80::1%eth0`) are refused; IPv6 text goes through the WHATWG URL host parser first because
 * ipaddr.js reads `::a.b.c.d` (IPv4-compatible) as `::ffff:a.b.c.d` (IPv4-mapped).
 */
function parseAddress(ip: string): Address | null {
  try {
    const family = isIP(ip);
    if (family === 4) return ipaddr.IPv4.parse(ip);
    if (family === 6 && !ip.includes('%')) return ipaddr.IPv6.parse(new URL(`http://[${ip}]/`).hostname.slice(1, -1));
  } catch {
    return null;
  }
  return null;
}

function ipv4FromBytes(bytes: readonly number[], positions: readonly number[]): ipaddr.IPv4 {
  return new ipaddr.IPv4(positions.map((index) => bytes[index] ?? 0));
}

/**
 * ipaddr.js names every IPv4 special range of the rules ('unspecified' is all of 0.0.0.0/8;
 * 'reserved' holds the documentation nets, 198.18.0.0/15, 192.0.0.0/24, 192.88.99.0/24 and
 * 240.0.0.0/4); anything with a name (including the anycast 'as112' and 'amt' blocks) is refused.
 */
function isPublicIPv4(address: ipaddr.IPv4): boolean {
  return address.range() === 'unicast';
}

function isPublicIPv6(address: ipaddr.IPv6): boolean {
  // IPv4-mapped (::ffff:a.b.c.d) and NAT64 forms reach the embedded IPv4 address: judge that one.
  if (address.isIPv4MappedAddress()) return isPublicIPv4(address.toIPv4Address());
  const bytes = address.toByteArray();
  if (address.match(NAT64_WELL_KNOWN)) return isPublicIPv4(ipv4FromBytes(bytes, [12, 13, 14, 15]));
  if (address.match(NAT64_LOCAL_USE)) return NAT64_LOCAL_USE_POSITIONS.every((positions) => isPublicIPv4(ipv4FromBytes(bytes, positions)));
  // 6to4 (2002::/16) and Teredo (2001::/32) embed other addresses (a 6to4 site's IPv4 address, a
  // Teredo server and an obfuscated client address) and are relayed by third parties: range()
  // names them '6to4' and 'teredo', so they fail the 'unicast' test below and are refused.
  return address.range() === 'unicast' && address.match(GLOBAL_UNICAST_V6);
}

/** True only for an ordinary public unicast IPv4 or IPv6 address in canonical text form. */
export function isPublicAddress(ip: string): boolean {
  const address = parseAddress(ip);
  if (address === null) return false;
  return address.kind() === 'ipv4' ? isPublicIPv4(address as ipaddr.IPv4) : isPublicIPv6(address as ipaddr.IPv6);
}

export type UrlCheck = { ok: true; url: URL; hostname: string; port: number; addresses: string[] } | { ok: false; errors: string[] };

export type UrlCheckOptions = {
  resolve: Resolver;
  /** A hard limit on the look-up (default DEFAULT_DNS_TIMEOUT_MS): past it the check fails ("DNS lookup timed out"). */
  dnsTimeoutMs?: number;
  /** Hostnames or IP literals (case-insensitive, exact) whose address checks are skipped. Local runs only. */
  allowPrivateHosts?: readonly string[];
};

export const MAX_WEBHOOK_URL_LENGTH = 255;
/** The look-up's limit when the caller gives none (the configuration's DNS_TIMEOUT_MS defaults to it too). */
export const DEFAULT_DNS_TIMEOUT_MS = DNS_TIMEOUT_DEFAULT_MS;
const ALLOWED_PORTS: readonly number[] = [443, 8443];

/** Lower-cases, drops IPv6 brackets and writes IP literals in the WHATWG URL's canonical form. */
function hostKey(host: string): string {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) === 6 && !bare.includes('%')) {
    try {
      return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
    } catch {
      return bare;
    }
  }
  return bare;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Resolves under a hard time limit. getaddrinfo cannot be cancelled: a look-up past the limit is
 * abandoned (its late answer or error is ignored) and the check fails at once.
 */
function resolveWithin(resolve: Resolver, hostname: string, timeoutMs: number): Promise<string[]> {
  return withTimeout(resolve(hostname), timeoutMs, () => new Error(`DNS lookup timed out after ${timeoutMs} ms`));
}

/**
 * Checks a webhook URL against the rules of `PUT /api/webhook`. Errors are human-readable strings;
 * the syntax rules are all reported together and DNS is consulted only when they pass. On success
 * `hostname` is the URL's host without IPv6 brackets and `addresses` are the checked addresses
 * (the literal itself for an IP host) to which delivery must pin its connection.
 */
export async function checkWebhookUrl(raw: string, options: UrlCheckOptions): Promise<UrlCheck> {
  if (typeof raw !== 'string' || raw.length === 0) return { ok: false, errors: ['must be a non-empty string'] };
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return { ok: false, errors: [`must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`] };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, errors: ['must be an absolute URL'] };
  }

  const errors: string[] = [];
  const https = url.protocol === 'https:';
  if (!https) errors.push('must use https');
  if (url.username !== '' || url.password !== '') errors.push('must not contain a user or password');
  // An empty port is the scheme's default: 443 for https (an explicit ":443" is normalized away).
  const port = url.port === '' ? (https ? 443 : null) : Number(url.port);
  if (port !== null && !ALLOWED_PORTS.includes(port)) errors.push('port must be 443 or 8443');
  if (url.hostname === '') errors.push('must have a host name');

  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const allowed = (options.allowPrivateHosts ?? []).some((host) => hostKey(host) === hostKey(hostname));
  const literal = url.hostname !== '' && isIP(hostname) !== 0;
  if (literal && !allowed && !isPublicAddress(hostname)) errors.push(`is a private or reserved address (${hostname})`);
  if (errors.length > 0 || port === null) return { ok: false, errors };
  if (literal) return { ok: true, url, hostname, port, addresses: [hostname] };

  let addresses: string[];
  try {
    addresses = await resolveWithin(options.resolve, hostname, options.dnsTimeoutMs ?? DEFAULT_DNS_TIMEOUT_MS);
  } catch (error) {
    return { ok: false, errors: [`host could not be resolved (${describeError(error)})`] };
  }
  if (addresses.length === 0) return { ok: false, errors: [`host does not resolve to any address (${hostname})`] };
  if (!allowed) {
    const refused = addresses.filter((address) => !isPublicAddress(address));
    if (refused.length > 0) return { ok: false, errors: [`resolves to a private or reserved address (${refused.join(', ')})`] };
  }
  return { ok: true, url, hostname, port, addresses };
}
