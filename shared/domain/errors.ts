/**
 * The domain's errors: what went wrong, never how to answer it. Each error has a `kind`, a message, an
 * optional machine code and optional details; shared/http/errors.ts alone maps a kind to an HTTP status
 * and headers (spec 7). Nothing here knows about HTTP.
 */
export type FieldErrors = Record<string, string[]>;

export type ErrorKind =
  /** The request cannot be done as asked (a bad header, a method not enabled, not enough balance). */
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  /** The resource existed and is over for good (an abandoned checkout). */
  | 'gone'
  | 'payload_too_large'
  /** Field errors (details.fields). */
  | 'validation'
  /** Understood but refused, with a message and a code (e.g. idempotency_key_reused). */
  | 'unprocessable'
  | 'rate_limited'
  /** A transient conflict: nothing was written; retry after details.retryAfterSeconds. */
  | 'temporary'
  /** An outside service answered with a failure. */
  | 'upstream_failed'
  /** An outside service could not be reached. */
  | 'upstream_unavailable';

export type ErrorDetails = {
  /** When the client may retry (rate_limited, temporary). */
  retryAfterSeconds?: number;
  /** The methods the path allows (method_not_allowed). */
  allowedMethods?: readonly string[];
  /** The invalid fields (validation). */
  fields?: FieldErrors;
  /** The caller's quota when a rate limit refused the call (rate_limited). */
  quota?: { limit: number; remaining: number; resetSeconds: number };
};

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly code?: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export class BadRequestError extends DomainError {
  constructor(message: string, code?: string) {
    super('invalid', message, code);
  }
}

export class InsufficientBalanceError extends DomainError {
  constructor() {
    super('invalid', 'Insufficient balance: the available balance does not cover the amount plus the fee', 'insufficient_balance');
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message = 'Unauthorized') {
    super('unauthorized', message, 'unauthorized');
  }
}

export class NotFoundError extends DomainError {
  constructor(message = 'Not found') {
    super('not_found', message, 'not_found');
  }
}

export class MethodNotAllowedError extends DomainError {
  constructor(allowed: readonly string[]) {
    super('method_not_allowed', 'Method not allowed', 'method_not_allowed', { allowedMethods: allowed });
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, code?: string) {
    super('conflict', message, code);
  }
}

export class ValidationError extends DomainError {
  constructor(readonly fields: FieldErrors) {
    super('validation', 'Validation failed', 'validation_failed', { fields });
  }
}

/** Refused with a general message and a machine code (e.g. idempotency_key_reused), not field errors. */
export class UnprocessableError extends DomainError {
  constructor(message: string, code: string) {
    super('unprocessable', message, code);
  }
}

export class RateLimitedError extends DomainError {
  constructor(retryAfterSeconds: number, limit?: number) {
    super('rate_limited', 'Too many requests: retry after the time given in Retry-After', 'rate_limited', {
      retryAfterSeconds,
      ...(limit === undefined ? {} : { quota: { limit, remaining: 0, resetSeconds: retryAfterSeconds } }),
    });
  }
}

/** Card testing caps (issue 31): this card, or this merchant, was declined too often within the hour; the processor is not asked. */
export class CardDeclinesExceededError extends DomainError {
  constructor(retryAfterSeconds: number) {
    super(
      'rate_limited',
      'Too many declined attempts of this card, or of this account, within the hour: the processor is not asked; retry after the time given in Retry-After',
      'card_declines_exceeded',
      { retryAfterSeconds },
    );
  }
}

/** A transient conflict: nothing was written; the client retries (with the same Idempotency-Key). */
export class TemporaryConflictError extends DomainError {
  constructor(message = 'A temporary conflict stopped the request; nothing was written. Retry with the same Idempotency-Key.', retryAfterSeconds = 1) {
    super('temporary', message, 'temporary_conflict', { retryAfterSeconds });
  }
}

/** A card charge recorded by a concurrent request of the same charge: nothing of this one was written. */
export class CardRecordedMeanwhileError extends TemporaryConflictError {
  constructor() {
    super('This charge was recorded by another request meanwhile; retry to get its answer.');
  }
}

/**
 * A payment notification whose invoice kept moving under it (issue 43): nothing of it was written.
 * Answered 503, so the provider sends it again and it is recorded then, never a 200 with nothing recorded.
 */
export class PaymentRaceError extends TemporaryConflictError {
  constructor() {
    super('The invoice kept changing while this payment was recorded; nothing was written. Send the notification again.');
  }
}

/** A randomly drawn id or reference was taken: the pipeline may draw again (routes marked retryOnIdClash). */
export class IdClashError extends TemporaryConflictError {}

/**
 * A balance shard a withdrawal planned to take from moved between the read and the commit (its
 * condition failed): nothing was written. The pipeline re-reads and plans again (routes marked
 * retryOnIdClash, a bounded number of times); past that it answers 503 like any temporary conflict.
 */
export class BalanceMovedError extends TemporaryConflictError {
  constructor() {
    super('The balance moved while the withdrawal was reserved; nothing was written. Retry with the same Idempotency-Key.');
  }
}

/**
 * Concurrent requests on the same items (a busy balance) kept winning over this one until its retry
 * budget ran out: nothing was written, the Idempotency-Key is free again. Never retried in place.
 */
