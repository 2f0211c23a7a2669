/** The route table's rows for functions/charges/ (shared/http/routes.ts assembles the table). */
import { INVOICE_MOVE_CHANGES } from '../../domain/changes';
import { RAIL_LIMIT_CENTS } from '../../domain/rail-limits';
import { TOTAL_ROUNDING_RULE } from '../../domain/charge-total';
import { formatCents } from '../../domain/money';
import { defineRoute, type AnyRoute, type RouteDef } from '../route';
import * as z from 'zod';
import { cardTransactionSchema, METHOD_REGISTRY, type MethodRoute, PAYMENT_METHODS, type PaymentMethod } from '../../domain/payment-methods';
import { chargeTotal, commonChargeFields, latePaymentFields, payerDocument } from '../../domain/schemas/charge';
import { normalizeDocument } from '../../domain/schemas/documents';
import { multiLineText, singleLineText } from '../../domain/schemas/text';
import { bearerWrite } from './policies';

/* Each method's request body and answer, beside its route row (the invoice object's fields are its row's, shared/domain/payment-methods.ts). */

const payerEmail = z.email().max(255);

export const pixCreateBodySchema = z
  .object({
    ...commonChargeFields,
    email: payerEmail.optional(),
    // Read once here: the use case takes the document bare (no punctuation), as the provider is sent it.
    document: payerDocument.transform(normalizeDocument).optional(),
    client: singleLineText(255).min(1).optional(),
  })
  .meta({
    id: 'CreatePixCharge',
    description: 'Common charge fields; the payer email, document (CPF or CNPJ) and name (client) are optional and validated when given.',
  });

export const boletoCreateBodySchema = z
  .object({
    ...commonChargeFields,
    tax: commonChargeFields.tax.optional().default(0),
    customer: z.number().int().positive().describe('Id of one of your customers, with a full address'),
    instructions: multiLineText(255).optional(),
    ...latePaymentFields,
  })
  .meta({
    id: 'CreateBoletoCharge',
    description:
      'Common charge fields (tax optional, default 0), the customer paying it, and optional late-payment rules (fine, interest, days_after_due) that the boleto and its Pix half share.',
  });

export const cardCreateBodySchema = z
  .object({
    ...commonChargeFields,
    email: payerEmail,
    installments: z.number().int().min(1).max(24),
    creditcard_holder: singleLineText(100).min(1),
    creditcard_number: z.string().regex(/^\d{12,19}$/, 'Must be 12 to 19 digits'),
    creditcard_cvv: z.string().regex(/^\d{3,4}$/, 'Must be 3 or 4 digits'),
    creditcard_month: z.number().int().min(1).max(12),
    creditcard_year: z.number().int().min(1000).max(9999),
    creditcard_brand: singleLineText(30).min(1),
  })
  .meta({
    id: 'CreateCardCharge',
    description: 'Authorized at once. The card number and CVV are never stored, logged or echoed; only the brand and last 4 digits are kept.',
  });

export const pixCreatedSchema = z
  .object({
    invoice: z.object({
      reference: z.string(),
      total: chargeTotal,
      txid: z.string(),
      due_date: z.string(),
      copy: z.string().describe('Pix "copia e cola" BR Code'),
      qrcode: z.string().describe('PNG data URI of the QR code of `copy`'),
    }),
  })
  .meta({ id: 'PixCreated' });

export const boletoCreatedSchema = z
  .object({
    invoice: z.object({
      reference: z.string(),
      total: chargeTotal,
      due_date: z.string(),
      status: z.string(),
      boleto: z.string().describe('URL of the printable boleto'),
      barcode: z.string().describe('44 digits'),
      digitable: z.string().describe('47 digits'),
      txid: z.string().optional().describe("The boleto's Pix half (BolePix: accounts with Pix enabled): its due-date charge's txid"),
      copy: z.string().optional().describe('The Pix half\'s "copia e cola" BR Code'),
      qrcode: z.string().optional().describe('PNG data URI of the QR code of `copy`'),
    }),
  })
  .meta({ id: 'BoletoCreated' });

export const cardCreatedSchema = z
  .object({
    invoice: z.object({ reference: z.string(), total: chargeTotal, due_date: z.string(), status: z.literal('PAID'), transaction: cardTransactionSchema }),
  })
  .meta({ id: 'CardCreated' });

