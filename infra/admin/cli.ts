/**
 * The operator CLI (`npm run admin -- <command>`): the merchant panel's stand-in and on-call's tool.
 * Each command prints ONE JSON object on stdout (`account reconcile --all`: one per account, one a
 * line); bad input exits 2 and a failure exits 1, each with a one-line message on stderr. Secrets are
 * printed only where the command issues them.
 */
import { parseArgs } from 'node:util';
import { checkoutSigningSecret } from '../../shared/accounts/checkout-signing';
import { parseMethods } from '../../shared/accounts/methods';
import {
  createAccount,
  creditAccount,
  rotateKeys,
  setAccountDisabled,
  setCheckoutSigning,
  setMethods,
  showAccount,
  type AccountStore,
} from '../../shared/accounts/store';
import { allAccountIds, reconcileAccount } from '../../shared/ledger/reconcile';
import { parseAmountToCents } from '../../shared/money';
import { notificationFor, type ProviderCommand, sendNotification } from './provider';
import { redriveStreamFailures } from './stream';
import { resolveTarget, type Target } from './target';

class UsageError extends Error {}

/** A command that wrote its own lines on stdout (one JSON object each) and ends with this status, and this line on stderr when it is 1. */
class Printed {
  constructor(
    readonly exitCode: 0 | 1,
    readonly notice?: string,
  ) {}
}

const USAGE =
  'usage: npm run admin -- account create|rotate-keys|set-methods|credit|show|checkout-signing|disable|enable|reconcile [--name N] [--account ID | --all] [--methods pix,boleto,card] [--withdraw-fee 0.00] [--amount 100.00] [--require on|off] [--rotate] | provider … | stream redrive [--stack NAME | --table NAME] (README: Operator CLI)';

const CHECKOUT_SECRET_NOTICE =
  'Shown once: the service does not store this secret and cannot show it again. Keep it on your server only (never in a page) and sign each checkout form with it (signature = hex HMAC-SHA256 of the canonical form); --rotate issues a new one and the previous one stops working at once.';

const { positionals, values } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        methods: { type: 'string' },
        'withdraw-fee': { type: 'string' },
        account: { type: 'string' },
        amount: { type: 'string' },
        txid: { type: 'string' },
        reference: { type: 'string' },
        outcome: { type: 'string' },
        require: { type: 'string' },
        rotate: { type: 'boolean' },
        all: { type: 'boolean' },
        stack: { type: 'string' },
        table: { type: 'string' },
        region: { type: 'string' },
        help: { type: 'boolean' },
      },
    });
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  }
})();

