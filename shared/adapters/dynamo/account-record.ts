import { callbackOriginsOf } from '../../accounts/callback-origins';
import { checkoutSigningOf } from '../../accounts/checkout-signing';
import type { Account } from '../../domain/account';
import { PAYMENT_METHODS, type PaymentMethod } from '../../domain/payment-methods';
import type { Item } from './dynamo';

/** An account item read back as its settings (never its secrets' values: the webhook secret only says whether it exists). */
export function accountOf(item: Item): Account {
  const methods: unknown[] = Array.isArray(item.methods) ? item.methods : [];
  return {
    accountId: String(item.accountId),
    ...(typeof item.name === 'string' ? { name: item.name } : {}),
    methods: methods.filter((method): method is PaymentMethod => PAYMENT_METHODS.some((known) => known === method)),
    ...(typeof item.withdrawFeeCents === 'number' ? { withdrawFeeCents: item.withdrawFeeCents } : {}),
    ...(typeof item.webhookUrl === 'string' ? { webhookUrl: item.webhookUrl } : {}),
    webhookSecretConfigured: typeof item.webhookSecretSealed === 'string',
    disabled: item.disabled === true,
    checkoutSigning: checkoutSigningOf(item),
    callbackOrigins: callbackOriginsOf(item),
  };
}
