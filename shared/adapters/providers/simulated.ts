import { randomUUID } from 'node:crypto';
import { buildBarcode, digitableLine } from '../../domain/boleto-barcode';
import { randomString, sortableNumericId } from '../../platform/ids';
import { parseAmountToCents } from '../../domain/money';
import { buildDynamicBrCode } from '../../domain/pix-brcode';
import { checkSignatureHeader } from '../../domain/hmac-header';
import { simulatedNotificationSchema } from './simulated-notification';
import { PAID_NOTICES } from '../../domain/payment-methods';
import {
  type CardAuthorization,
  INVALID_SIGNATURE_MESSAGE,
  NotificationRejected,
  type PaymentProvider,
  type PixCharge,
  type PixDueRemoval,
  type ProviderNotification,
  ProviderError,
  type RegisteredBoleto,
} from '../../ports/payment-provider';

/**
 * Test cards of the simulated provider (docs/decisions.md). Any other valid card is approved.
 */
export const SIMULATED_CARDS = {
  approved: '4111111111111111',
  declined: '4000000000000002',
  providerError: '4000000000000119',
  /** Approved, but the answer of the first call for an idempotency key never comes (a lost answer): the retry finds it. */
  approvedAnswerLost: '4000000000000259',
} as const;

/**
 * Any card number of this test range is declined too, so a test of the card-testing caps can use a
 * card of its own (a fingerprint no other test shares): see declinedTestCard in test/support.
 */
export const SIMULATED_DECLINED_RANGE = '40000099';

/** Whether the simulated provider declines a card number. */
export function simulatedDeclines(cardNumber: string): boolean {
  return cardNumber === SIMULATED_CARDS.declined || cardNumber.startsWith(SIMULATED_DECLINED_RANGE);
}

/** The simulated bank code of its boletos (not a real bank's). */
export const SIMULATED_BANK_CODE = '999';

export const SIMULATED_SIGNATURE_HEADER = 'simulated-signature';

export type { SimulatedNotification } from './simulated-notification';

/** What each notification type says; a method's paid notice (its row's `paidNotice`) says `paid`. */
const KIND: Readonly<Record<string, ProviderNotification['kind']>> = {
  ...Object.fromEntries(PAID_NOTICES.map((notice) => [notice.type, 'paid'])),
  'charge.canceled': 'canceled',
  'charge.refunded': 'refunded',
  'pixout.paid': 'payout_paid',
  'pixout.refused': 'payout_refused',
};

/**
 * A provider that runs in-process: Pix charges with a BR Code whose location is under its own base
 * URL, boletos with a valid FEBRABAN barcode, card decisions by test card number, and notifications
 * signed with `t=…,v1=…` (HMAC-SHA256) under the credential held in Secrets Manager.
 */
export type SimulatedRegistration = { kind: 'pix'; charge: PixCharge } | { kind: 'boleto'; boleto: RegisteredBoleto };

export type SimulatedProvider = PaymentProvider & {
  parseNotification: NonNullable<PaymentProvider['parseNotification']>;
  voided: ReadonlySet<string>;
  /** Pix charges and boletos registered, by reference: a second call with a reference answers the first registration and adds none. */
  registrations: ReadonlyMap<string, SimulatedRegistration>;
  /** Authorizations made, by the caller's idempotency key (a replay makes none). */
  authorizations: ReadonlyMap<string, CardAuthorization>;
  /** Due-date Pix charges (BolePix), by txid: ACTIVE until removed (the simulation is not told of payments: notifications are sent apart). */
  dueCharges: NonNullable<PaymentProvider['dueCharges']> & { readonly held: ReadonlyMap<string, { charge: PixCharge; status: 'ACTIVE' | 'REMOVED' }> };
  /** Boletos written off, by reference. */
  writtenOff: ReadonlySet<string>;
  removePixCharge: NonNullable<PaymentProvider['removePixCharge']>;
  /** Immediate Pix charges withdrawn (PATCH /cob), by txid. */
  removedPix: ReadonlySet<string>;
};

function kindOf(type: string): ProviderNotification['kind'] {
  const kind = KIND[type];
  if (!kind) throw new NotificationRejected('invalid_notification', 'The notification is not one this provider sends');
  return kind;
}

