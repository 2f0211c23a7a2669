import * as z from 'zod';

export { API_VERSION } from '../api-version';

export const generalErrorSchema = z
  .object({ error: z.string(), code: z.string().optional() })
  .meta({ id: 'Error', description: 'General error: a message, and a machine code where one applies.' });

export const validationErrorSchema = z
  .object({ error: z.record(z.string(), z.array(z.string())) })
  .meta({ id: 'ValidationError', description: 'Invalid fields: each field name maps to its messages.' });

export const internalErrorSchema = z
  .object({ error: z.string(), code: z.literal('internal_error') })
  .meta({ id: 'InternalError', description: 'Unexpected failure; details are only in the server log. Safe to retry with the same Idempotency-Key.' });
