import { callbackAllowed } from '../../domain/callback-origins';
import { checkoutSigningSecret } from '../../domain/checkout-signing';
import { PUBLIC_KEY_SHAPE } from '../../domain/auth/basic';
import type { CheckoutForm } from '../../pages/checkout/form';
import { newCheckoutReference, saleKey } from '../../checkout/record';
import { verifyFormSignature } from './form-signature';
import type { CheckoutAccount as Account } from '../../domain/account';
import type { Change, CheckoutReservation } from '../../domain/changes';
import type { Checkout, NewCheckout } from '../../domain/checkout';
import { CHECKOUT_METHODS, type CheckoutMethod } from '../../domain/payment-methods';
import { BadRequestError, ConflictError, DomainError, ValidationError } from '../../domain/errors';
import type { AccountDirectory, CheckoutStore } from '../../ports/checkouts';
import type { PixChargePorts } from '../charges/create-pix-charge';
import { checkoutPixInvoice } from './checkout-pix-invoice';

export type OpenCheckoutPorts = {
  accounts: Pick<AccountDirectory, 'byPublicKey'>;
  checkouts: Pick<CheckoutStore, 'ofReservation'>;
  pix: PixChargePorts;
  /** CHECKOUT_TTL: the checkout's Pix charge falls due the day it expires. */
  ttlSeconds: number;
};

/** The account of a public key, or 404 (a secret key in its place was refused by the form's rules; a key of another shape is never read). */
async function accountOfPublicKey(ports: OpenCheckoutPorts, publicKey: string): Promise<Account> {
  const unknown = () => new DomainError('not_found', 'Chave pública desconhecida: confira a public_key do formulário.', 'unknown_public_key');
  if (!PUBLIC_KEY_SHAPE.test(publicKey)) throw unknown();
  const account = await ports.accounts.byPublicKey(publicKey);
  if (!account) throw unknown();
  return account;
}

/** The checkout's methods among the account's: Pix and card (boleto is not offered on the hosted page). */
function checkoutMethods(account: Account): CheckoutMethod[] {
  return CHECKOUT_METHODS.filter((method) => account.methods.includes(method));
}

/** A signed form is checked whenever the account has a secret; a required signature must be there. */
function assertSignature(account: Account, fields: Record<string, string>, secretKey: Buffer): void {
  const signing = account.checkoutSigning;
  const signed = fields.signature !== undefined && fields.signature !== '';
  if (!signing.required && !signed) return;
  if (signing.version === 0) throw new BadRequestError('Esta conta não tem segredo de assinatura: o formulário não pode ser assinado.', 'invalid_signature');
  if (!signed) throw new BadRequestError('Formulário sem assinatura: esta loja exige formulários assinados.', 'signature_required');
  const secret = checkoutSigningSecret(secretKey, account.accountId, signing.version);
  if (!verifyFormSignature(fields, secret)) throw new BadRequestError('Assinatura do formulário inválida: o formulário foi alterado.', 'invalid_signature');
}

/** What a form must repeat to reach an existing checkout of its tx_ref: the whole sale and the payer. */
const SAME_SALE: ReadonlyArray<[keyof CheckoutForm, keyof Checkout]> = [
  ['amount_cents', 'amountCents'],
  ['quantity', 'quantity'],
  ['title', 'title'],
  ['email', 'email'],
  ['first_name', 'firstName'],
  ['last_name', 'lastName'],
  ['product_reference', 'productReference'],
  ['product_name', 'productName'],
  ['callback_url', 'callbackUrl'],
];

/**
 * Signed forms: the same tx_ref again leads to the same checkout only when the form repeats it (a payer
 * going back, a double submit); any other amount, payer or product → 409 (only the merchant can sign, so
 * the 409 tells nobody else anything). Unsigned forms never meet this: each sale has its own checkout.
 */
function assertSameSale(existing: Checkout, form: CheckoutForm): void {
  if (SAME_SALE.some(([field, attribute]) => (existing[attribute] ?? undefined) !== (form[field] ?? undefined))) {
    throw new ConflictError('Este tx_ref já foi usado para outra venda (outro valor, quantidade ou comprador).', 'tx_ref_in_use');
  }
}

export type OpenCheckoutRequest = {
  form: CheckoutForm;
  /** The form's fields as posted (the signature covers them). */
  fields: Record<string, string>;
  keys: { checkoutSigning: Buffer; saleKeys: Buffer };
  now: Date;
};

/**
 * The hosted checkout's entry form (its fields valid): finds the merchant by public key (404), refuses
 * a disabled account, an account with neither Pix nor card, an unsigned or altered form where
 * signatures are required (400) and a callback outside the account's origins (422); then answers the
 * checkout of this tx_ref (signed forms: one per tx_ref, the same sale only) or of this sale (unsigned:
 * issue 31, a stranger's post never blocks the real payer's), or creates it with its Pix charge.
 */
export async function openCheckout(ports: OpenCheckoutPorts, request: OpenCheckoutRequest): Promise<{ reference: string; changes: Change[] }> {
  const { form, now } = request;
  const account = await accountOfPublicKey(ports, form.public_key);
  if (account.disabled) throw new BadRequestError('Esta loja não está aceitando pagamentos no momento.', 'account_disabled');
  const methods = checkoutMethods(account);
  if (methods.length === 0) throw new BadRequestError('Esta loja não tem Pix nem cartão habilitados para o checkout.', 'method_not_enabled');
  assertSignature(account, request.fields, request.keys.checkoutSigning);
  if (!callbackAllowed(form.callback_url, account.callbackOrigins)) {
    throw new ValidationError({ callback_url: ['Este endereço de retorno não está entre os autorizados pela loja'] });
  }
  const { accountId } = account;
  // Signed forms: one checkout per tx_ref (only the merchant can sign). Unsigned: one per sale under a
  // tx_ref, so a stranger's post cannot take the tx_ref from the real payer, nor learn that it exists.
  const signed = account.checkoutSigning.required;
  const reservation: CheckoutReservation = signed
    ? { kind: 'tx_ref' }
    : { kind: 'sale', sale: saleKey(Object.fromEntries(SAME_SALE.map(([field]) => [field, form[field]])), request.keys.saleKeys) };
  const existing = await ports.checkouts.ofReservation(accountId, form.tx_ref, reservation);
  if (existing) {
    if (signed) assertSameSale(existing, form);
    return { reference: existing.reference, changes: [] };
  }
  const checkout: NewCheckout = {
    reference: newCheckoutReference(),
    accountId,
    txRef: form.tx_ref,
    merchantName: account.name ?? 'Loja',
    title: form.title,
    quantity: form.quantity,
    amountCents: form.amount_cents,
    totalCents: form.total_cents,
    email: form.email,
    firstName: form.first_name,
    lastName: form.last_name,
    ...(form.product_reference ? { productReference: form.product_reference } : {}),
    ...(form.product_name ? { productName: form.product_name } : {}),
    callbackUrl: form.callback_url,
    methods,
    createdAt: now.toISOString(),
  };
  const pix = methods.includes('pix') ? await checkoutPixInvoice(ports.pix, checkout, ports.ttlSeconds, now) : undefined;
  const created: NewCheckout = pix ? { ...checkout, pixReference: pix.invoice.reference } : checkout;
  // A concurrent post of the same tx_ref (signed) or sale (unsigned) wins the reservation: this one runs again and leads to that checkout.
  return { reference: created.reference, changes: [{ kind: 'checkout.created', checkout: created, reservation }, ...(pix?.changes ?? [])] };
}
