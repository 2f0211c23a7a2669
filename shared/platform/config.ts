import * as z from 'zod';
import {
  CEP_TIMEOUT_DEFAULT_MS,
  CEP_TIMEOUT_MAX_MS,
  DNS_TIMEOUT_DEFAULT_MS,
  DNS_TIMEOUT_MAX_MS,
  PROVIDER_TIMEOUT_DEFAULT_MS,
  PROVIDER_TIMEOUT_MAX_MS,
} from '../domain/time-budgets';

/** Card and boleto charges: only the simulated provider serves them so far. */
export const CARD_AND_BOLETO_PROVIDER = 'simulated';

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
/** A time limit that must fit the API functions' budgets (shared/domain/time-budgets.ts): a larger one is refused. */
const boundedMs = (fallback: number, max: number) => z.coerce.number().int().positive().max(max).default(fallback);

/** Runtime configuration of every handler, read once per container from the environment. */
export const configSchema = z.object({
  TABLE_NAME: z.string().min(1),
  MASTER_KEY_SECRET_ID: z.string().min(1),
  TOKEN_TTL_SECONDS: positiveInt(30 * 24 * 60 * 60),
  RATE_LIMIT_AUTH_PER_MINUTE: positiveInt(10),
  RATE_LIMIT_CEP_PER_MINUTE: positiveInt(30),
  RATE_LIMIT_ACCOUNT_PER_MINUTE: positiveInt(60),
  /** Per IP, the hosted checkout's public routes together (entry form, page, card form, status poll every 3 s). */
  RATE_LIMIT_CHECKOUT_PER_MINUTE: positiveInt(120),
  /** Per IP, Bearer calls whose token is missing, malformed, expired or revoked: past it, 429 instead of 401. */
  RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: positiveInt(60),
  /** Per IP, the other public routes with table access: the provider's notifications and the boleto page. */
  RATE_LIMIT_PUBLIC_PER_MINUTE: positiveInt(300),
  /** A checkout not paid this many seconds after its creation becomes ABANDONED (the checkout upkeep). */
  CHECKOUT_TTL: positiveInt(24 * 60 * 60),
  /** At most a minute: a lock left by a killed invocation expires by then, and the client's retry with the same key runs. */
  IDEMPOTENCY_LOCK_SECONDS: z.coerce.number().int().positive().max(60).default(60),
  IDEMPOTENCY_TTL_SECONDS: positiveInt(24 * 60 * 60),
  CEP_PROVIDER: z.enum(['public', 'fixture']).default('public'),
  /**
   * The payment provider new Pix charges are created with (a name the provider registry knows): the
   * simulated one, or `apipix`, any PSP speaking the Central Bank's API Pix standard (APIPIX_*).
   * Card and boleto charges stay on the simulated provider (shared/wiring/provider-registry.ts).
   */
  PAYMENT_PROVIDER: z.enum(['simulated', 'apipix']).default('simulated'),
  /** API Pix: the PSP's API base URL (`…/v2`: `/cob/{txid}` and `/webhook/{chave}` are under it). */
  APIPIX_BASE_URL: z.url().optional(),
  /** API Pix: the OAuth2 token endpoint (default: `/oauth/token` at the base URL's origin). */
  APIPIX_TOKEN_URL: z.url().optional(),
  APIPIX_CLIENT_ID: z.string().min(1).optional(),
  /** API Pix: the Pix key (chave) the charges are paid to. */
  APIPIX_PIX_KEY: z.string().min(1).max(77).optional(),
  /** API Pix: the Secrets Manager secret `{"client_secret","certificate","private_key","ca"?}` (PEM). */
  APIPIX_SECRET_ID: z.string().min(1).optional(),
  /** API Pix: the sweep looks up PENDING Pix charges created more than this many minutes ago. */
  APIPIX_SWEEP_AFTER_MINUTES: positiveInt(30),
  /** The bank new withdrawals are paid through (a name the provider registry knows). */
  BANK_PROVIDER: z.enum(['simulated']).default('simulated'),
  PROVIDER_SECRET_ID: z.string().min(1).optional(),
  PUBLIC_BASE_URL: z.url().default('http://127.0.0.1:3000'),
  /** Deployed stack only: the secret CloudFront adds to each request it forwards (unset: no edge, local runs). */
  EDGE_ORIGIN_SECRET_ID: z.string().min(1).optional(),
  PAYOUT_QUEUE_URL: z.string().min(1).optional(),
  PAYOUT_RETRY_SCALE: z.coerce.number().positive().max(1).default(1),
  /** How long a payout keeps being retried through a bank outage before its message goes to the DLQ. */
  PAYOUT_RETRY_WINDOW_SECONDS: positiveInt(86_400),
  /** The payout queue's DLQ: where a payout goes once its retry window is spent. */
  PAYOUT_DLQ_URL: z.string().min(1).optional(),
  /** The sweep forwards items the stream has not forwarded this long after their creation. */
  SWEEP_AFTER_SECONDS: positiveInt(300),
  /** A hard limit on each payout request to the bank: past it the attempt failed (retried like an outage). */
  BANK_TIMEOUT_MS: positiveInt(5000),
  WEBHOOK_QUEUE_URL: z.string().min(1).optional(),
  /** The panel's mail queue, and the sender of its messages (an SES-verified address); without MAIL_FROM nothing is sent (each message is logged as skipped). */
  MAIL_QUEUE_URL: z.string().min(1).optional(),
  MAIL_FROM: z.string().min(3).max(320).optional(),
  /** The SES configuration set every message is sent through (issue 44: its bounce and complaint events feed the mail feedback queue). */
  MAIL_CONFIGURATION_SET: z.string().min(1).max(64).optional(),
  WEBHOOK_RETRY_SCALE: z.coerce.number().positive().max(1).default(1),
  /** Local runs only (never set in AWS): hostnames or IP literals whose private addresses are allowed. */
  WEBHOOK_ALLOW_PRIVATE_HOSTS: z.string().default(''),
  /** A hard limit on each DNS look-up of a webhook host (configuration and every attempt). */
  DNS_TIMEOUT_MS: boundedMs(DNS_TIMEOUT_DEFAULT_MS, DNS_TIMEOUT_MAX_MS),
  CEP_TIMEOUT_MS: boundedMs(CEP_TIMEOUT_DEFAULT_MS, CEP_TIMEOUT_MAX_MS),
  /** A hard limit on each call to the payment provider: a route's chain of calls fits its function's timeout (shared/domain/time-budgets.ts). */
  PROVIDER_TIMEOUT_MS: boundedMs(PROVIDER_TIMEOUT_DEFAULT_MS, PROVIDER_TIMEOUT_MAX_MS),
  /** The daily reconciliation: the reconcile queue, and accounts per page (one message's work). */
  RECONCILE_QUEUE_URL: z.string().min(1).optional(),
  RECONCILE_PAGE_SIZE: positiveInt(100),
  /** Card testing (issue 31): declined card attempts one hosted checkout takes before its card form locks. */
  CARD_DECLINES_PER_CHECKOUT: positiveInt(3),
  /** Declined attempts of one card (its keyed fingerprint) in any hour, across checkouts, merchants and addresses. */
  CARD_DECLINES_PER_CARD_PER_HOUR: positiveInt(5),
  /** Declined card attempts of one merchant in any hour (checkout and API): past it card attempts wait, Pix goes on. */
  CARD_DECLINES_PER_MERCHANT_PER_HOUR: positiveInt(100),
  /**
   * The local stack only (infra/local/stack.ts creates it; refused in AWS, see LOCAL_ONLY_SETTINGS): a
   * folder of authenticator clock offsets the tests move forward instead of waiting for 30-s steps.
   */
  LOCAL_TOTP_CLOCK_DIR: z.string().min(1).optional(),
});