export const chargesRoutes = {
  createPix: defineRoute({
    id: 'CreatePixCharge',
    changes: ['invoice.created'],
    method: 'POST',
    path: '/api/pix/create',
    handler: 'functions/charges/pix.ts',
    totalCeiling: 'pix',
    usesPixProvider: true,
    ...bearerWrite,
    idempotency: 'optional',
    tag: 'Charges',
    summary: 'Create a Pix charge (BR Code and QR code)',
    description: `The invoice stays PENDING until the provider confirms the payment. The total is at most ${formatCents(RAIL_LIMIT_CENTS.pix)} (what Pix carries); above it → 422 on amount. due_date can be at most the last day a charge created now can stay payable (API Pix's calendario.expiracao is an int32 of seconds: about 68 years); a later date → 422 on due_date naming that day. Total: ${TOTAL_ROUNDING_RULE}`,
    request: { body: pixCreateBodySchema },
    responses: { 200: { description: 'The charge', schema: pixCreatedSchema }, 502: { description: 'The payment provider failed; nothing was created' } },
  }),
  createBoleto: defineRoute({
    id: 'CreateBoletoCharge',
    changes: ['invoice.created'],
    method: 'POST',
    path: '/api/boleto/create',
    handler: 'functions/charges/boleto.ts',
    totalCeiling: 'boleto',
    ...bearerWrite,
    idempotency: 'optional',
    // A BolePix's Pix half is a due-date charge at the Pix provider (API Pix PUT /cobv).
    usesPixProvider: true,
    tag: 'Charges',
    summary: 'Create a boleto for one of your customers',
    description: `The customer must be yours and have a full address. The boleto URL shows a printable page; the barcode follows FEBRABAN (due-date factor rule in force since 2025-02-22). The total is at most ${formatCents(RAIL_LIMIT_CENTS.boleto)} (10 barcode digits); due_date can be at most the last day the due-date factor's current cycle carries (2049-10-13 for the cycle begun 2025-02-22); a later date → 422 on due_date. Total: ${TOTAL_ROUNDING_RULE}

BolePix: for an account with Pix enabled the boleto also carries a due-date Pix charge (API Pix cobv) for the same total, due date and payer, and the answer adds its \`txid\`, \`copy\` and \`qrcode\`. The payer chooses the rail; the first payment moves the invoice to PAID (invoice.paid says the \`rail\` and \`paid_amount\`) and the other rail is withdrawn. A payment that still arrives on the other rail is credited apart and shown as \`refund_due\` on the invoice.

Late payment: \`fine\` (percent of the total, 0 to 2, once), \`interest\` (percent a month, 0 to 1, simple, pro rata per calendar day) and \`days_after_due\` (0 to 60, default 30) apply to both rails alike: D calendar days after the due date (1 ≤ D ≤ days_after_due) the payer owes total + round(total × fine / 100) + round(total × interest / 100 / 30 × D), each rounded half up to the cent. A payment of any other amount is not credited as the invoice's payment. Past days_after_due the invoice is CANCELED and both rails withdrawn. A plain boleto (no Pix) without these fields stays as before: no late rules, no expiry.`,
    request: { body: boletoCreateBodySchema },
    responses: { 200: { description: 'The charge', schema: boletoCreatedSchema }, 502: { description: 'The payment provider failed; nothing was created' } },
  }),
  createCard: defineRoute({
    id: 'CreateCardCharge',
    changes: ['invoice.created', 'card_attempt.recorded', 'card_attempt.unknown', ...INVOICE_MOVE_CHANGES],
    method: 'POST',
    path: '/api/creditcard/create',
    handler: 'functions/charges/card.ts',
    totalCeiling: 'creditcard',
    ...bearerWrite,
    idempotency: 'optional',
    tag: 'Charges',
    summary: 'Charge a card (authorized at once)',
    description: `Approved: 200 with the invoice PAID and the balance credited. Declined by the issuer: 400 and nothing is credited. No answer from the processor: it is asked at once what it holds for this charge; when it confirms nothing was charged, 502 upstream_error; when it cannot be asked, 502 card_outcome_unknown naming the invoice, recorded PENDING and settled by asking the processor (PAID with invoice.paid, or CANCELED with invoice.canceled). A retry of the same charge (with its Idempotency-Key, or without one the same card, amounts, installments, invoice_no and item within 24 h) never authorizes twice: it answers the recorded charge. Card testing caps: a card, or an account, declined too often within the hour (CARD_DECLINES_PER_CARD_PER_HOUR, CARD_DECLINES_PER_MERCHANT_PER_HOUR) gets 429 card_declines_exceeded with Retry-After, the processor not asked. The total is at most ${formatCents(RAIL_LIMIT_CENTS.creditcard)}. Total: ${TOTAL_ROUNDING_RULE}`,
    request: { body: cardCreateBodySchema },
    responses: {
      200: { description: 'Approved (or a retry of a charge already recorded: its answer again)', schema: cardCreatedSchema },
      409: {
        description:
          'A request with this Idempotency-Key is still being processed (code idempotency_in_progress), or this charge is already recorded in another state (code card_charge_recorded, naming its invoice)',
      },
      502: {
        description:
          'The processor did not answer: code upstream_error when it confirmed nothing was charged (retry); code card_outcome_unknown when it could not be asked: the invoice it names is PENDING until settled (do not charge again with a new key)',
      },
    },
  }),
} satisfies Record<string, AnyRoute>;

