import { callbackAllowed, callbackOriginsOf } from '../../shared/accounts/callback-origins';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { checkoutSigningOf, checkoutSigningSecret } from '../../shared/accounts/checkout-signing';
import { PUBLIC_KEY_SHAPE } from '../../shared/auth/basic';
import { type CheckoutForm, parseCheckoutForm } from '../../shared/checkout/form';
import { checkoutOfReservation } from '../../shared/adapters/dynamo/checkout-lookup';
import { checkoutErrorPage, formBody, seeOther } from '../../shared/http/checkout/browser';
import { checkoutPixInvoice } from '../../shared/checkout/payments';
import { invoiceChanges } from '../../shared/wiring/charges';
import type { Change } from '../../shared/domain/changes';
import type { Checkout } from '../../shared/domain/checkout';
import {
  type CheckoutMethod,
  checkoutItem,
  checkoutPagePath,
  checkoutTxRefItem,
  newCheckoutReference,
  type NewCheckout,
  saleKey,
} from '../../shared/checkout/record';
import { verifyFormSignature } from '../../shared/checkout/signature';
import { BadRequestError, ConflictError, DomainError, IdClashError, ValidationError } from '../../shared/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { checkoutRoutes as routes } from '../../shared/http/route-table/checkout';
import type { Runtime } from '../../shared/runtime';
import type { Item } from '../../shared/adapters/dynamo/dynamo';
import { keys } from '../../shared/adapters/dynamo/keys';
import type { TxWrite } from '../../shared/adapters/dynamo/transact';
import { CHECKOUT_METHODS } from '../../shared/domain/payment-methods';

/** The local stack serves itself over http on loopback: its payers' callbacks may be local too (never in AWS, where the base URL is https). */
function isLocalStack(publicBaseUrl: string): boolean {
  const url = new URL(publicBaseUrl);
  return url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost');
}

/** The account of a public key, or 404 (a secret key in its place was refused by the form's rules; a key of another shape is never read). */
async function accountOfPublicKey(runtime: Runtime, publicKey: string): Promise<Item> {
  const unknown = () => new DomainError('not_found', 'Chave pública desconhecida: confira a public_key do formulário.', 'unknown_public_key');
  if (!PUBLIC_KEY_SHAPE.test(publicKey)) throw unknown();
  const table = runtime.config.tableName;
  const key = await runtime.db.send(
    new GetCommand({ TableName: table, Key: keys.publicKey(publicKey), ConsistentRead: true, ProjectionExpression: 'accountId' }),
  );
  const accountId = key.Item?.accountId;
  const account =
    typeof accountId === 'string'
      ? (await runtime.db.send(new GetCommand({ TableName: table, Key: keys.account(accountId), ConsistentRead: true }))).Item
      : undefined;
  if (!account) throw unknown();
  return account;
}

/** The checkout's methods among the account's: Pix and card (boleto is not offered on the hosted page). */
function checkoutMethods(account: Item): CheckoutMethod[] {
  const methods = Array.isArray(account.methods) ? account.methods : [];
  return CHECKOUT_METHODS.filter((method) => methods.includes(method));
}

/** A signed form is checked whenever the account has a secret; a required signature must be there. */
function assertSignature(account: Item, fields: Record<string, string>, secretKey: Buffer): void {
  const signing = checkoutSigningOf(account);
  const signed = fields.signature !== undefined && fields.signature !== '';
  if (!signing.required && !signed) return;
  if (signing.version === 0) throw new BadRequestError('Esta conta não tem segredo de assinatura: o formulário não pode ser assinado.', 'invalid_signature');
  if (!signed) throw new BadRequestError('Formulário sem assinatura: esta loja exige formulários assinados.', 'signature_required');
  const secret = checkoutSigningSecret(secretKey, String(account.accountId), signing.version);
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

/**
 * POST /ext_transfer: the hosted checkout's entry form. Validates every field (422 page listing them),
 * finds the merchant by public key (404), refuses a disabled account, an account with neither Pix nor
 * card, and an unsigned or altered form where signatures are required (400); then creates the checkout
 * (with its Pix charge) once per (account, tx_ref) with signed forms, once per (account, tx_ref, sale)
 * without (issue 31: a stranger's post under a tx_ref never blocks the real payer's), and sends the
 * payer to its page (303).
 */
export const handler = httpHandler(
  routes.checkoutEntry,
  async ({ event, runtime, now }) => {
    const parsed = parseCheckoutForm(formBody(event), { allowLocalCallback: isLocalStack(runtime.config.publicBaseUrl) });
    if (!parsed.ok) throw new ValidationError(parsed.errors);
    const form = parsed.value;
    const account = await accountOfPublicKey(runtime, form.public_key);
    if (account.disabled === true) throw new BadRequestError('Esta loja não está aceitando pagamentos no momento.', 'account_disabled');
    const methods = checkoutMethods(account);
    if (methods.length === 0) throw new BadRequestError('Esta loja não tem Pix nem cartão habilitados para o checkout.', 'method_not_enabled');
    const serviceKeys = await runtime.serviceKeys();
    assertSignature(account, parsed.fields as Record<string, string>, serviceKeys.checkoutSigning);
    if (!callbackAllowed(form.callback_url, callbackOriginsOf(account))) {
      throw new ValidationError({ callback_url: ['Este endereço de retorno não está entre os autorizados pela loja'] });
    }
    const accountId = String(account.accountId);
    // Signed forms: one checkout per tx_ref (only the merchant can sign). Unsigned: one per sale under a
    // tx_ref, so a stranger's post cannot take the tx_ref from the real payer, nor learn that it exists.
    const signed = checkoutSigningOf(account).required;
    const reservation = signed
      ? keys.checkoutTxRef(accountId, form.tx_ref)
      : keys.checkoutSale(accountId, form.tx_ref, saleKey(Object.fromEntries(SAME_SALE.map(([field]) => [field, form[field]])), serviceKeys.boletoLinks));
    const existing = await checkoutOfReservation(runtime, accountId, reservation);
    if (existing) {
      if (signed) assertSameSale(existing, form);
      return seeOther(checkoutPagePath(existing.reference, serviceKeys.boletoLinks));
    }
    const createdAt = now.toISOString();
    const checkout: NewCheckout = {
      reference: newCheckoutReference(),
      accountId,
      txRef: form.tx_ref,
      merchantName: typeof account.name === 'string' ? account.name : 'Loja',
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
      createdAt,
    };
    const table = runtime.config.tableName;
    const writes: TxWrite[] = [];
    const changes: Change[] = [];
    if (methods.includes('pix')) {
      const pix = await checkoutPixInvoice(runtime, checkout, now);
      checkout.pixReference = pix.invoice.reference;
      changes.push(...pix.changes);
    }
    // A concurrent post of the same tx_ref (signed) or sale (unsigned) wins the reservation: this one runs again and leads to that checkout.
    const clash = () => new IdClashError();
    writes.push(
      { Put: { TableName: table, Item: checkoutItem(checkout), ConditionExpression: 'attribute_not_exists(PK)' }, onConditionFailed: clash },
      {
        Put: {
          TableName: table,
          Item: { ...checkoutTxRefItem(accountId, form.tx_ref, checkout.reference, createdAt), ...reservation },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
        onConditionFailed: clash,
      },
    );
    return { ...seeOther(checkoutPagePath(checkout.reference, serviceKeys.boletoLinks)), writes, changes };
  },
  { errorPage: checkoutErrorPage, changes: invoiceChanges },
);
