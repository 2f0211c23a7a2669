import * as logs from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';

/** Requests per second (steady) and burst of an API Gateway throttle. */
export type Throttle = { rate: number; burst: number };

/** A custom domain for the API: its name and the ACM certificate (in us-east-1, where CloudFront reads certificates) that covers it. */
export type CustomDomain = { domainName: string; certificateArn: string };

/**
 * CloudFront's own way in to the HTTP API (issue 44, item 8): an API Gateway regional custom domain
 * (`domainName`, covered by `certificateArn`, an ACM certificate in the stack's region) that becomes
 * CloudFront's origin, with the execute-api endpoint disabled. `hostedZoneId`: a Route 53 public zone
 * the stack writes the name's alias record in (undefined: the operator points the name at the
 * OriginDomainTarget output). `mtls`: the domain takes only connections that present CloudFront's client
 * certificate (`clientCertificateArn`, imported into ACM in us-east-1, TLS Client Authentication EKU),
 * checked against the CA bundle at `truststore` (an S3 object the deploying principal may read).
 */
export type OriginDomain = {
  domainName: string;
  certificateArn: string;
  hostedZoneId: string | undefined;
  mtls: { clientCertificateArn: string; truststore: { bucket: string; key: string; version: string | undefined } } | undefined;
};

/**
 * An API Pix PSP (the Central Bank's standard) for new Pix charges: its API base URL, its OAuth2 token
 * endpoint (undefined: the functions' default, `/oauth/token` at the base URL's origin), the client id,
 * the Pix key (chave) charges are paid to, and the name of the Secrets Manager secret the operator
 * created beforehand: `{"client_secret","certificate","private_key","ca"?}` (PEM).
 */
export type ApiPixSettings = { baseUrl: string; tokenUrl: string | undefined; clientId: string; pixKey: string; secretName: string };

/** The deploy-time settings of the stack, from CDK context (`-c name=value` or cdk.json "context"). */
export type StackSettings = {
  /** Stage default for every route (HTTP API DefaultRouteSettings). */
  throttle: Throttle;
  /** POST /api/auth: the only route that checks a secret key, so a tighter limit than the rest. */
  authThrottle: Throttle;
  /** Reserved concurrency of the provider notifications function (payment confirmations); undefined: none. */
  providerNotificationConcurrency: number | undefined;
  /** Reserved concurrency of the stream forwarder; undefined: none. */
  streamForwarderConcurrency: number | undefined;
  logRetention: logs.RetentionDays;
  domain: CustomDomain | undefined;
  /** CloudFront's origin on an API Gateway custom domain, the execute-api endpoint disabled; undefined: the execute-api address is the origin. */
  origin: OriginDomain | undefined;
  /**
   * A production deploy (`-c production=true`; issue 44): it takes real cards, so it needs the custom
   * domain (TLS 1.2 at least, TLSv1.2_2021): the default *.cloudfront.net certificate leaves CloudFront's
   * TLSv1 policy, and PCI DSS forbids TLS 1.0/1.1 where card data is entered.
   */
  production: boolean;
  /** Where the alarm topic sends email (one subscription, confirmed by its recipient); undefined: none given in the context. */
  alarmEmail: string | undefined;
  /**
   * Who hears the alarms (issue 25: a deploy cannot leave them silent without saying so): an email
   * (`alarmEmail`), an existing SNS topic (`alarmTopicArn`), nobody on purpose (`alarmEmail=none`), or,
   * when the context names none, the deploy must: a CloudFormation parameter `AlarmEmail` with no
   * default (an address or `none`), so `cdk deploy` without it stops before anything changes.
   */
  alarmRecipient: AlarmRecipient;
  /** An AWS WAF web ACL (CLOUDFRONT scope, us-east-1) for the distribution; undefined: none. */
  webAclArn: string | undefined;
  /** The API Pix PSP new Pix charges go to; undefined: the simulated provider (no real charge). */
  apiPix: ApiPixSettings | undefined;
  /**
   * The merchant panel's mail sender (`mailFrom`: an address SES has verified, or one of a verified
   * domain): the mail worker may send from it only. Undefined: no mail is sent (each message is logged
   * as skipped; invite and reset links are still printed by the CLI and shown once in the panel).
   */
  mailFrom: string | undefined;
};

export type AlarmRecipient = { kind: 'email'; email: string } | { kind: 'topic'; topicArn: string } | { kind: 'none' } | { kind: 'deploy-parameter' };

