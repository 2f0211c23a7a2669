import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { checkWebhookUrl, DEFAULT_DNS_TIMEOUT_MS, isPublicAddress, type Resolver, type UrlCheck } from '../../../../shared/adapters/webhooks/url-policy';

/** Fake DNS: names absent from the map make the test fail loudly; 'broken.example' simulates a DNS failure. */
const DNS = new Map<string, string[]>([
  ['example.com', ['93.184.216.34']],
  ['mixed.example', ['93.184.216.34', '10.0.0.5']],
  ['v6only.example', ['2606:4700::6810:85e5']],
  ['dual.example', ['93.184.216.34', '2606:4700::6810:85e5']],
  ['private.example', ['192.168.0.10']],
  ['metadata.example', ['169.254.169.254']],
  ['mapped.example', ['::ffff:10.0.0.1']],
  ['empty.example', []],
  ['localhost', ['127.0.0.1', '::1']],
]);

function fakeResolver(lookups: string[] = []): Resolver {
  return async (hostname) => {
    lookups.push(hostname);
    if (hostname === 'broken.example') throw new Error('queryA ESERVFAIL broken.example');
    const found = DNS.get(hostname);
    if (found === undefined) throw new Error(`test resolver has no entry for ${hostname}`);
    return [...found];
  };
}

type Expected = { ok: true; addresses: string[]; port: number; hostname: string } | { ok: false; error: string };

const ok = (hostname: string, addresses: string[], port = 443): Expected => ({ ok: true, hostname, addresses, port });
const fails = (error: string): Expected => ({ ok: false, error });
const privateLiteral = (ip: string): Expected => fails(`is a private or reserved address (${ip})`);

const LONG_PATH_255 = `https://example.com/${'a'.repeat(255 - 'https://example.com/'.length)}`;
const LONG_PATH_256 = `${LONG_PATH_255}a`;

