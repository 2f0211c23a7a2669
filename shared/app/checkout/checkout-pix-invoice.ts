import { brazilDate } from '../../domain/brazil-dates';
import type { Change } from '../../domain/changes';
import type { NewCheckout } from '../../domain/checkout';
import type { NewInvoice } from '../../domain/invoice';
import { createPixCharge, type PixChargePorts } from '../charges/create-pix-charge';
import { saleInvoice } from './checkout-payments';

/*
 * The checkout's Pix invoice, apart from its card payments (checkout-payments.ts): the card form and the
 * upkeep never create a Pix charge, so they do not bundle its QR encoder (issue 26's size budget).
 */

const PIX_FAILED = 'O provedor de pagamentos não respondeu; tente novamente em instantes.';

/**
 * The Pix charge of a new checkout, through the one Pix charge use case (create-pix-charge.ts): asked
 * of the provider once (a failure → 502, nothing recorded), due the day the checkout expires (Brazil's
 * date), ids checked unused first. Returns the invoice and its change, for the checkout's own transaction.
 */
export async function checkoutPixInvoice(
  ports: PixChargePorts,
  checkout: NewCheckout,
  ttlSeconds: number,
  now: Date,
): Promise<{ invoice: NewInvoice; changes: Change[] }> {
  const { answer, changes } = await createPixCharge(ports, {
    base: (ids) => saleInvoice(checkout, ids, now),
    totalCents: checkout.totalCents,
    dueDate: brazilDate(new Date(now.getTime() + ttlSeconds * 1000)),
    merchantName: checkout.merchantName,
    payer: { email: checkout.email, name: `${checkout.firstName} ${checkout.lastName}` },
    failure: PIX_FAILED,
    now,
  });
  return { invoice: answer, changes };
}