/** The defaults, and the context keys that override them. */
export const DEFAULT_SETTINGS = {
  throttleRate: 500,
  throttleBurst: 1000,
  authThrottleRate: 10,
  authThrottleBurst: 20,
  providerNotificationConcurrency: 50,
  streamForwarderConcurrency: 10,
  // PCI DSS 10.5.1: audit logs kept at least 12 months (card data passes through these functions).
  logRetentionDays: 365,
} as const;

/** CloudWatch Logs' allowed retention periods in days (RetentionDays without INFINITE). */
export const ALLOWED_RETENTION_DAYS: readonly number[] = Object.values(logs.RetentionDays)
  .filter((days): days is number => typeof days === 'number' && days !== logs.RetentionDays.INFINITE)
  .sort((a, b) => a - b);

type Lookup = (key: string) => unknown;

/** Context values come as strings from `-c key=value` and as JSON values from cdk.json. */
function numberSetting(get: Lookup, key: keyof typeof DEFAULT_SETTINGS, check: (n: number) => boolean, expected: string): number {
  const raw = get(key);
  if (raw === undefined) return DEFAULT_SETTINGS[key];
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
  if (!Number.isFinite(value) || !check(value)) throw new Error(`CDK context ${key}=${JSON.stringify(raw)}: expected ${expected}`);
  return value;
}

/** A reserved concurrency: a positive integer, or `none` for no reservation (e.g. an account whose quota is below 100 + the reservations). */
function concurrencySetting(get: Lookup, key: 'providerNotificationConcurrency' | 'streamForwarderConcurrency'): number | undefined {
  if (get(key) === 'none' || get(key) === false) return undefined;
  return numberSetting(get, key, (n) => Number.isInteger(n) && n >= 1, 'a positive integer, or "none" (AWS keeps at least 100 unreserved)');
}

function textSetting(get: Lookup, key: string): string | undefined {
  const raw = get(key);
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') throw new Error(`CDK context ${key}: expected a string`);
  return raw.trim();
}

const DOMAIN_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
/** CloudFront takes certificates from us-east-1 only, whatever the stack's region. */
const CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[A-Za-z0-9-]+$/;
const WEB_ACL_ARN = /^arn:aws[a-z-]*:wafv2:us-east-1:\d{12}:global\/webacl\/[A-Za-z0-9_-]+\/[A-Za-z0-9-]+$/;

function customDomain(get: Lookup): CustomDomain | undefined {
  const domainName = textSetting(get, 'domainName')?.toLowerCase();
  const certificateArn = textSetting(get, 'certificateArn');
  if (domainName === undefined && certificateArn === undefined) return undefined;
  if (domainName === undefined || certificateArn === undefined)
    throw new Error('CDK context: domainName and certificateArn go together (the certificate must cover the domain)');
  if (!DOMAIN_NAME.test(domainName)) throw new Error(`CDK context domainName=${JSON.stringify(domainName)}: expected a host name such as api.example.com`);
  if (!CERTIFICATE_ARN.test(certificateArn))
    throw new Error(
      `CDK context certificateArn=${JSON.stringify(certificateArn)}: expected an ACM certificate ARN in us-east-1 (CloudFront reads certificates there)`,
    );
  return { domainName, certificateArn };
}

/** An ACM certificate in any region (API Gateway reads a regional domain's certificate in the stack's own region). */
const REGIONAL_CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:[a-z]{2}(?:-[a-z]+)+-\d:\d{12}:certificate\/[A-Za-z0-9-]+$/;
const HOSTED_ZONE_ID = /^Z[A-Z0-9]{1,31}$/;
/** `s3://bucket/key`, optionally `?versionId=…` (the truststore's object version). */
const S3_URI = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])\/([^?]+?)(?:\?versionId=([A-Za-z0-9._-]+))?$/;

/** The context keys of CloudFront's origin domain (issue 44, item 8). */
export const ORIGIN_CONTEXT = {
  domainName: 'originDomainName',
  certificateArn: 'originCertificateArn',
  hostedZoneId: 'originHostedZoneId',
  clientCertificateArn: 'originClientCertificateArn',
  truststoreUri: 'originTruststoreUri',
} as const;