/** A method's operation id on the derived charge route: `wallet` → `CreateWalletCharge`. */
export function chargeOperationId(method: string): string {
  return `Create${method.charAt(0).toUpperCase()}${method.slice(1)}Charge`;
}

/** The route row's fields a method's row carries (MethodRoute), when the table derives its route. */
function routeFactsOf(method: PaymentMethod): MethodRoute | undefined {
  const row: { route?: MethodRoute } = METHOD_REGISTRY[method];
  return row.route;
}

/** A derived charge route's body: the common charge fields, the payer's email, and the method row's own fields. */
function methodChargeBodySchema<BodyFields extends z.ZodRawShape>(method: PaymentMethod, route: MethodRoute<BodyFields>) {
  return z
    .object({ ...commonChargeFields, email: payerEmail.optional(), ...route.bodyFields })
    .meta({ id: chargeOperationId(method), description: `Common charge fields, the payer's optional email, and the ${method} charge's own fields.` });
}

/** A derived charge route's answer: the invoice's reference, total, due date and status, and the method's view fields (its row's viewSchema). */
function methodChargeAnswerSchema(method: PaymentMethod) {
  return z.object({
    invoice: z.object({ reference: z.string(), total: chargeTotal, due_date: z.string(), status: z.string(), ...METHOD_REGISTRY[method].viewSchema.shape }),
  });
}

/** A derived charge route: POST, bearer, idempotent, its invoice created through the method's use case (the row's MethodRoute). */
function methodChargeRoute(method: PaymentMethod, route: MethodRoute) {
  return defineRoute({
    id: chargeOperationId(method),
    changes: ['invoice.created'],
    method: 'POST',
    path: route.path,
    handler: `functions/charges/${method}.ts`,
    totalCeiling: METHOD_REGISTRY[method].charge,
    ...bearerWrite,
    idempotency: 'optional',
    tag: 'Charges',
    summary: route.summary,
    description: `${route.description} The total is at most ${formatCents(METHOD_REGISTRY[method].ceilingCents)} (${METHOD_REGISTRY[method].ceilingReason}). Total: ${TOTAL_ROUNDING_RULE}`,
    request: { body: methodChargeBodySchema(method, route) },
    responses: {
      200: { description: 'The charge', schema: methodChargeAnswerSchema(method) },
      502: { description: 'The payment provider failed; nothing was created' },
    },
  });
}

/**
 * The charge routes derived from the method rows (those with a `route`: shared/domain/payment-methods.ts),
 * by account setting. A method added to the registry with its route facts has its route here, in the route
 * list (shared/http/routes.ts), the OpenAPI document, CDK and the local server, with its table grants and
 * example derived: its handler (functions/charges/<setting>.ts) reads its row by `methodChargeRoutes[setting]`.
 */
export const methodChargeRoutes: Readonly<Record<string, AnyRoute>> = Object.fromEntries(
  PAYMENT_METHODS.flatMap((method) => {
    const route = routeFactsOf(method);
    return route ? [[method, methodChargeRoute(method, route)]] : [];
  }),
);

/** The body fields a method's row gives its derived route. */
type RouteBodyFields<M extends PaymentMethod> = (typeof METHOD_REGISTRY)[M] extends { route?: MethodRoute<infer B> } ? B : Record<never, never>;

/** A derived charge route with its body typed as the handler reads it (the common fields and its row's `bodyFields`). */
export function methodChargeRouteOf<M extends PaymentMethod>(method: M) {
  const route = routeFactsOf(method);
  if (!route) throw new Error(`The ${method} method's route is written in the table, not derived from its row`);
  return methodChargeRoute(method, route) as unknown as RouteDef<ReturnType<typeof methodChargeBodySchema<RouteBodyFields<M>>>, undefined, undefined>;
}
