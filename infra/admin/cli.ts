/**
 * The operator CLI (`npm run admin -- <command>`): the merchant panel's stand-in and on-call's tool.
 * Each command prints ONE JSON object on stdout (`account reconcile --all`: one per account, one a
 * line); bad input exits 2 and a failure exits 1, each with a one-line message on stderr. Secrets are
 * printed only where the command issues them.
 */
import { parseArgs } from 'node:util';
import { parseCallbackOrigins } from '../../shared/domain/callback-origins';
import { checkoutSigningSecret } from '../../shared/domain/checkout-signing';
import { parseMethods } from '../../shared/domain/payment-methods';
import {
  createAccount,
  creditAccount,
  rotateKeys,
  setAccountDisabled,
  setCallbackOrigins,
  setCheckoutSigning,
  setMethods,
  showAccount,
  type AccountStore,
} from '../../shared/adapters/dynamo/accounts';
import { indexAccount } from '../../shared/adapters/dynamo/account-index';
import { allAccountIds, reconcileAccount } from '../../shared/adapters/dynamo/ledger-reconcile';
import { parseAmountToCents } from '../../shared/domain/money';
import { findDlq, QUEUE_NAMES, STREAM_FAILURES_QUEUE, dlqDepths, inspectDlq, redriveDlq } from './dlq';
import { reconcilePixCharge, reconcileReceivedPix, registerPixWebhook } from './apipix';
import type { StatementWindow } from '../../shared/domain/pix-statement';

/** The longest window `provider reconcile --from --to` reads in one go. */
const MAX_STATEMENT_WINDOW_MS = 31 * 24 * 60 * 60 * 1000;
import { notificationFor, PAID_COMMANDS, paidNoticeOf, type PaymentOptions, type ProviderCommand, sendNotification } from './provider';
import { redriveStreamFailures } from './stream';
import { resolveTarget, type Target } from './target';
import { DELIVERY_STATUSES, deliveriesOf, redeliver } from './webhook';
import { withdrawFeeProblem } from '../../shared/domain/withdrawal-fee';
import { invitePerson } from '../../shared/app/panel/invite-person';
import { requestPasswordReset } from '../../shared/app/panel/password-reset';
import { panelResetPorts } from '../../shared/wiring/panel-recovery';
import { ValidationError } from '../../shared/domain/errors';
import { panelInvitePorts } from '../../shared/wiring/panel';

class UsageError extends Error {}

/** A command that wrote its own lines on stdout (one JSON object each) and ends with this status, and this line on stderr when it is 1. */
class Printed {
  constructor(
    readonly exitCode: 0 | 1,
    readonly notice?: string,
  ) {}
}

const USAGE =
  'usage: npm run admin -- account create|rotate-keys|set-methods|credit|show|checkout-signing|callback-origins|disable|enable|reconcile [--name N] [--account ID | --all] [--methods pix,boleto,card] [--withdraw-fee 0.00] [--amount 100.00] [--require on|off] [--rotate] [--origins https://shop.example,… | none] | provider pix-paid --txid T|boleto-paid --reference R [--amount 25.51] [--date YYYY-MM-DD] | provider cancel|refund|withdraw … | provider reconcile --txid T|--from ISO --to ISO | provider register-webhook | stream redrive | dlq list | dlq inspect|redrive --queue payouts|webhooks|reconcile|mail|mail-feedback|stream-failures [--max N] | webhook redeliver --event evt_… | panel invite --account ID --email E --role owner|admin|developer|finance|viewer | panel reset --email E | webhook deliveries --account ID [--status pending|succeeded|failed] [--stack NAME | --table NAME] (README: Operator CLI)';

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
        date: { type: 'string' },
        txid: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        reference: { type: 'string' },
        outcome: { type: 'string' },
        require: { type: 'string' },
        origins: { type: 'string' },
        rotate: { type: 'boolean' },
        all: { type: 'boolean' },
        queue: { type: 'string' },
        max: { type: 'string' },
        event: { type: 'string' },
        status: { type: 'string' },
        email: { type: 'string' },
        role: { type: 'string' },
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

