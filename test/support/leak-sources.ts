/**
 * Reads what a run left behind (every item of the table, log files) and hands it to the leak
 * detector (test/support/leak-scan.ts). Used by the global teardown (the whole run) and by
 * test/integration/security.test.ts. Findings say where (item key and attribute, file and line),
 * never the value.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AttributeValue, type DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { findItemLeaks, findLeaks, findLogLeaks, type LeakKind } from './leak-scan';
import { ROOT } from './local-stack-process';

export type StoredLeak = { kind: LeakKind; PK: string; SK: string; attribute: string };
export type LoggedLeak = { kind: LeakKind; file: string; line: number };

/** Plain values of a raw DynamoDB item (numbers kept as text, so no precision is lost). */
export function plainItem(item: Record<string, AttributeValue>): Record<string, unknown> {
  const plain = (value: AttributeValue): unknown => {
    if (value.S !== undefined) return value.S;
    if (value.N !== undefined) return value.N;
    if (value.B !== undefined) return value.B;
    if (value.SS !== undefined) return value.SS;
    if (value.NS !== undefined) return value.NS;
    if (value.BS !== undefined) return value.BS;
    if (value.L !== undefined) return value.L.map(plain);
    if (value.M !== undefined) return plainItem(value.M);
    return undefined;
  };
  return Object.fromEntries(Object.entries(item).map(([name, value]) => [name, plain(value)]));
}

/** A key that is itself a leak is not printed. */
const printable = (key: string) => (findLeaks(key).length > 0 ? '<key withheld: it holds a secret>' : key);

/** The items of a raw scan page that hold a secret in clear (`accept` narrows which items count). */
export function storedLeaks(items: readonly Record<string, AttributeValue>[], accept: (item: Record<string, unknown>) => boolean = () => true): StoredLeak[] {
  const found: StoredLeak[] = [];
  for (const raw of items) {
    const item = plainItem(raw);
    if (!accept(item)) continue;
    for (const leak of findItemLeaks(item))
      found.push({ kind: leak.kind, PK: printable(String(item.PK)), SK: printable(String(item.SK)), attribute: leak.attribute });
  }
  return found;
}

/** Scans the whole table (every page, strongly consistent) for secrets in clear. */
export async function scanTable(
  client: DynamoDBClient,
  table: string,
  accept?: (item: Record<string, unknown>) => boolean,
): Promise<{ items: number; leaks: StoredLeak[] }> {
  const leaks: StoredLeak[] = [];
  let items = 0;
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: table, ConsistentRead: true, ExclusiveStartKey: start }));
    items += page.Items?.length ?? 0;
    leaks.push(...storedLeaks(page.Items ?? [], accept));
    start = page.LastEvaluatedKey;
  } while (start);
  return { items, leaks };
}

/**
 * Scans a log file line by line. `after` skips every line up to and including the first line that
 * starts with it (the local stack's start-up banner, which shows the demo keys to the developer once,
 * as `account create` does, ends at the `LOCAL_STACK_READY` line).
 */
export function scanLogFile(file: string, options: { after?: string; fromByte?: number } = {}): { lines: number; leaks: LoggedLeak[] } {
  if (!existsSync(file)) return { lines: 0, leaks: [] };
  const whole = readFileSync(file);
  const text = whole.subarray(options.fromByte ?? 0).toString('utf8');
  const lines = text.split('\n');
  const marker = options.after === undefined ? -1 : lines.findIndex((line) => line.startsWith(options.after ?? ''));
  const firstLine = options.after === undefined ? 1 : marker + 2;
  if (options.after !== undefined && marker < 0) return { lines: 0, leaks: [] };
  return { lines: lines.length - firstLine + 1, leaks: findLogLeaks(text, { firstLine }).map((l) => ({ kind: l.kind, file, line: l.line })) };
}

/** The local stack's log file (test/support/local-stack-process.ts names it by port). */
export function stackLogFile(port: number): string {
  return join(ROOT, '.local', `local-stack-${port}.log`);
}

/** Scans every file of a directory (the test workers' log copies). */
export function scanLogDirectory(dir: string): { files: number; lines: number; leaks: LoggedLeak[] } {
  if (!existsSync(dir)) return { files: 0, lines: 0, leaks: [] };
  const files = readdirSync(dir).map((name) => join(dir, name));
  let lines = 0;
  const leaks: LoggedLeak[] = [];
  for (const file of files) {
    const scanned = scanLogFile(file);
    lines += scanned.lines;
    leaks.push(...scanned.leaks);
  }
  return { files: files.length, lines, leaks };
}

/** A summary by kind and place (item type and attribute, or file), then one line per finding: never a value. */
export function describeLeaks(stored: readonly StoredLeak[], logged: readonly LoggedLeak[], limit = 30): string {
  if (stored.length + logged.length === 0) return '';
  const counts = new Map<string, number>();
  const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const l of stored) count(`${l.kind} in attribute ${l.attribute} of ${l.PK.split('#')[0] ?? ''}# items`);
  for (const l of logged) count(`${l.kind} in ${l.file}`);
  const summary = [...counts].map(([key, n]) => `${n} × ${key}`);
  const lines = [
    ...stored.map((l) => `table item PK=${l.PK} SK=${l.SK}, attribute ${l.attribute}: ${l.kind}`),
    ...logged.map((l) => `${l.file}:${l.line}: ${l.kind}`),
  ];
  const shown = lines.slice(0, limit);
  if (lines.length > limit) shown.push(`… and ${lines.length - limit} more`);
  return [...summary, '', ...shown].join('\n');
}