const TABLE: [string, string, Expected][] = [
  ['plain https host resolving to a public IPv4', 'https://example.com/hook', ok('example.com', ['93.184.216.34'])],
  ['http scheme', 'http://example.com/hook', fails('must use https')],
  ['ftp scheme', 'ftp://example.com/hook', fails('must use https')],
  ['user and password', 'https://user:pass@example.com/hook', fails('must not contain a user or password')],
  ['user only', 'https://user@example.com/hook', fails('must not contain a user or password')],
  ['port 80', 'https://example.com:80/hook', fails('port must be 443 or 8443')],
  ['port 8080', 'https://example.com:8080/hook', fails('port must be 443 or 8443')],
  ['port 444', 'https://example.com:444/hook', fails('port must be 443 or 8443')],
  ['port 8443', 'https://example.com:8443/hook', ok('example.com', ['93.184.216.34'], 8443)],
  ['explicit port 443', 'https://example.com:443/hook', ok('example.com', ['93.184.216.34'], 443)],
  ['loopback literal', 'https://127.0.0.1/hook', privateLiteral('127.0.0.1')],
  ['10/8 literal', 'https://10.1.2.3/hook', privateLiteral('10.1.2.3')],
  ['172.16/12 first', 'https://172.16.0.1/hook', privateLiteral('172.16.0.1')],
  ['172.16/12 last', 'https://172.31.255.255/hook', privateLiteral('172.31.255.255')],
  ['192.168/16', 'https://192.168.1.1/hook', privateLiteral('192.168.1.1')],
  ['cloud metadata (link-local)', 'https://169.254.169.254/latest/meta-data', privateLiteral('169.254.169.254')],
  ['CGNAT 100.64/10', 'https://100.64.0.1/hook', privateLiteral('100.64.0.1')],
  ['unspecified 0.0.0.0', 'https://0.0.0.0/hook', privateLiteral('0.0.0.0')],
  ['multicast', 'https://224.0.0.1/hook', privateLiteral('224.0.0.1')],
  ['limited broadcast', 'https://255.255.255.255/hook', privateLiteral('255.255.255.255')],
  ['reserved 240/4', 'https://240.0.0.1/hook', privateLiteral('240.0.0.1')],
  ['documentation TEST-NET-1', 'https://192.0.2.1/hook', privateLiteral('192.0.2.1')],
  ['documentation TEST-NET-2', 'https://198.51.100.7/hook', privateLiteral('198.51.100.7')],
  ['documentation TEST-NET-3', 'https://203.0.113.9/hook', privateLiteral('203.0.113.9')],
  ['benchmarking 198.18/15', 'https://198.18.0.1/hook', privateLiteral('198.18.0.1')],
  ['decimal-integer loopback (URL makes it 127.0.0.1)', 'https://2130706433/hook', privateLiteral('127.0.0.1')],
  ['IPv6 loopback', 'https://[::1]/hook', privateLiteral('::1')],
  ['IPv6 unspecified', 'https://[::]/hook', privateLiteral('::')],
  ['IPv6 link-local', 'https://[fe80::1]/hook', privateLiteral('fe80::1')],
  ['IPv6 unique local fc00::', 'https://[fc00::1]/hook', privateLiteral('fc00::1')],
  ['IPv6 unique local fd00::/8', 'https://[fd12:3456::1]/hook', privateLiteral('fd12:3456::1')],
  ['IPv6 documentation', 'https://[2001:db8::1]/hook', privateLiteral('2001:db8::1')],
  ['IPv4-mapped loopback (URL writes it in hex)', 'https://[::ffff:127.0.0.1]/hook', privateLiteral('::ffff:7f00:1')],
  ['IPv4-mapped 10/8', 'https://[::ffff:10.0.0.1]/hook', privateLiteral('::ffff:a00:1')],
  ['NAT64 of 10.0.0.1', 'https://[64:ff9b::a00:1]/hook', privateLiteral('64:ff9b::a00:1')],
  ['6to4', 'https://[2002:a00:1::]/hook', privateLiteral('2002:a00:1::')],
  ['Teredo', 'https://[2001::1]/hook', privateLiteral('2001::1')],
  ['IPv4-compatible ::127.0.0.1 (range() says unicast)', 'https://[::127.0.0.1]/hook', privateLiteral('::7f00:1')],
  ['public IPv4 literal', 'https://93.184.216.34/hook', ok('93.184.216.34', ['93.184.216.34'])],
  ['public IPv6 literal', 'https://[2606:4700::6810:85e5]:8443/hook', ok('2606:4700::6810:85e5', ['2606:4700::6810:85e5'], 8443)],
  ['IPv4-mapped public address', 'https://[::ffff:93.184.216.34]/hook', ok('::ffff:5db8:d822', ['::ffff:5db8:d822'])],
  ['NAT64 of a public address', 'https://[64:ff9b::5db8:d822]/hook', ok('64:ff9b::5db8:d822', ['64:ff9b::5db8:d822'])],
  ['host resolving to public and private', 'https://mixed.example/hook', fails('resolves to a private or reserved address (10.0.0.5)')],
  ['host resolving to a private address', 'https://private.example/hook', fails('resolves to a private or reserved address (192.168.0.10)')],
  ['host resolving to the metadata address', 'https://metadata.example/hook', fails('resolves to a private or reserved address (169.254.169.254)')],
  ['host resolving to a mapped private address', 'https://mapped.example/hook', fails('resolves to a private or reserved address (::ffff:10.0.0.1)')],
  ['localhost without the allow list', 'https://localhost/hook', fails('resolves to a private or reserved address (127.0.0.1, ::1)')],
  ['host resolving only to a public AAAA', 'https://v6only.example/hook', ok('v6only.example', ['2606:4700::6810:85e5'])],
  ['host resolving to public A and AAAA', 'https://dual.example/hook', ok('dual.example', ['93.184.216.34', '2606:4700::6810:85e5'])],
  ['host resolving to nothing', 'https://empty.example/hook', fails('host does not resolve to any address (empty.example)')],
  ['resolver failure', 'https://broken.example/hook', fails('host could not be resolved (queryA ESERVFAIL broken.example)')],
  ['255 characters', LONG_PATH_255, ok('example.com', ['93.184.216.34'])],
  ['256 characters', LONG_PATH_256, fails('must be at most 255 characters')],
  ['not a URL', 'not a url', fails('must be an absolute URL')],
  ['relative URL', '/webhooks/payments', fails('must be an absolute URL')],
  ['empty string', '', fails('must be a non-empty string')],
  ['uppercase scheme and host', 'HTTPS://EXAMPLE.COM/Hook', ok('example.com', ['93.184.216.34'])],
];

