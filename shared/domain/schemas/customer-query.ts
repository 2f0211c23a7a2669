import * as z from 'zod';
import { singleLineText } from './text';

/**
 * GET /api/customers' query (and the panel's customers page): its own module, apart from the customer
 * schemas, so that a route table reading only this bundles no country and state tables.
 */
const filter = singleLineText(255).min(1).optional();

export const listCustomersQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(50).default(10),
  document: filter,
  name: filter,
  email: filter,
  phone: filter,
  mobilephone: filter,
});
