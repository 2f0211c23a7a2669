import type { ZodType } from 'zod';
import { type FieldErrors, ValidationError } from './errors';

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

/** Parses with a schema or throws the 422 of spec 7. */
export function parseOrThrow<T>(schema: ZodType<T>, value: unknown, rootName = 'body'): T {
  const errors: FieldErrors = {};
  const data = collect(schema, value, errors, rootName);
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return data as T;
}