function originDomain(get: Lookup, apiDomain: CustomDomain | undefined): OriginDomain | undefined {
  const k = ORIGIN_CONTEXT;
  const domainName = textSetting(get, k.domainName)?.toLowerCase();
  const certificateArn = textSetting(get, k.certificateArn);
  const hostedZoneId = textSetting(get, k.hostedZoneId);
  const clientCertificateArn = textSetting(get, k.clientCertificateArn);
  const truststoreUri = textSetting(get, k.truststoreUri);
  if ([domainName, certificateArn, hostedZoneId, clientCertificateArn, truststoreUri].every((v) => v === undefined)) return undefined;
  if (domainName === undefined || certificateArn === undefined)
    throw new Error(
      `CDK context: ${k.domainName} and ${k.certificateArn} go together (${k.hostedZoneId}, ${k.clientCertificateArn} and ${k.truststoreUri} need them)`,
    );
  if (!DOMAIN_NAME.test(domainName))
    throw new Error(`CDK context ${k.domainName}=${JSON.stringify(domainName)}: expected a host name such as origin-7f3k.pay.example.com`);
  if (domainName === apiDomain?.domainName)
    throw new Error(
      `CDK context ${k.domainName}: must differ from domainName (that name points at CloudFront; the origin needs its own, e.g. origin-7f3k.${domainName})`,
    );
  if (!REGIONAL_CERTIFICATE_ARN.test(certificateArn))
    throw new Error(
      `CDK context ${k.certificateArn}=${JSON.stringify(certificateArn)}: expected an ACM certificate ARN in the stack's region (API Gateway reads it there)`,
    );
  if (hostedZoneId !== undefined && !HOSTED_ZONE_ID.test(hostedZoneId))
    throw new Error(`CDK context ${k.hostedZoneId}=${JSON.stringify(hostedZoneId)}: expected a Route 53 hosted zone id such as Z0123456789ABCDEFGHIJ`);
  if ((clientCertificateArn === undefined) !== (truststoreUri === undefined))
    throw new Error(
      `CDK context: ${k.clientCertificateArn} and ${k.truststoreUri} go together (the truststore must hold the CA that issued the client certificate)`,
    );
  if (clientCertificateArn === undefined || truststoreUri === undefined) return { domainName, certificateArn, hostedZoneId, mtls: undefined };
  if (!CERTIFICATE_ARN.test(clientCertificateArn))
    throw new Error(
      `CDK context ${k.clientCertificateArn}=${JSON.stringify(clientCertificateArn)}: expected an ACM certificate ARN in us-east-1 (CloudFront reads client certificates there)`,
    );
  const s3 = S3_URI.exec(truststoreUri);
  if (!s3?.[1] || !s3[2])
    throw new Error(`CDK context ${k.truststoreUri}=${JSON.stringify(truststoreUri)}: expected s3://bucket/key of a PEM CA bundle (optionally ?versionId=…)`);
  return { domainName, certificateArn, hostedZoneId, mtls: { clientCertificateArn, truststore: { bucket: s3[1], key: s3[2], version: s3[3] } } };
}

/** The message of a deploy whose CloudFront origin anyone may call (a synthesis warning). */
export const DIRECT_CALLS_SPEND_THROTTLE = {
  executeApi:
    "CloudFront's origin is the HTTP API's execute-api address: a request sent there directly is refused by the edge-origin authorizer, but only after it was counted against the stage throttle (throttleRate/throttleBurst) every merchant shares, so whoever learns that address can deny service to all of them. Set originDomainName and originCertificateArn (a regional certificate) to disable the execute-api endpoint, and originClientCertificateArn and originTruststoreUri so the origin takes CloudFront's connections only.",
  originWithoutMtls:
    "The origin domain answers any caller: a request sent there directly is refused by the edge-origin authorizer, but only after it was counted against the stage throttle every merchant shares. Keep its name out of certificate transparency logs (a wildcard certificate) and out of sight, or set originClientCertificateArn and originTruststoreUri so it takes CloudFront's connections only.",
} as const;

/** A plain address (no display name, no list): what an SNS email subscription takes. */
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** `alarmEmail=none`: no recipient, on purpose. */
export const NO_ALARM_RECIPIENT = 'none';

function alarmEmail(get: Lookup): string | undefined {
  const email = textSetting(get, 'alarmEmail');
  if (email === undefined || email === NO_ALARM_RECIPIENT) return undefined;
  if (email.length > 254 || !EMAIL.test(email))
    throw new Error(`CDK context alarmEmail=${JSON.stringify(email)}: expected one email address such as oncall@example.com (or none)`);
  return email;
}