function required(name: 'name' | 'methods' | 'account' | 'amount' | 'txid' | 'reference' | 'outcome' | 'require'): string {
  const value = values[name];
  if (value === undefined || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

function usage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

const PROVIDER_COMMANDS: readonly string[] = ['pix-paid', 'boleto-paid', 'cancel', 'refund', 'withdraw'];

/**
 * `account reconcile`: an account's balance against the sum of its ledger entries, one JSON line per
 * account (`--account ID`, or `--all` as it goes); exits 1 when any differs (saying how many on
 * stderr). An unknown account is a failure.
 */
async function reconcile(target: Target): Promise<Printed> {
  const all = values.all === true;
  if (all === (values.account !== undefined)) throw new UsageError('account reconcile needs --account ID or --all (not both)');
  const ids = all ? await allAccountIds(target.db, target.table) : [required('account')];
  let differing = 0;
  for (const accountId of ids) {
    const result = await reconcileAccount(target.db, target.table, accountId);
    if (!result.ok) differing += 1;
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }
  if (differing === 0) return new Printed(0);
  return new Printed(1, `${differing} of ${ids.length} accounts differ from the sum of their ledger entries (ok: false above)`);
}

async function run(): Promise<unknown> {
  const [group, command] = positionals;
  if (values.help || (group !== 'account' && group !== 'provider' && group !== 'stream') || !command) throw new UsageError(USAGE);
  if (group === 'stream' && command !== 'redrive') throw new UsageError(`unknown command "stream ${command}": ${USAGE}`);
  if (group === 'provider' && !PROVIDER_COMMANDS.includes(command)) throw new UsageError(`unknown command "provider ${command}": ${USAGE}`);
  const target = await resolveTarget({ stack: values.stack, table: values.table, region: values.region }, process.env);
  if (group === 'stream') {
    const queues = await target.queues();
    return redriveStreamFailures({ db: target.db, table: target.table, sqs: queues.sqs, streamFailures: queues.streamFailures, queues });
  }
  if (group === 'provider') {
    let which = command as ProviderCommand;
    if (command === 'withdraw') {
      const outcome = required('outcome');
      if (outcome !== 'paid' && outcome !== 'refused') throw new UsageError('--outcome must be paid or refused');
      which = outcome === 'paid' ? 'withdraw-paid' : 'withdraw-refused';
    }
    const ids = which === 'pix-paid' ? { txid: required('txid') } : { reference: required('reference') };
    const now = new Date();
    return sendNotification(target, notificationFor(which, ids, now), now);
  }
  const store: AccountStore = { db: target.db, table: target.table, now: () => new Date() };
  switch (command) {
    case 'create': {
      const name = required('name');
      if (name.length > 120) throw new UsageError('--name is at most 120 characters');
      const methods = usage(() => parseMethods(values.methods ?? 'pix,boleto,card'));
      const withdrawFeeCents = usage(() => parseAmountToCents(values['withdraw-fee'] ?? '0.00'));
      return createAccount(store, { name, methods, withdrawFeeCents });
    }
    case 'rotate-keys':
      return rotateKeys(store, required('account'));
    case 'set-methods': {
      const accountId = required('account');
      const methods = usage(() => parseMethods(required('methods')));
      await setMethods(store, accountId, methods);
      return { account_id: accountId, methods };
    }
    case 'credit': {
      const accountId = required('account');
      const cents = usage(() => parseAmountToCents(required('amount')));
      if (cents <= 0) throw new UsageError('--amount must be greater than zero');
      return creditAccount(store, accountId, cents);
    }
    case 'show':
      return showAccount(store, required('account'));
    case 'checkout-signing': {
      const accountId = required('account');
      const flag = required('require');
      if (flag !== 'on' && flag !== 'off') throw new UsageError('--require must be on or off');
      const require = flag === 'on';
      const rotate = values.rotate === true;
      // The keys come first: a secret version must never be issued that this call could not show.
      const keys = require || rotate ? await target.serviceKeys() : undefined;
      const change = await setCheckoutSigning(store, accountId, { require, rotate });
      if (!change.issued) return { account_id: accountId, checkout_signing_required: change.required };
      if (!keys) throw new Error('A secret was issued without the service keys');
      return {
        account_id: accountId,
        checkout_signing_required: change.required,
        secret: checkoutSigningSecret(keys.checkoutSigning, accountId, change.version),
        secret_notice: CHECKOUT_SECRET_NOTICE,
      };
    }
    case 'reconcile':
      return reconcile(target);
    case 'disable':
    case 'enable': {
      const accountId = required('account');
      const disabled = command === 'disable';
      await setAccountDisabled(store, accountId, disabled);
      return { account_id: accountId, disabled };
    }
    default:
      throw new UsageError(`unknown command "account ${command}": ${USAGE}`);
  }
}

try {
  const result = await run();
  if (result instanceof Printed) {
    if (result.notice) process.stderr.write(`${result.notice}\n`);
    process.exitCode = result.exitCode;
  } else process.stdout.write(`${JSON.stringify(result)}\n`);
} catch (err) {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`${err instanceof UsageError ? message : `error: ${message}`}`.replace(/\s*\n\s*/g, ' ') + '\n');
  process.exit(err instanceof UsageError ? 2 : 1);
}
