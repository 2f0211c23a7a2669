/**
 * Checks of a JSON text that JSON.parse does not make: how deep it nests, and whether an object
 * repeats a key. Both scan the text once, without recursion, so no input can exhaust the stack.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The index just after the string literal that opens at `start` (a '"'), or the text's length if it never closes. */
function endOfString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === BACKSLASH) i += 1;
    else if (code === QUOTE) return i + 1;
  }
  return text.length;
}

/** True when arrays and objects nest more than `limit` levels deep (strings are skipped; the text need not be valid JSON). */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '"') i = endOfString(text, i) - 1;
    else if (c === '{' || c === '[') {
      depth += 1;
      if (depth > limit) return true;
    } else if (c === '}' || c === ']') depth -= 1;
  }
  return false;
}

type Frame = { keys: Set<string>; expectKey: boolean } | null;

/**
 * The first key that appears twice in one object of a valid JSON text ("a" and "\u0061" are the
 * same key), or undefined. JSON.parse would silently keep the last one.
 */
export function firstDuplicateKey(text: string): string | undefined {
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === '{') stack.push({ keys: new Set(), expectKey: true });
    else if (c === '[') stack.push(null);
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',' && top) top.expectKey = true;
    else if (c === '"') {
      const end = endOfString(text, i);
      if (top?.expectKey) {
        const key = JSON.parse(text.slice(i, end)) as string;
        if (top.keys.has(key)) return key;
        top.keys.add(key);
        top.expectKey = false;
      }
      i = end - 1;
    }
  }
  return undefined;
}