function mailFrom(get: Lookup): string | undefined {
  const from = textSetting(get, 'mailFrom');
  if (from === undefined) return undefined;
  if (from.length > 254 || !EMAIL.test(from))
    throw new Error(`CDK context mailFrom=${JSON.stringify(from)}: expected one email address such as painel@example.com (verified in SES)`);
  return from;
}

/** An SNS topic's ARN (the on-call team's existing topic). */
const SNS_TOPIC_ARN = /^arn:aws[a-z-]*:sns:[a-z]{2}(?:-[a-z]+)+-\d:\d{12}:[A-Za-z0-9_-]{1,256}(?:\.fifo)?$/;

/** The pattern the deploy parameter AlarmEmail takes: an address, or none. */
export const ALARM_EMAIL_PARAMETER_PATTERN = `${NO_ALARM_RECIPIENT}|[A-Za-z0-9.!#$%&'*+/=?^_\`{|}~-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,63}`;

function alarmRecipient(get: Lookup): AlarmRecipient {
  const email = alarmEmail(get);
  const optedOut = textSetting(get, 'alarmEmail') === NO_ALARM_RECIPIENT;
  const topicArn = textSetting(get, 'alarmTopicArn');
  if (topicArn !== undefined && !SNS_TOPIC_ARN.test(topicArn))
    throw new Error(`CDK context alarmTopicArn=${JSON.stringify(topicArn)}: expected an SNS topic ARN (arn:aws:sns:<region>:<account>:<name>)`);
  if (topicArn !== undefined && (email !== undefined || optedOut))
    throw new Error('CDK context: give alarmEmail or alarmTopicArn, not both (the alarms notify one topic)');
  if (topicArn !== undefined) return { kind: 'topic', topicArn };
  if (email !== undefined) return { kind: 'email', email };
  return optedOut ? { kind: 'none' } : { kind: 'deploy-parameter' };
}

function webAclArn(get: Lookup): string | undefined {
  const arn = textSetting(get, 'webAclArn');
  if (arn !== undefined && !WEB_ACL_ARN.test(arn))
    throw new Error(
      `CDK context webAclArn=${JSON.stringify(arn)}: expected a WAFv2 web ACL ARN of scope CLOUDFRONT (arn:aws:wafv2:us-east-1:…:global/webacl/…)`,
    );
  return arn;
}

/** The context keys of an API Pix PSP; all but `apiPixTokenUrl` are required once any is given. */
export const API_PIX_CONTEXT = {
  baseUrl: 'apiPixBaseUrl',
  tokenUrl: 'apiPixTokenUrl',
  clientId: 'apiPixClientId',
  pixKey: 'apiPixPixKey',
  secretName: 'apiPixSecretName',
} as const;

/** The token endpoint the functions use when `apiPixTokenUrl` is not given: APIPIX_TOKEN_URL's default, from shared/platform/config.ts. */
export { defaultApiPixTokenUrl } from '../../shared/platform/config';

/** An absolute https URL without credentials, query or fragment (a PSP's API speaks TLS only: mutual TLS at that). */
function httpsUrlSetting(get: Lookup, key: string): string | undefined {
  const raw = textSetting(get, key);
  if (raw === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'https:' || url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new Error(`CDK context ${key}=${JSON.stringify(raw)}: expected an https URL such as https://psp.example/api/v2 (no credentials, query or fragment)`);
  }
  return raw.replace(/\/+$/, '');
}

/**
 * A Secrets Manager secret name (its characters), not an ARN. A name ending in a hyphen and six
 * characters is refused: Secrets Manager would read those as the random suffix of an ARN, and the
 * functions find the secret by its partial ARN (the name without that suffix).
 */
const SECRET_NAME = /^[A-Za-z0-9/_+=.@-]{1,512}$/;
const LOOKS_LIKE_ARN_SUFFIX = /-[A-Za-z0-9]{6}$/;

