import type { Account } from '../../domain/account';
import type { PaymentMethod } from '../../domain/payment-methods';
import type { Item } from './dynamo';

/** An account item read back as its settings (never its secrets' values: the webhook secret only says whether it exists). */
export function accountOf(item: Item): Account {
  return {
    accountId: String(item.accountId),
    ...(typeof item.name === 'string' ? { name: item.name } : {}),
    // Written by the operator's CLI only, from the registry's names: read back as written.
    methods: (Array.isArray(item.methods) ? item.methods : []) as PaymentMethod[],
    ...(typeof item.withdrawFeeCents === 'number' ? { withdrawFeeCents: item.withdrawFeeCents } : {}),
    ...(typeof item.webhookUrl === 'string' ? { webhookUrl: item.webhookUrl } : {}),
    webhookSecretConfigured: typeof item.webhookSecretSealed === 'string',
    disabled: item.disabled === true,
  };
}