function summarize(result: UrlCheck): Expected | { ok: false; errors: string[] } {
  return result.ok ? { ok: true, hostname: result.hostname, addresses: result.addresses, port: result.port } : { ok: false, errors: result.errors };
}

describe('checkWebhookUrl', () => {
  it('has a table of at least 30 cases', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(30);
  });

  it.each(TABLE)('%s: %s', async (_label, url, expected) => {
    const result = await checkWebhookUrl(url, { resolve: fakeResolver() });
    if (expected.ok) {
      expect(summarize(result)).toEqual(expected);
    } else {
      expect(result.ok).toBe(false);
      expect(result.ok ? [] : result.errors).toContain(expected.error);
    }
  });

  it('returns the normalized URL', async () => {
    const result = await checkWebhookUrl('HTTPS://EXAMPLE.COM:443/Hook?x=1', { resolve: fakeResolver() });
    expect(result.ok && result.url.href).toBe('https://example.com/Hook?x=1');
  });

  it('reports every syntax violation at once and does not touch DNS for a rejected URL', async () => {
    const lookups: string[] = [];
    const result = await checkWebhookUrl('http://u:p@example.com:8080/hook', { resolve: fakeResolver(lookups) });
    expect(result).toEqual({ ok: false, errors: ['must use https', 'must not contain a user or password', 'port must be 443 or 8443'] });
    expect(lookups).toEqual([]);
  });

  it('does not call the resolver for IP literals', async () => {
    const lookups: string[] = [];
    await checkWebhookUrl('https://93.184.216.34/hook', { resolve: fakeResolver(lookups) });
    await checkWebhookUrl('https://10.0.0.1/hook', { resolve: fakeResolver(lookups) });
    expect(lookups).toEqual([]);
  });

  it('lists every refused address of a name', async () => {
    const resolve: Resolver = async () => ['93.184.216.34', '10.0.0.5', 'fd00::7', '8.8.8.8'];
    expect(await checkWebhookUrl('https://many.example/', { resolve })).toEqual({
      ok: false,
      errors: ['resolves to a private or reserved address (10.0.0.5, fd00::7)'],
    });
  });

  it('treats an address the resolver returns in an unparseable form as not public', async () => {
    const resolve: Resolver = async () => ['93.184.216.34', 'garbage'];
    const result = await checkWebhookUrl('https://odd.example/', { resolve });
    expect(result).toEqual({ ok: false, errors: ['resolves to a private or reserved address (garbage)'] });
  });

  it('turns a non-Error rejection of the resolver into an error message', async () => {
    const resolve: Resolver = () => Promise.reject('timeout');
    expect(await checkWebhookUrl('https://slow.example/', { resolve })).toEqual({ ok: false, errors: ['host could not be resolved (timeout)'] });
  });
});