export type Config = {
  tableName: string;
  masterKeySecretId: string;
  tokenTtlSeconds: number;
  /**
   * Calls per any 60 s window (sliding log, shared/domain/sliding-log.ts): per client IP for auth,
   * cep, checkout, unauthenticated and public; per account for account.
   */
  rateLimits: { auth: number; cep: number; checkout: number; unauthenticated: number; public: number; account: number };
  checkout: { ttlSeconds: number };
  /** The daily reconciliation's queue and page size (shared/app/ledger/reconcile-run.ts). */
  reconcile: { queueUrl: string | undefined; pageSize: number };
  /** Card testing caps (shared/domain/card-fingerprint.ts): per checkout (lifetime), per card and per merchant (sliding hour). */
  cardDeclines: { perCheckout: number; perCardPerHour: number; perMerchantPerHour: number };
  idempotency: { lockSeconds: number; ttlSeconds: number };
  cep: { provider: 'public' | 'fixture'; timeoutMs: number };
  /**
   * `provider`: the registry name of the provider new Pix charges use; `cardAndBoletoProvider`: the
   * one card and boleto charges use (each invoice records its own).
   */
  payments: { provider: string; cardAndBoletoProvider: string; credentialsSecretId: string | undefined; timeoutMs: number };
  /** The API Pix PSP (shared/adapters/providers/apipix/): undefined unless PAYMENT_PROVIDER=apipix. */
  apiPix: ApiPixConfig | undefined;
  /** The service's own public base URL (boleto pages, the simulated PSP's locations). */
  publicBaseUrl: string;
  /** The CloudFront edge in front of the deployed API: the secret id of its origin check; undefined locally. */
  edge: { originSecretId: string | undefined };
  /**
   * The payout queue (withdrawals to ask the bank for), the factor applied to its retry waits, and the
   * registry name of the bank new withdrawals use (each withdraw records its own).
   */
  payouts: {
    bank: string;
    queueUrl: string | undefined;
    dlqUrl: string | undefined;
    retryScale: number;
    retryWindowSeconds: number;
    bankTimeoutMs: number;
  };
  webhooks: { queueUrl: string | undefined; retryScale: number; allowPrivateHosts: string[]; dnsTimeoutMs: number };
  mail: { queueUrl: string | undefined; from: string | undefined; configurationSet: string | undefined };
  sweep: { afterSeconds: number };
  /**
   * The local stack's test clock of the panel's authenticator (shared/adapters/crypto/totp-clock.ts):
   * a folder of whole-step offsets per authenticator; undefined (always in AWS) is the real clock.
   */
  localTotpClockDir: string | undefined;
};