export function simulatedProvider(options: { locationBase: string; merchantCity?: string }): SimulatedProvider {
  const base = options.locationBase.replace(/^https?:\/\//, '').replace(/\/+$/, '');
  const voided = new Set<string>();
  const authorizations = new Map<string, CardAuthorization>();
  const registrations = new Map<string, SimulatedRegistration>();
  /** The registration of a reference already registered, of the same kind; another kind under it is refused. */
  const registered = (reference: string, kind: SimulatedRegistration['kind']): SimulatedRegistration | undefined => {
    const known = registrations.get(reference);
    if (known && known.kind !== kind) throw new ProviderError(`The reference ${reference} is already registered as a ${known.kind} charge`);
    return known;
  };
  const dueHeld = new Map<string, { charge: PixCharge; status: 'ACTIVE' | 'REMOVED' }>();
  const writtenOff = new Set<string>();
  const removedPix = new Set<string>();
  const brCode = (location: string, merchantName: string) => buildDynamicBrCode({ location, merchantName, merchantCity: options.merchantCity ?? 'SAO PAULO' });
  return {
    name: 'simulated',
    voided,
    authorizations,
    registrations,
    writtenOff,
    dueCharges: {
      held: dueHeld,
      async create(request) {
        const known = dueHeld.get(request.txid);
        if (known) return known.charge;
        const location = `${base}/simulated-psp/v2/cobv/${randomUUID().replace(/-/g, '')}`;
        const charge = { txid: request.txid, location, copy: brCode(location, request.merchantName) };
        dueHeld.set(request.txid, { charge, status: 'ACTIVE' });
        return charge;
      },
      async remove(txid): Promise<PixDueRemoval> {
        const known = dueHeld.get(txid);
        if (!known) return 'unknown';
        known.status = 'REMOVED';
        return 'removed';
      },
    },
    removedPix,
    async removePixCharge(txid): Promise<PixDueRemoval> {
      const known = [...registrations.values()].some((r) => r.kind === 'pix' && r.charge.txid === txid);
      if (!known) return 'unknown';
      removedPix.add(txid);
      return 'removed';
    },
    async writeOffBoleto(reference) {
      if (registrations.get(reference)?.kind !== 'boleto') return 'unknown';
      writtenOff.add(reference);
      return 'written_off';
    },
    async cardAuthorizationStatus(idempotencyKey) {
      const known = authorizations.get(idempotencyKey);
      if (!known) return { outcome: 'not_found' };
      if (known.outcome === 'approved')
        return voided.has(known.transactionId) ? { outcome: 'declined' } : { outcome: 'approved', transactionId: known.transactionId, status: known.status };
      return { outcome: 'declined' };
    },
    async voidCard(request) {
      voided.add(request.transactionId);
    },
    charges: {
      async pix(request) {
        const known = registered(request.reference, 'pix');
        if (known?.kind === 'pix') return known.charge;
        const location = `${base}/simulated-psp/v2/cob/${randomUUID().replace(/-/g, '')}`;
        const charge = { txid: request.txid, location, copy: brCode(location, request.merchantName) };
        registrations.set(request.reference, { kind: 'pix', charge });
        return charge;
      },
      async boleto(request) {
        const known = registered(request.reference, 'boleto');
        if (known?.kind === 'boleto') return known.boleto;
        const barcode = buildBarcode({
          bankCode: SIMULATED_BANK_CODE,
          amountCents: request.amountCents,
          dueDate: request.dueDate,
          freeField: `${sortableNumericId(request.invoiceId)}000000000`,
        });
        const boleto = { barcode, digitable: digitableLine(barcode) };
        registrations.set(request.reference, { kind: 'boleto', boleto });
        return boleto;
      },
      async card(request) {
        if (request.card.number === SIMULATED_CARDS.providerError) throw new ProviderError('The simulated provider failed to answer');
        // Idempotent, as card processors are: the same key answers the first decision again.
        const known = authorizations.get(request.idempotencyKey);
        if (known?.outcome === 'approved' && voided.has(known.transactionId)) return { outcome: 'voided', transactionId: known.transactionId };
        if (known) return known;
        const decision: CardAuthorization = simulatedDeclines(request.card.number)
          ? { outcome: 'declined', message: 'Card declined by the issuer' }
          : { outcome: 'approved', transactionId: `sim_${randomString(24)}`, status: 1, message: 'Approved' };
        authorizations.set(request.idempotencyKey, decision);
        if (request.card.number === SIMULATED_CARDS.approvedAnswerLost) await new Promise<never>(() => undefined);
        return decision;
      },
    },
    parseNotification(rawBody, headers, credential, now) {
      const check = checkSignatureHeader(rawBody, headers[SIMULATED_SIGNATURE_HEADER], credential, Math.floor(now.getTime() / 1000));
      if (!check.valid) throw new NotificationRejected('invalid_signature', INVALID_SIGNATURE_MESSAGE, check.reason);
      let json: unknown;
      try {
        json = JSON.parse(rawBody);
      } catch {
        throw new NotificationRejected('invalid_notification', 'The notification is not JSON');
      }
      const parsed = simulatedNotificationSchema.safeParse(json);
      if (!parsed.success) throw new NotificationRejected('invalid_notification', 'The notification is not one this provider sends');
      const n = parsed.data;
      return {
        id: n.id,
        kind: kindOf(n.type),
        target: 'txid' in n ? { txid: n.txid } : { reference: n.reference },
        occurredAt: n.occurred_at ? new Date(n.occurred_at) : now,
        ...('end_to_end_id' in n ? { endToEndId: n.end_to_end_id } : {}),
        ...('amount' in n && n.amount !== undefined ? { amountCents: parseAmountToCents(n.amount) } : {}),
      };
    },
  };
}
