import { requestCents } from '../money';
import * as z from 'zod';
import { singleLineText } from './text';
import { formatCents } from '../money';
import { moneyString } from './balance';
import { moneyInput, payerDocument } from './charge';
export { listWithdrawalsQuerySchema } from './withdraw-query';
import { isValidDocument } from './documents';
import { WITHDRAW_LIMIT_CENTS } from '../withdrawal-fee';

import { KEY_TYPES, type KeyType } from '../withdrawal';

export { KEY_TYPES, type KeyType };

const EMAIL = z.email();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A Pix key checked against its type (DICT formats): CPF/CNPJ digits with check digits, e-mail, +55 phone, EVP UUID. */
export function pixKeyMatches(key: string, type: KeyType): boolean {
  switch (type) {
    case 'CPF':
      return /^\d{11}$/.test(key) && isValidDocument(key, 'CPF');
    case 'CNPJ':
      return /^[0-9A-Z]{12}\d{2}$/.test(key) && isValidDocument(key, 'CNPJ');
    case 'EMAIL':
      return key.length <= 77 && EMAIL.safeParse(key).success;
    case 'PHONE':
      return /^\+55[1-9]{2}9?\d{8}$/.test(key);
    case 'EVP':
      return UUID.test(key);
  }
}

export { WITHDRAW_LIMIT_CENTS };

export const createWithdrawBodySchema = z
  .object({
    amount: moneyInput(WITHDRAW_LIMIT_CENTS / 100)
      .describe(
        `An amount in BRL as a JSON number with at most 2 decimals; at most ${formatCents(WITHDRAW_LIMIT_CENTS)}, the account fee included (amount + fee)`,
      )
      // Read once, here, into integer cents: the use case takes them.
      .transform(requestCents),
    pixkey: z.string().trim().min(1).max(140),
    keytype: z.enum(KEY_TYPES),
    client: singleLineText(255).optional(),
    document: payerDocument.optional(),
    email: z.email().max(255).optional(),
    description: singleLineText(140).optional(),
  })
  .superRefine((body, ctx) => {
    if (!pixKeyMatches(body.pixkey, body.keytype)) {
      ctx.addIssue({ code: 'custom', path: ['pixkey'], message: `Not a valid ${body.keytype} Pix key` });
    }
  })
  .meta({
    id: 'CreateWithdraw',
    description: `Pix keys: CPF and CNPJ as digits (check digits verified), EMAIL, PHONE as +55 with area code (E.164), EVP as a UUID. amount + the account fee are reserved at once and together cannot exceed ${formatCents(WITHDRAW_LIMIT_CENTS)}.`,
  });

export const withdrawSchema = z
  .object({
    reference: z.string(),
    amount: moneyString,
    fee: moneyString,
    netAmount: moneyString.describe('What reaches the Pix key (the amount; the fee is charged on top)'),
    endToEndId: z.string().nullable().describe('The Pix end-to-end id, once paid'),
    status: z.enum(['PENDING', 'PAID', 'CANCELED']),
    pixkey: z.string(),
    keytype: z.enum(KEY_TYPES),
    description: z.string().nullable(),
    created_at: z.string(),
    paid_at: z.string().nullable(),
    canceled_at: z.string().nullable(),
    version: z.number().int().min(1).describe("1 at creation, +1 at each state change; the withdraw's events carry the version they made"),
    loquidAmount: moneyString.meta({ description: 'Deprecated: use netAmount', deprecated: true }),
    entoend: z.string().nullable().meta({ description: 'Deprecated: use endToEndId', deprecated: true }),
  })
  .meta({ id: 'Withdraw' });

export const withdrawCreatedSchema = z.object({ success: z.literal(true), message: z.string(), withdraw: withdrawSchema }).meta({ id: 'WithdrawCreated' });
export const withdrawResponseSchema = z.object({ success: z.literal(true), withdraw: withdrawSchema }).meta({ id: 'WithdrawResponse' });
export const withdrawListSchema = z.object({ success: z.literal(true), withdrawals: z.array(withdrawSchema) }).meta({ id: 'WithdrawList' });

export const withdrawParamsSchema = z.object({ txid: z.string().max(40) });