export type ApiPixConfig = {
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  pixKey: string;
  secretId: string;
  sweepAfterMinutes: number;
};

type ParsedEnv = z.output<typeof configSchema>;

/** APIPIX_TOKEN_URL's default: `/oauth/token` at the API base URL's origin (the stack's `ApiPixTokenUrl` output says the same). */
export function defaultApiPixTokenUrl(baseUrl: string): string {
  return new URL('/oauth/token', baseUrl).toString();
}

/** The API Pix settings, all required once PAYMENT_PROVIDER=apipix (a missing one names itself). */
function apiPixConfig(c: ParsedEnv): ApiPixConfig | undefined {
  if (c.PAYMENT_PROVIDER !== 'apipix') return undefined;
  const missing = (['APIPIX_BASE_URL', 'APIPIX_CLIENT_ID', 'APIPIX_PIX_KEY', 'APIPIX_SECRET_ID'] as const).filter((name) => c[name] === undefined);
  if (missing.length > 0) throw new Error(`Invalid configuration: ${missing.join(', ')} (required with PAYMENT_PROVIDER=apipix)`);
  const baseUrl = String(c.APIPIX_BASE_URL).replace(/\/+$/, '');
  return {
    baseUrl,
    tokenUrl: c.APIPIX_TOKEN_URL ?? defaultApiPixTokenUrl(baseUrl),
    clientId: String(c.APIPIX_CLIENT_ID),
    pixKey: String(c.APIPIX_PIX_KEY),
    secretId: String(c.APIPIX_SECRET_ID),
    sweepAfterMinutes: c.APIPIX_SWEEP_AFTER_MINUTES,
  };
}

/** Settings of the local stack only: a deployed function refuses to start with one. */
export const LOCAL_ONLY_SETTINGS = ['LOCAL_TOTP_CLOCK_DIR'] as const;

/**
 * What marks a deployed function's environment: Lambda's own reserved variables (set by the Lambda
 * service on every function, never by the local stack) and the edge's origin secret (the deployed stack's).
 */