describe('checkWebhookUrl: the DNS look-up has a hard time limit', () => {
  const hanging: Resolver = () => new Promise<string[]>(() => undefined);

  it('a look-up that never answers fails the check once the limit passes ("DNS lookup timed out")', async () => {
    expect(await checkWebhookUrl('https://hang.example/hook', { resolve: hanging, dnsTimeoutMs: 40 })).toEqual({
      ok: false,
      errors: ['host could not be resolved (DNS lookup timed out after 40 ms)'],
    });
  });

  it('without a limit given, waits DEFAULT_DNS_TIMEOUT_MS (2 s), not longer', async () => {
    vi.useFakeTimers();
    try {
      let settled: UrlCheck | undefined;
      const check = checkWebhookUrl('https://hang.example/hook', { resolve: hanging }).then((result) => {
        settled = result;
      });
      await vi.advanceTimersByTimeAsync(DEFAULT_DNS_TIMEOUT_MS - 1);
      expect(settled).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      await check;
      expect(settled).toEqual({ ok: false, errors: ['host could not be resolved (DNS lookup timed out after 2000 ms)'] });
      expect(DEFAULT_DNS_TIMEOUT_MS).toBe(2000);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an answer in time is used, and a late answer after the limit changes nothing', async () => {
    let answer: (addresses: string[]) => void = () => undefined;
    const late: Resolver = () => new Promise<string[]>((resolve) => (answer = resolve));
    const result = await checkWebhookUrl('https://late.example/hook', { resolve: late, dnsTimeoutMs: 20 });
    answer(['93.184.216.34']);
    expect(result).toEqual({ ok: false, errors: ['host could not be resolved (DNS lookup timed out after 20 ms)'] });
    const quick: Resolver = () => new Promise<string[]>((resolve) => setTimeout(() => resolve(['93.184.216.34']), 5));
    expect(summarize(await checkWebhookUrl('https://quick.example/hook', { resolve: quick, dnsTimeoutMs: 1_000 }))).toEqual(
      ok('quick.example', ['93.184.216.34']),
    );
  });
});

describe('checkWebhookUrl with allowPrivateHosts', () => {
  const allow = { resolve: fakeResolver(), allowPrivateHosts: ['LocalHost', '127.0.0.1', '[0:0::1]'] };

  it('lets a listed host through to its private addresses (case-insensitive)', async () => {
    expect(summarize(await checkWebhookUrl('https://localhost:8443/hook', allow))).toEqual(ok('localhost', ['127.0.0.1', '::1'], 8443));
  });

  it('lets listed IP literals through, IPv6 compared in canonical form', async () => {
    expect(summarize(await checkWebhookUrl('https://127.0.0.1/hook', allow))).toEqual(ok('127.0.0.1', ['127.0.0.1']));
    expect(summarize(await checkWebhookUrl('https://[::1]/hook', allow))).toEqual(ok('::1', ['::1']));
  });

  it('still refuses http, a wrong port and credentials for a listed host', async () => {
    expect(await checkWebhookUrl('http://localhost/hook', allow)).toEqual({ ok: false, errors: ['must use https'] });
    expect(await checkWebhookUrl('https://localhost:80/hook', allow)).toEqual({ ok: false, errors: ['port must be 443 or 8443'] });
    expect(await checkWebhookUrl('https://a:b@localhost/hook', allow)).toEqual({ ok: false, errors: ['must not contain a user or password'] });
  });

  it('does not extend to other hosts', async () => {
    expect(await checkWebhookUrl('https://10.0.0.1/hook', allow)).toEqual({ ok: false, errors: ['is a private or reserved address (10.0.0.1)'] });
    expect(await checkWebhookUrl('https://private.example/hook', allow)).toEqual({
      ok: false,
      errors: ['resolves to a private or reserved address (192.168.0.10)'],
    });
    // Not an exact match: 'localhost.' (trailing dot) or a subdomain is not 'localhost'.
    const dotted = await checkWebhookUrl('https://localhost./hook', { resolve: async () => ['127.0.0.1'], allowPrivateHosts: ['localhost'] });
    expect(dotted.ok).toBe(false);
  });

  it('still requires the listed name to resolve', async () => {
    const result = await checkWebhookUrl('https://empty.example/', { resolve: fakeResolver(), allowPrivateHosts: ['empty.example'] });
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.errors.join()).toContain('does not resolve');
  });
});