export class ContentionError extends TemporaryConflictError {
  constructor() {
    super(
      'The account is busy: concurrent requests kept conflicting with this one and nothing was written. Retry after the time in Retry-After with the same Idempotency-Key.',
    );
  }
}

/**
 * The request's deadline passed while it waited on the table (an overloaded table or network): it was
 * stopped before the function's timeout. It may or may not have completed; the idempotency lock makes
 * a retry with the same key replay the answer or run once.
 */
export class RequestDeadlineError extends TemporaryConflictError {
  constructor() {
    super(
      'The service is busy and stopped this request before it could finish. Retry after the time in Retry-After with the same Idempotency-Key: a request that did complete replays its answer.',
      2,
    );
  }
}

/** A valid token of an account an operator disabled (`npm run admin -- account disable`): every Bearer call is refused. */
export class AccountDisabledError extends DomainError {
  constructor() {
    super('forbidden', 'This account is disabled: contact support', 'account_disabled');
  }
}

/** A request that reached the deployed API around its edge (shared/http/edge-origin.ts); the message names no header and no secret. */
export class OutsideEdgeError extends DomainError {
  constructor() {
    super('forbidden', 'Call the API at its public address', 'forbidden');
  }
}

export class PayloadTooLargeError extends DomainError {
  constructor(limitBytes: number) {
    super('payload_too_large', `The request body is larger than ${limitBytes} bytes (1 MB)`, 'payload_too_large');
  }
}

/** An outside service (provider, bank, postal-code lookup) failed or could not be reached. */
/**
 * A card charge whose processor did not answer, and could not be asked afterwards (issue 25): it may
 * have been charged. Its invoice waits PENDING under `reference` and is settled by asking the processor
 * (PAID with invoice.paid, or CANCELED with invoice.canceled); a retry of the same charge never
 * authorizes twice. 502, code card_outcome_unknown.
 */
export class CardOutcomeUnknownError extends DomainError {
  constructor(readonly reference: string) {
    super(
      'upstream_failed',
      `The card processor did not answer: the charge may or may not have gone through. It is being verified with the processor as invoice ${reference} (PENDING now; PAID with invoice.paid if charged, CANCELED with invoice.canceled if not: GET /api/invoice/ref/${reference}). Do not charge again with a new key; a retry of the same request, with or without its Idempotency-Key, never charges twice.`,
      'card_outcome_unknown',
    );
  }
}

export class UpstreamError extends DomainError {
  constructor(kind: 'upstream_failed' | 'upstream_unavailable', message: string) {
    super(kind, message, kind === 'upstream_failed' ? 'upstream_error' : 'upstream_unavailable');
  }
}

/** An operator named an account that does not exist (the CLI's error; never answered by the API). */
export class AccountNotFoundError extends Error {
  constructor(accountId: string) {
    super(`No account ${accountId}`);
  }
}

/** The checkout was paid (or abandoned) by another request first: nothing of this one was written. */
export class CheckoutSettledError extends ConflictError {
  constructor() {
    super('This checkout was already paid', 'checkout_already_paid');
  }
}

/** Another card payment of this checkout is running (its lease holds): the payer waits for its answer. */
export class CardAttemptBusyError extends ConflictError {
  constructor() {
    super('Um pagamento com cartão deste pedido já está em andamento. Aguarde alguns segundos e recarregue a página.', 'card_in_progress');
  }
}

/** The checkout changed between its read and the transaction (a concurrent payment or order move): read again. */
export class CheckoutChangedError extends ConflictError {
  constructor() {
    super('The checkout changed while the request ran', 'checkout_changed');
  }
}

/**
 * A redelivery refused, for the caller to act on: an unknown event (or another account's: the same
 * answer), an account without a webhook URL, a series still running, or a delivery that changed while
 * the request ran (try again). The operator's CLI exits 1 with the message; the panel says it.
 */
export class RedeliveryRefusedError extends DomainError {
  constructor(
    kind: 'not_found' | 'conflict',
    message: string,
    code: 'event_not_found' | 'account_not_found' | 'webhook_not_configured' | 'delivery_running' | 'delivery_changed',
  ) {
    super(kind, message, code);
  }
}

/** Hosted checkout signing settings that changed while a change of them ran (a version issued meanwhile): nothing was issued; run it again. */
export class CheckoutSigningConflictError extends ConflictError {
  constructor(accountId: string) {
    super(
      `The checkout signing settings of ${accountId} changed while this ran (another operator?); nothing was issued: run the command again`,
      'checkout_signing_changed',
    );
  }
}

/** Why an invoice cannot be canceled (issue 46): not PENDING (a refund's job), not a method withdrawn here, or paid at its rail already. */
export type CancelRefusal = 'invoice_not_pending' | 'method_not_cancelable' | 'paid_at_rail';

const CANCEL_REFUSALS: Readonly<Record<CancelRefusal, string>> = {
  invoice_not_pending: 'Only a PENDING invoice can be canceled; use a refund for a paid one',
  method_not_cancelable: 'Only Pix, boleto and BolePix charges can be canceled; a card charge cannot',
  paid_at_rail: 'The charge was already paid: the invoice moves to PAID when its payment is recorded; use a refund',
};

/** A cancellation refused as a business rule (400, the spec's error shape): nothing was moved. */
export class InvoiceNotCancelableError extends DomainError {
  constructor(readonly refusal: CancelRefusal) {
    super('invalid', CANCEL_REFUSALS[refusal], refusal);
  }
}