const DEPLOYED_MARKS = ['AWS_LAMBDA_FUNCTION_NAME', 'AWS_EXECUTION_ENV', 'LAMBDA_TASK_ROOT', 'EDGE_ORIGIN_SECRET_ID'] as const;

/** Whether an environment is a deployed function's (see DEPLOYED_MARKS). */
export function isDeployedEnvironment(env: Record<string, string | undefined>): boolean {
  return DEPLOYED_MARKS.some((name) => env[name] !== undefined && env[name] !== '');
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => issue.path.join('.')).join(', ');
    throw new Error(`Invalid configuration: ${fields}`);
  }
  const c = parsed.data;
  const localOnly = LOCAL_ONLY_SETTINGS.filter((name) => c[name] !== undefined);
  if (localOnly.length > 0 && isDeployedEnvironment(env)) {
    throw new Error(`Invalid configuration: ${localOnly.join(', ')} (local stack only, refused in a deployed function)`);
  }
  return {
    tableName: c.TABLE_NAME,
    masterKeySecretId: c.MASTER_KEY_SECRET_ID,
    tokenTtlSeconds: c.TOKEN_TTL_SECONDS,
    rateLimits: {
      auth: c.RATE_LIMIT_AUTH_PER_MINUTE,
      cep: c.RATE_LIMIT_CEP_PER_MINUTE,
      checkout: c.RATE_LIMIT_CHECKOUT_PER_MINUTE,
      unauthenticated: c.RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE,
      public: c.RATE_LIMIT_PUBLIC_PER_MINUTE,
      account: c.RATE_LIMIT_ACCOUNT_PER_MINUTE,
    },
    checkout: { ttlSeconds: c.CHECKOUT_TTL },
    reconcile: { queueUrl: c.RECONCILE_QUEUE_URL, pageSize: c.RECONCILE_PAGE_SIZE },
    cardDeclines: {
      perCheckout: c.CARD_DECLINES_PER_CHECKOUT,
      perCardPerHour: c.CARD_DECLINES_PER_CARD_PER_HOUR,
      perMerchantPerHour: c.CARD_DECLINES_PER_MERCHANT_PER_HOUR,
    },
    idempotency: { lockSeconds: c.IDEMPOTENCY_LOCK_SECONDS, ttlSeconds: c.IDEMPOTENCY_TTL_SECONDS },
    cep: { provider: c.CEP_PROVIDER, timeoutMs: c.CEP_TIMEOUT_MS },
    payments: {
      provider: c.PAYMENT_PROVIDER,
      cardAndBoletoProvider: CARD_AND_BOLETO_PROVIDER,
      credentialsSecretId: c.PROVIDER_SECRET_ID,
      timeoutMs: c.PROVIDER_TIMEOUT_MS,
    },
    apiPix: apiPixConfig(c),
    publicBaseUrl: c.PUBLIC_BASE_URL.replace(/\/+$/, ''),
    edge: { originSecretId: c.EDGE_ORIGIN_SECRET_ID },
    payouts: {
      bank: c.BANK_PROVIDER,
      queueUrl: c.PAYOUT_QUEUE_URL,
      dlqUrl: c.PAYOUT_DLQ_URL,
      retryScale: c.PAYOUT_RETRY_SCALE,
      retryWindowSeconds: c.PAYOUT_RETRY_WINDOW_SECONDS,
      bankTimeoutMs: c.BANK_TIMEOUT_MS,
    },
    webhooks: {
      queueUrl: c.WEBHOOK_QUEUE_URL,
      retryScale: c.WEBHOOK_RETRY_SCALE,
      allowPrivateHosts: c.WEBHOOK_ALLOW_PRIVATE_HOSTS.split(',')
        .map((h) => h.trim().toLowerCase())
        .filter((h) => h.length > 0),
      dnsTimeoutMs: c.DNS_TIMEOUT_MS,
    },
    mail: { queueUrl: c.MAIL_QUEUE_URL, from: c.MAIL_FROM, configurationSet: c.MAIL_CONFIGURATION_SET },
    sweep: { afterSeconds: c.SWEEP_AFTER_SECONDS },
    localTotpClockDir: c.LOCAL_TOTP_CLOCK_DIR,
  };
}

let cached: Config | undefined;

/** The process's configuration, parsed and validated on first use and then kept. */
export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}
