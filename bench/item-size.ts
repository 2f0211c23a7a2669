/**
 * DynamoDB's item size rules, applied to plain (document client) values, to turn a written item into
 * the capacity units AWS bills for it. Sizes follow the published rules: strings and binaries by
 * length, numbers one byte per two significant digits plus one, lists and maps three bytes plus one
 * per element, attribute names by their UTF-8 length.
 */
const KB = 1024;
const READ_UNIT = 4 * KB;

function numberSize(value: number | bigint): number {
  const digits = String(value)
    .replace(/^-/, '')
    .replace(/e[+-]?\d+$/i, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
}

export function valueSize(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  if (typeof value === 'number' || typeof value === 'bigint') return numberSize(value);
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) {
    let total = 0;
    for (const element of value) total += valueSize(element);
    return total;
  }
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, element) => sum + 1 + valueSize(element), 0);
  if (typeof value === 'object') {
    return 3 + Object.entries(value).reduce((sum, [name, element]) => sum + 1 + Buffer.byteLength(name, 'utf8') + valueSize(element), 0);
  }
  return 0;
}

/** Bytes of one item: attribute names plus values. */
export function itemSize(item: Record<string, unknown>): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name, 'utf8') + valueSize(value), 0);
}

/** Standard write units of an item: one per started KB, at least one. */
export function writeUnits(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / KB));
}

/** Strongly consistent read units of an item: one per started 4 KB, at least one. */
export function readUnits(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / READ_UNIT));
}
