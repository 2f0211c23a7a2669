import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { stack } from '../../support/api';

/**
 * Issue 17, item 10: every listener of the local stack (the HTTP gateway, DynamoDB Local, the fauxqs
 * SQS emulator, the Secrets Manager endpoint; none authenticates) is bound to loopback only.
 */

type Listener = { address: string; port: number };

/** An address of /proc/net/tcp{,6} (each 32-bit word in host byte order, little-endian here). */
function procAddress(hex: string): string {
  const words = hex.match(/.{8}/g) ?? [];
  const bytes = words.flatMap((word) => (word.match(/../g) ?? []).reverse().map((b) => parseInt(b, 16)));
  if (bytes.length === 4) return bytes.join('.');
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return `::ffff:${bytes.slice(12).join('.')}`;
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::');
}

/** The sockets listening on this machine, as the kernel lists them. */
function listeners(): Listener[] {
  const found: Listener[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (!local || state !== '0A') continue; // 0A: LISTEN
      const [hex = '', port = ''] = local.split(':');
      found.push({ address: procAddress(hex), port: parseInt(port, 16) });
    }
  }
  return found;
}

const isLoopback = (address: string) => /^127\./.test(address) || /^::ffff:127\./.test(address) || address === '::1';

/** Whether a TCP connection to address:port is accepted. */
function accepts(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port, timeout: 2000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

function stackPorts(): [string, number][] {
  const s = stack();
  return [
    ['HTTP gateway', Number(new URL(s.baseUrl).port)],
    ['DynamoDB Local', s.dynamodbPort],
    ['SQS (fauxqs)', s.sqsPort],
    ['Secrets Manager endpoint', Number(new URL(s.secretsEndpoint).port)],
  ];
}

/** This machine's own non-loopback addresses (IPv4 and IPv6, link-local excluded). */
function outsideAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && !a.internal && !a.address.startsWith('fe80:'))
    .map((a) => a?.address ?? '');
}

describe('the local stack listens on loopback only', () => {
  it.each(stackPorts())('%s: every listening socket of its port is a loopback address', (_name, port) => {
    const bound = listeners().filter((l) => l.port === port);
    expect(bound.length).toBeGreaterThan(0);
    expect(bound.filter((l) => !isLoopback(l.address))).toEqual([]);
  });

  it.each(stackPorts())('%s: reachable on 127.0.0.1, refused on every other address of this machine', async (_name, port) => {
    expect(await accepts('127.0.0.1', port)).toBe(true);
    for (const address of outsideAddresses()) expect({ address, accepted: await accepts(address, port) }).toEqual({ address, accepted: false });
  });

  it('reads /proc/net addresses correctly (the check above can fail)', () => {
    expect(procAddress('0100007F')).toBe('127.0.0.1');
    expect(procAddress('00000000')).toBe('0.0.0.0');
    expect(procAddress('0000000000000000FFFF00000100007F')).toBe('::ffff:127.0.0.1');
    expect(procAddress('00000000000000000000000000000000')).toBe('::');
    expect(procAddress('00000000000000000000000001000000')).toBe('::1');
    expect(isLoopback('0.0.0.0')).toBe(false);
    expect(isLoopback('::')).toBe(false);
  });
});
