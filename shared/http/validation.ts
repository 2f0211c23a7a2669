import type { ZodType } from 'zod';
import type { FieldErrors } from './errors';

/** Validates a value with a zod schema, adding each issue to `errors` under its field path. */
export function collect<T>(schema: ZodType<T> | undefined, value: unknown, errors: FieldErrors, rootName: string): T | undefined {
  if (!schema) return undefined;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : rootName;
    (errors[field] ??= []).push(issue.message);
  }
  return undefined;
}