describe('isPublicAddress', () => {
  const publicAddresses = [
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '11.0.0.1', // just after 10/8
    '172.15.255.255', // just before 172.16/12
    '172.32.0.1', // just after 172.16/12
    '192.167.255.255',
    '192.169.0.1',
    '100.63.255.255', // just before 100.64/10
    '100.128.0.0', // just after 100.64/10
    '169.253.255.255',
    '169.255.0.1',
    '198.17.255.255', // just before 198.18/15
    '198.20.0.0', // just after 198.18/15
    '223.255.255.255', // just before multicast
    '1.0.0.0', // just after 0/8
    '2606:4700::6810:85e5',
    '2a00:1450:4001:80b::200e',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '::ffff:5db8:d822',
    '64:ff9b::808:808',
    '64:ff9b::8.8.8.8',
    // NAT64 local-use prefix: public under every RFC 6052 reading (/48: 93.184.93.8, /56: 184.93.8.8, /64: 93.8.8.8, /96: 8.8.8.8).
    '64:ff9b:1:5db8:5d:808:808:808',
  ];
  const notPublic = [
    '',
    'not-an-ip',
    'example.com',
    '127.1', // shorthand forms ipaddr.js would accept
    '2130706433',
    '0x7f000001',
    '010.0.0.1',
    '256.1.1.1',
    '1.2.3.4.5',
    '[::1]',
    'fe80::1%eth0',
    '2606:4700::1%eth0', // a zone id has no meaning off-link
    '0.1.2.3', // 0/8
    '10.255.255.255',
    '127.255.255.254',
    '100.127.255.255',
    '169.254.0.1',
    '198.19.255.255',
    '192.0.0.8', // IETF protocol assignments
    '192.88.99.1', // 6to4 relay anycast
    '239.255.255.250',
    '255.255.255.254',
    '::ffff:127.0.0.1',
    '::ffff:192.168.0.1',
    '::ffff:0:808:808', // IPv4-translated (RFC 6145)
    '::8.8.8.8', // IPv4-compatible (deprecated); ipaddr.js alone would read it as ::ffff:8.8.8.8
    '::7f00:1',
    '64:ff9b::7f00:1',
    '64:ff9b::192.168.1.1',
    '64:ff9b:1::a00:1', // local-use NAT64 of 10.0.0.1
    '64:ff9b:1::808:808', // /96 reading is public, /48 reading is 0.0.0.0
    '2002:5db8:d822::1', // 6to4 even of a public IPv4 address
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
    '2001:2::1', // benchmarking
    '3fff::1', // documentation (RFC 9637)
    'fec0::1', // deprecated site-local
    'ff02::1',
    'ff0e::1',
    '100::1', // discard
    '4000::1', // outside 2000::/3
    'e000::1',
  ];

  it.each(publicAddresses)('%s is public', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it.each(notPublic)('%j is not public', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  const octet = fc.integer({ min: 0, max: 255 });
  const tenSlashEight = fc.tuple(octet, octet, octet).map(([b, c, d]) => `10.${b}.${c}.${d}`);
  const anyIPv4 = fc.tuple(octet, octet, octet, octet).map((octets) => octets.join('.'));

  it('no IPv4 address inside 10.0.0.0/8 is public, nor its IPv4-mapped or NAT64 form', () => {
    fc.assert(
      fc.property(tenSlashEight, (ip) => {
        expect(isPublicAddress(ip)).toBe(false);
        expect(isPublicAddress(`::ffff:${ip}`)).toBe(false);
        expect(isPublicAddress(`64:ff9b::${ip}`)).toBe(false);
      }),
    );
  });

  it('the IPv4-mapped and NAT64 forms of any IPv4 address get the verdict of that address', () => {
    fc.assert(
      fc.property(anyIPv4, (ip) => {
        const verdict = isPublicAddress(ip);
        expect(isPublicAddress(`::ffff:${ip}`)).toBe(verdict);
        expect(isPublicAddress(`64:ff9b::${ip}`)).toBe(verdict);
      }),
    );
  });

  it('a name is refused whenever any of its addresses is inside 10.0.0.0/8', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<string>('93.184.216.34', '2606:4700::6810:85e5'), { maxLength: 4 }),
        tenSlashEight,
        fc.nat(),
        async (publics, bad, at) => {
          const addresses = [...publics];
          addresses.splice(at % (publics.length + 1), 0, bad);
          const result = await checkWebhookUrl('https://name.example/', { resolve: async () => addresses });
          expect(result).toEqual({ ok: false, errors: [`resolves to a private or reserved address (${bad})`] });
        },
      ),
    );
  });
});