function required(
  name: 'name' | 'methods' | 'account' | 'amount' | 'txid' | 'reference' | 'outcome' | 'require' | 'origins' | 'queue' | 'event' | 'email' | 'role',
): string {
  const value = values[name];
  if (value === undefined || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

/** A payment's --amount (what the payer paid, 2 decimals) and --date (the Brazil date it was paid on), checked. */
function paymentOptions(amount: string | undefined, date: string | undefined): PaymentOptions {
  if (amount !== undefined && !/^\d{1,13}\.\d{2}$/.test(amount.trim())) throw new UsageError('--amount must be digits with 2 decimals, e.g. 25.51');
  if (date !== undefined && !(/^\d{4}-\d{2}-\d{2}$/.test(date.trim()) && !Number.isNaN(Date.parse(`${date.trim()}T00:00:00Z`))))
    throw new UsageError('--date must be a date, YYYY-MM-DD');
  return { ...(amount ? { amount: amount.trim() } : {}), ...(date ? { date: date.trim() } : {}) };
}

/** The window of `provider reconcile --from --to`: two RFC 3339 instants, from before to, at most 31 days apart. */
function statementWindow(from: string | undefined, to: string | undefined): StatementWindow {
  if (from === undefined || to === undefined) throw new UsageError('provider reconcile needs --txid T, or --from and --to (RFC 3339 instants)');
  const instant = (text: string, name: string) => {
    const ms = /^\d{4}-\d{2}-\d{2}T/.test(text.trim()) ? Date.parse(text.trim()) : Number.NaN;
    if (Number.isNaN(ms)) throw new UsageError(`--${name} must be an instant, e.g. 2026-11-28T00:00:00Z`);
    return new Date(ms);
  };
  const window = { from: instant(from, 'from'), to: instant(to, 'to') };
  if (window.to.getTime() <= window.from.getTime()) throw new UsageError('--to must be after --from');
  if (window.to.getTime() - window.from.getTime() > MAX_STATEMENT_WINDOW_MS)
    throw new UsageError('the window is at most 31 days: reconcile a longer period in parts');
  return window;
}

function usage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

const PROVIDER_COMMANDS: readonly string[] = [...PAID_COMMANDS, 'cancel', 'refund', 'withdraw', 'reconcile', 'register-webhook'];

/**
 * `account reconcile`: an account's balance against the sum of its ledger entries, one JSON line per
 * account (`--account ID`, or `--all` as it goes); exits 1 when any differs (saying how many on
 * stderr). An unknown account is a failure. `--all` finds the accounts with a Scan and puts any account
 * created before the account index into it (the daily reconciliation pages through that index).
 */
async function reconcile(target: Target): Promise<Printed> {
  const all = values.all === true;
  if (all === (values.account !== undefined)) throw new UsageError('account reconcile needs --account ID or --all (not both)');
  const ids = all ? await allAccountIds(target.db, target.table) : [required('account')];
  let differing = 0;
  for (const accountId of ids) {
    if (all) await indexAccount(target.db, target.table, accountId);
    const result = await reconcileAccount(target.db, target.table, accountId);
    if (!result.ok) differing += 1;
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }
  if (differing === 0) return new Printed(0);
  return new Printed(1, `${differing} of ${ids.length} accounts differ from the sum of their ledger entries (ok: false above)`);
}

/** Writes each value as one JSON line on stdout. */
function printLines(lines: readonly unknown[]): Printed {
  for (const line of lines) process.stdout.write(`${JSON.stringify(line)}\n`);
  return new Printed(0);
}

/** `--max N`: a whole number from 1 to 10,000 (default: 10 for inspect, 10,000 for redrive). */
function maxFlag(fallback: number): number {
  const raw = values.max;
  if (raw === undefined) return fallback;
  if (!/^\d{1,5}$/.test(raw.trim()) || Number(raw) < 1 || Number(raw) > 10_000) throw new UsageError('--max must be a whole number from 1 to 10000');
  return Number(raw);
}

/** `dlq list|inspect|redrive` (infra/admin/dlq.ts). The flags are checked before any queue is reached. */
async function dlq(command: string, target: () => Promise<Target>): Promise<unknown> {
  if (command === 'list') return printLines(await dlqDepths(await (await target()).queues()));
  const name = required('queue');
  if (!QUEUE_NAMES.includes(name)) throw new UsageError(`--queue must be one of ${QUEUE_NAMES.join(', ')}`);
  const max = maxFlag(command === 'inspect' ? 10 : 10_000);
  const { table, db, queues } = await target();
  const urls = await queues();
  const found = await findDlq(urls, name);
  if (!found) throw new UsageError(`--queue must be one of ${QUEUE_NAMES.join(', ')}`);
  if (command === 'inspect') return printLines(await inspectDlq(urls.sqs, found, max));
  if (name === STREAM_FAILURES_QUEUE) {
    // The failure queue has no source queue: its records name stream windows, forwarded again from the table.
    // At most --max failure records (each names a window of stream records, forwarded again from the table).
    const result = await redriveStreamFailures({ db, table, sqs: urls.sqs, streamFailures: urls.streamFailures, queues: urls }, max);
    return { queue: name, moved: result.forwarded, ...result };
  }
  return { queue: name, moved: await redriveDlq(urls.sqs, found, max) };
}

/** `webhook redeliver|deliveries` (infra/admin/webhook.ts). */
async function webhook(command: string, target: () => Promise<Target>): Promise<unknown> {
  if (command === 'redeliver') {
    const eventId = required('event');
    if (!/^evt_[A-Za-z0-9_-]{1,100}$/.test(eventId)) throw new UsageError('--event must be an event id (evt_…)');
    const t = await target();
    return redeliver({ db: t.db, table: t.table, now: () => new Date() }, eventId);
  }
  const accountId = required('account');
  const status = values.status?.trim();
  if (status !== undefined && !DELIVERY_STATUSES.includes(status)) throw new UsageError(`--status must be one of ${DELIVERY_STATUSES.join(', ')}`);
  const t = await target();
  return printLines(await deliveriesOf(t, accountId, status));
}

/**
 * `panel invite`: a person invited to an account's merchant panel with a role; prints
 * {"account_id","email","role","invite_url","expires_at"}. The link works once, for 72 hours; only its
 * token's hash is stored, so the link is shown here and nowhere else.
 */
async function panelInvite(target: () => Promise<Target>): Promise<unknown> {
  const accountId = required('account');
  const email = required('email');
  const role = required('role');
  const t = await target();
  const { baseUrl } = await t.api();
  try {
    return await invitePerson(
      panelInvitePorts(t.db, t.table, async () => (await t.serviceKeys()).mail),
      { accountId, email, role, invitedBy: 'operator', publicBaseUrl: baseUrl, now: new Date() },
    );
  } catch (err) {
    if (err instanceof ValidationError) {
      throw new UsageError(
        Object.entries(err.fields)
          .map(([field, messages]) => `--${field}: ${messages.join('; ')}`)
          .join('; '),
      );
    }
    throw err;
  }
}

/**
 * `panel reset --email E`: a password reset link for a person of the panel (an hour, once; its page also
 * asks a code of the person's authenticator), mailed to them and printed as
 * {"email","reset_url","expires_at"}. An e-mail that does not sign in to the panel: exit 1.
 */
async function panelReset(target: () => Promise<Target>): Promise<unknown> {
  const email = required('email');
  if (email.length > 254) throw new UsageError('--email is at most 254 characters');
  const t = await target();
  const { baseUrl } = await t.api();
  const ports = panelResetPorts(t.db, t.table, async () => (await t.serviceKeys()).mail, baseUrl);
  const answer = await requestPasswordReset(ports, { email, requestedBy: 'operator', ip: 'operator', now: new Date() });
  if (!answer) throw new Error('No person signs in to the panel with this e-mail');
  return answer;
}

const COMMANDS: Readonly<Record<string, readonly string[]>> = {
  stream: ['redrive'],
  provider: PROVIDER_COMMANDS,
  dlq: ['list', 'inspect', 'redrive'],
  webhook: ['redeliver', 'deliveries'],
  panel: ['invite', 'reset'],
};

async function run(): Promise<unknown> {
  const [group, command] = positionals;
  if (values.help || !group || !command || (group !== 'account' && COMMANDS[group] === undefined)) throw new UsageError(USAGE);
  if (group !== 'account' && !COMMANDS[group]?.includes(command)) throw new UsageError(`unknown command "${group} ${command}": ${USAGE}`);
  const targetOf = () => resolveTarget({ stack: values.stack, table: values.table, region: values.region }, process.env);
  if (group === 'dlq') return dlq(command, targetOf);
  if (group === 'webhook') return webhook(command, targetOf);
  if (group === 'panel') return command === 'reset' ? panelReset(targetOf) : panelInvite(targetOf);
  const target = await targetOf();
  if (group === 'stream') {
    const queues = await target.queues();
    return redriveStreamFailures({ db: target.db, table: target.table, sqs: queues.sqs, streamFailures: queues.streamFailures, queues });
  }
  if (group === 'provider' && command === 'reconcile' && values.txid === undefined)
    return reconcileReceivedPix(target, statementWindow(values.from, values.to));
  if (group === 'provider' && command === 'reconcile') {
    if (values.from !== undefined || values.to !== undefined) throw new UsageError('provider reconcile takes --txid T or --from/--to, not both');
    const txid = required('txid');
    if (!/^[a-zA-Z0-9]{26,35}$/.test(txid)) throw new UsageError('--txid must be 26 to 35 letters and digits');
    return reconcilePixCharge(target, txid);
  }
  if (group === 'provider' && command === 'register-webhook') return registerPixWebhook(target);
  if (group === 'provider') {
    let which = command as ProviderCommand;
    if (command === 'withdraw') {
      const outcome = required('outcome');
      if (outcome !== 'paid' && outcome !== 'refused') throw new UsageError('--outcome must be paid or refused');
      which = outcome === 'paid' ? 'withdraw-paid' : 'withdraw-refused';
    }
    const notice = paidNoticeOf(which);
    const ids = notice?.by === 'txid' ? { txid: required('txid') } : { reference: required('reference') };
    const now = new Date();
    const payment = notice ? paymentOptions(values.amount, values.date) : {};
    return sendNotification(target, notificationFor(which, ids, now, payment), now);
  }
  const store: AccountStore = { db: target.db, table: target.table, now: () => new Date() };
  switch (command) {
    case 'create': {
      const name = required('name');
      if (name.length > 120) throw new UsageError('--name is at most 120 characters');
      const methods = usage(() => parseMethods(values.methods ?? 'pix,boleto,card'));
      const withdrawFeeCents = usage(() => {
        const cents = parseAmountToCents(values['withdraw-fee'] ?? '0.00');
        const problem = withdrawFeeProblem(cents);
        if (problem) throw new Error(`--withdraw-fee: ${problem}`);
        return cents;
      });
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
    case 'callback-origins': {
      const accountId = required('account');
      const parsed = parseCallbackOrigins(required('origins'), target.where === 'local');
      if (!parsed.ok)
        throw new UsageError(
          `--origins: ${JSON.stringify(parsed.refused)} is not an https origin in canonical form (https://host[:port], no path), or the list is empty or over 20; "none" lifts the restriction`,
        );
      await setCallbackOrigins(store, accountId, parsed.origins);
      return { account_id: accountId, callback_origins: parsed.origins };
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
