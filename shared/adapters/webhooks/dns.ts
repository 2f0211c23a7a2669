import { lookup } from 'node:dns/promises';

/**
 * The DNS adapter of webhook hosts (its own module: the runtime holds it without bundling the URL
 * policy and its address library into every function).
 *
 * Resolves a hostname to all its A and AAAA addresses. An empty list means "no such address".
 */
export type Resolver = (hostname: string) => Promise<string[]>;

/** DNS error codes that mean "the name has no address" rather than "the lookup failed". */
const NO_ADDRESS_CODES = new Set(['ENOTFOUND', 'ENODATA']);

/** The real resolver (getaddrinfo through node:dns/promises). The only export that does I/O. */
export const dnsResolver: Resolver = async (hostname) => {
  try {
    const found = await lookup(hostname, { all: true, verbatim: true });
    return found.map((entry) => entry.address);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && NO_ADDRESS_CODES.has(code)) return [];
    throw error;
  }
};