function apiPix(get: Lookup): ApiPixSettings | undefined {
  const k = API_PIX_CONTEXT;
  const baseUrl = httpsUrlSetting(get, k.baseUrl);
  const tokenUrl = httpsUrlSetting(get, k.tokenUrl);
  const clientId = textSetting(get, k.clientId);
  const pixKey = textSetting(get, k.pixKey);
  const secretName = textSetting(get, k.secretName);
  if ([baseUrl, tokenUrl, clientId, pixKey, secretName].every((v) => v === undefined)) return undefined;
  if (baseUrl === undefined || clientId === undefined || pixKey === undefined || secretName === undefined) {
    const given = { baseUrl, clientId, pixKey, secretName };
    const missing = (['baseUrl', 'clientId', 'pixKey', 'secretName'] as const).filter((name) => given[name] === undefined).map((name) => k[name]);
    throw new Error(
      `CDK context: an API Pix PSP needs ${k.baseUrl}, ${k.clientId}, ${k.pixKey} and ${k.secretName} (${k.tokenUrl} optional); missing: ${missing.join(', ')}`,
    );
  }
  if (/\s/.test(clientId)) throw new Error(`CDK context ${k.clientId}: expected the PSP's OAuth2 client id (no spaces)`);
  if (pixKey.length > 77 || /\s/.test(pixKey)) {
    throw new Error(`CDK context ${k.pixKey}=${JSON.stringify(pixKey)}: expected the Pix key (chave) charges are paid to: at most 77 characters, no spaces`);
  }
  if (!SECRET_NAME.test(secretName) || LOOKS_LIKE_ARN_SUFFIX.test(secretName)) {
    throw new Error(
      `CDK context ${k.secretName}=${JSON.stringify(secretName)}: expected the name (not the ARN) of a Secrets Manager secret: letters, digits and /_+=.@-, not ending in a hyphen and six characters (Secrets Manager reads those as an ARN suffix)`,
    );
  }
  return { baseUrl, tokenUrl, clientId, pixKey, secretName };
}

/** `-c production=true` (or true in cdk.json); false by default. */
function productionSetting(get: Lookup): boolean {
  const raw = get('production');
  if (raw === undefined || raw === false || raw === 'false') return false;
  if (raw === true || raw === 'true') return true;
  throw new Error(`CDK context production=${JSON.stringify(raw)}: expected true or false`);
}

/** The message of a deploy without a custom domain (a synthesis warning; a production deploy stops with it). */
export const DEFAULT_CERTIFICATE_TLS =
  'No custom domain: the card form is served on the default *.cloudfront.net certificate, whose CloudFront security policy (TLSv1) accepts TLS 1.0 and 1.1, which PCI DSS forbids where card data is entered. This deploy must not take real cards: set domainName and certificateArn (the floor is then TLSv1.2_2021).';

/** Reads and checks the stack's settings; a bad value stops the synthesis with the key and what it expects. */
export function readSettings(node: Node): StackSettings {
  const get: Lookup = (key) => node.tryGetContext(key);
  const positive = (n: number) => n > 0;
  const positiveInteger = (n: number) => Number.isInteger(n) && n > 0;
  const throttle = {
    rate: numberSetting(get, 'throttleRate', positive, 'requests per second > 0'),
    burst: numberSetting(get, 'throttleBurst', positiveInteger, 'a positive integer'),
  };
  const authThrottle = {
    rate: numberSetting(get, 'authThrottleRate', positive, 'requests per second > 0'),
    burst: numberSetting(get, 'authThrottleBurst', positiveInteger, 'a positive integer'),
  };
  if (authThrottle.rate > throttle.rate || authThrottle.burst > throttle.burst) {
    throw new Error(
      'CDK context: the POST /api/auth throttle (authThrottleRate, authThrottleBurst) must not exceed the stage default (throttleRate, throttleBurst)',
    );
  }
  const domain = customDomain(get);
  const origin = originDomain(get, domain);
  const production = productionSetting(get);
  if (production && domain === undefined) throw new Error(`CDK context production=true needs domainName and certificateArn. ${DEFAULT_CERTIFICATE_TLS}`);
  const logRetentionDays = numberSetting(get, 'logRetentionDays', (n) => ALLOWED_RETENTION_DAYS.includes(n), `one of ${ALLOWED_RETENTION_DAYS.join(', ')}`);
  return {
    throttle,
    authThrottle,
    providerNotificationConcurrency: concurrencySetting(get, 'providerNotificationConcurrency'),
    streamForwarderConcurrency: concurrencySetting(get, 'streamForwarderConcurrency'),
    logRetention: logRetentionDays as logs.RetentionDays,
    domain,
    origin,
    production,
    alarmEmail: alarmEmail(get),
    alarmRecipient: alarmRecipient(get),
    webAclArn: webAclArn(get),
    apiPix: apiPix(get),
    mailFrom: mailFrom(get),
  };
}
