import { randomString } from '../../shared/platform/ids';
import { SIMULATED_SIGNATURE_HEADER, type SimulatedNotification } from '../../shared/adapters/providers/simulated';
import { signatureHeader } from '../../shared/domain/hmac-header';
import type { Target } from './target';
import { PAID_NOTICES, type PaidNotice } from '../../shared/domain/payment-methods';

/** A payment's command (`provider pix-paid`, `boleto-paid`): one per method row with a paid notice, named from its type. */
export type PaidCommand = `${string}-paid`;
export type ProviderCommand = PaidCommand | 'cancel' | 'refund' | 'withdraw-paid' | 'withdraw-refused';

/** The command that sends a paid notice: `pix.paid` → `pix-paid`. */
export function paidCommandOf(notice: PaidNotice): PaidCommand {
  return `${notice.type.slice(0, -'.paid'.length)}-paid`;
}

/** Each paid notice's command (pix-paid, boleto-paid), in the registry's order. */
export const PAID_COMMANDS: readonly PaidCommand[] = PAID_NOTICES.map(paidCommandOf);

/** The paid notice a command sends (undefined: not a payment's command). */
export function paidNoticeOf(command: string): PaidNotice | undefined {
  return PAID_NOTICES.find((notice) => paidCommandOf(notice) === command);
}

/** A Pix end-to-end id as the bank would give: E + ISPB (8) + yyyyMMddHHmm + 11 characters = 32. */
export function simulatedEndToEndId(now: Date): string {
  const stamp = now.toISOString().replace(/\D/g, '').slice(0, 12);
  return `E99999999${stamp}${randomString(11)}`;
}

/**
 * A payment's options (`provider pix-paid|boleto-paid --amount A --date D`): the amount the payer paid
 * (default: what is due that day) and the Brazil calendar date it was paid on (default: now).
 */
export type PaymentOptions = { amount?: string; date?: string };

/** Noon in Brazil (15:00 UTC) of a calendar date: a payment "on" that date. */
export function paidOn(date: string): string {
  return `${date}T15:00:00.000Z`;
}

/** The simulated provider's notification for a command. */
export function notificationFor(
  command: ProviderCommand,
  target: { txid?: string; reference?: string },
  now: Date,
  payment: PaymentOptions = {},
): SimulatedNotification {
  const id = `ntf_${randomString(24)}`;
  const occurred_at = now.toISOString();
  const reference = target.reference ?? '';
  const paid = { occurred_at: payment.date ? paidOn(payment.date) : occurred_at, ...(payment.amount ? { amount: payment.amount } : {}) };
  const notice = paidNoticeOf(command);
  if (notice) return notice.by === 'txid' ? { id, type: notice.type, txid: target.txid ?? '', ...paid } : { id, type: notice.type, reference, ...paid };
  if (command === 'withdraw-paid') return { id, type: 'pixout.paid', reference, end_to_end_id: simulatedEndToEndId(now), occurred_at };
  if (command === 'withdraw-refused') return { id, type: 'pixout.refused', reference, reason: 'Refused by the bank', occurred_at };
  return { id, type: command === 'cancel' ? 'charge.canceled' : 'charge.refunded', reference, occurred_at };
}

/**
 * Sends one signed notification to the running stack's inbound route, exactly as the provider
 * would (same route, same signature check), and returns the route's answer.
 */
export async function sendNotification(target: Target, notification: SimulatedNotification, now: Date): Promise<{ status: number; response: unknown }> {
  const { baseUrl, secrets, providerSecretId } = await target.api();
  const credentials = JSON.parse(await secrets.getSecretString(providerSecretId)) as { simulated?: string };
  const secret = credentials.simulated;
  if (!secret) throw new Error('The provider credentials secret has no "simulated" credential');
  const body = JSON.stringify(notification);
  const reply = await fetch(`${baseUrl.replace(/\/+$/, '')}/provider/simulated/notifications`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SIMULATED_SIGNATURE_HEADER]: signatureHeader(body, secret, Math.floor(now.getTime() / 1000)) },
    body,
  });
  const text = await reply.text();
  let response: unknown = text;
  try {
    response = JSON.parse(text);
  } catch {
    // keep the text
  }
  return { status: reply.status, response };
}
