import type { Config } from '../../../platform/config';
import { logger } from '../../../platform/logger';
import { apiPixCredentialsSource, type ApiPixCredentials } from '../../secrets/apipix-credentials';
import {
  ProviderError,
  ProviderRejectedError,
  type PixCharge,
  type PixChargeState,
  type PixDueCharges,
  type PixDueRemoval,
  type PixProvider,
} from '../../../ports/payment-provider';
import { type ApiPixClient, type ApiPixReply, apiPixClient } from './client';
import {
  type Cob,
  cobRequestBody,
  cobSchema,
  hasViolations,
  isSameCharge,
  pixChargeOf,
  pixChargeStateOf,
  problemMessage,
  REMOVAL_BODY,
  removalOfStatus,
} from './cob';
import { receivedPixPath, receivedPixPageOf } from './received';
import { type Cobv, cobvRequestBody, cobvSchema, isSameCobv, pixChargeOfCobv, pixChargeStateOfCobv } from './cobv';

export const API_PIX_PROVIDER = 'apipix';

/**
 * A PSP behind the Central Bank's API Pix standard (docs/decisions.md, "API Pix"): Pix charges only
 * (card and boleto stay with the simulated provider). PUT /cob/{txid} creates a charge under a txid
 * derived from the merchant's Idempotency-Key, so a retry after a lost answer meets the first charge
 * (the PSP refuses the txid as used; the adapter reads it back and checks it is the same charge).
 * Its callbacks carry no signature the gateway can check behind CloudFront: each is a hint, and every
 * payment is read back with GET /cob/{txid} over the mutual-TLS channel before anything is credited.
 * Due-date charges (a BolePix's Pix half) are /cobv, idempotent by txid the same way; withdrawn with
 * PATCH /cobv/{txid} and read back with GET /cobv/{txid}. An unpaid immediate charge is withdrawn with PATCH
 * /cob/{txid} (issue 46: a merchant's cancellation).
 */
export type ApiPixProvider = PixProvider & {
  lookupPixCharge(txid: string): Promise<PixChargeState | undefined>;
  removePixCharge(txid: string): Promise<PixDueRemoval>;
  receivedPix: Required<PixProvider>['receivedPix'];
  readonly dueCharges: Required<PixDueCharges>;
  /** PUT /webhook/{chave}: where the PSP sends its callbacks (it appends `/pix`). */
  registerWebhook(webhookUrl: string): Promise<void>;
  /** GET /webhook/{chave}: the URL the PSP has, or undefined when none is registered. */
  registeredWebhook(): Promise<string | undefined>;
  readonly pixKey: string;
};

function parsedCob(reply: ApiPixReply, what: string): Cob {
  const cob = cobSchema.safeParse(reply.body);
  if (!cob.success) throw new ProviderError(`The PSP answered ${what} with an unexpected body`);
  return cob.data;
}

/** A 4xx that is about the request's content (the merchant can change it): 400, 404 or 409 on a PUT, 422. */
function rejection(reply: ApiPixReply): ProviderRejectedError {
  return new ProviderRejectedError(reply.status === 422 || hasViolations(reply.body) ? 422 : 400, problemMessage(reply.body));
}

/** 5xx, 401/403 (our credentials: not the merchant's doing), 429 and anything unexpected: a provider failure (502). */
function failure(reply: ApiPixReply, what: string): ProviderError {
  if (reply.status === 401 || reply.status === 403) logger.error('the PSP refused the gateway credentials', { status: reply.status, what });
  return new ProviderError(`The PSP failed ${what} (HTTP ${reply.status})`);
}

const isRefusal = (status: number) => status === 400 || status === 404 || status === 409 || status === 422;

function parsedCobv(reply: ApiPixReply, what: string): Cobv {
  const cobv = cobvSchema.safeParse(reply.body);
  if (!cobv.success) throw new ProviderError(`The PSP answered ${what} with an unexpected body`);
  return cobv.data;
}

/** What a refused withdrawal means, from the charge (cob or cobv) as the PSP holds it now (undefined: it does not know the txid). */
function removalOf(charge: { status: string } | undefined, status: number, what: string): PixDueRemoval {
  const found = removalOfStatus(charge?.status);
  if (found) return found;
  throw new ProviderError(`The PSP refused to withdraw the ${what} (HTTP ${status}) and holds it as ${(charge?.status ?? '').slice(0, 40)}`);
}

/**
 * The due-date charges (API Pix /cobv) over the client: PUT to create (a refusal is read back, as the
 * immediate charge's: the same cobv there is this request's first attempt), PATCH to withdraw, GET to
 * read back.
 */
function dueChargesWith(pixKey: string, client: ApiPixClient): Required<PixDueCharges> {
  const path = (txid: string) => `/cobv/${encodeURIComponent(txid)}`;
  const lookup = async (txid: string): Promise<Cobv | undefined> => {
    const reply = await client.call('GET', path(txid));
    if (reply.status === 404) return undefined;
    if (reply.status !== 200) throw failure(reply, 'the due charge lookup');
    return parsedCobv(reply, 'the due charge lookup');
  };
  return {
    async create(request): Promise<PixCharge> {
      const body = cobvRequestBody(request, pixKey);
      const reply = await client.call('PUT', path(request.txid), body);
      if (reply.status === 200 || reply.status === 201) {
        const charge = pixChargeOfCobv(parsedCobv(reply, 'the due charge creation'));
        if (!charge || charge.txid !== request.txid) throw new ProviderError('The PSP answered the due charge creation without its txid, location or BR Code');
        return charge;
      }
      if (!isRefusal(reply.status)) throw failure(reply, 'the due charge creation');
      const existing = await lookup(request.txid);
      const charge = existing && isSameCobv(existing, body) ? pixChargeOfCobv(existing) : undefined;
      if (charge) {
        logger.info('the PSP already had this due charge: its first registration is used', { reference: request.reference });
        return charge;
      }
      throw rejection(reply);
    },
    async remove(txid): Promise<PixDueRemoval> {
      const reply = await client.call('PATCH', path(txid), REMOVAL_BODY);
      if (reply.status === 200) return 'removed';
      if (!isRefusal(reply.status)) throw failure(reply, 'the due charge withdrawal');
      // Refused: already withdrawn (or removed by the PSP), paid, or unknown; anything else is unexpected.
      return removalOf(await lookup(txid), reply.status, 'due charge');
    },
    async lookup(txid) {
      const cobv = await lookup(txid);
      if (!cobv) return undefined;
      const state = pixChargeStateOfCobv(cobv);
      if (!state) throw new ProviderError('The PSP answered the due charge lookup with an unknown status or payment');
      return state;
    },
  };
}

export function apiPixProviderWith(settings: { pixKey: string; now?: () => Date }, client: ApiPixClient): ApiPixProvider {
  const now = settings.now ?? (() => new Date());
  const lookup = async (txid: string): Promise<Cob | undefined> => {
    const reply = await client.call('GET', `/cob/${encodeURIComponent(txid)}`);
    if (reply.status === 404) return undefined;
    if (reply.status !== 200) throw failure(reply, 'the charge lookup');
    return parsedCob(reply, 'the charge lookup');
  };
  return {
    name: API_PIX_PROVIDER,
    pixKey: settings.pixKey,
    charges: {
      async pix(request): Promise<PixCharge> {
        const body = cobRequestBody(request, settings.pixKey, now());
        const reply = await client.call('PUT', `/cob/${encodeURIComponent(request.txid)}`, body);
        if (reply.status === 200 || reply.status === 201) {
          const charge = pixChargeOf(parsedCob(reply, 'the charge creation'));
          if (!charge || charge.txid !== request.txid) throw new ProviderError('The PSP answered the charge creation without its txid, location or BR Code');
          return charge;
        }
        if (!isRefusal(reply.status)) throw failure(reply, 'the charge creation');
        // A txid already used: the first attempt of this very request (its answer was lost) when the
        // charge there is the same; anything else is the PSP's refusal, answered to the merchant.
        const existing = await lookup(request.txid);
        const charge = existing && isSameCharge(existing, body) ? pixChargeOf(existing) : undefined;
        if (charge) {
          logger.info('the PSP already had this charge: its first registration is used', { reference: request.reference });
          return charge;
        }
        throw rejection(reply);
      },
    },
    async removePixCharge(txid): Promise<PixDueRemoval> {
      const reply = await client.call('PATCH', `/cob/${encodeURIComponent(txid)}`, REMOVAL_BODY);
      if (reply.status === 200) return 'removed';
      if (!isRefusal(reply.status)) throw failure(reply, 'the charge withdrawal');
      // Refused: already withdrawn (a retry after a lost answer), paid, or unknown; anything else is unexpected.
      return removalOf(await lookup(txid), reply.status, 'charge');
    },
    dueCharges: dueChargesWith(settings.pixKey, client),
    async lookupPixCharge(txid) {
      const cob = await lookup(txid);
      if (!cob) return undefined;
      const state = pixChargeStateOf(cob);
      if (!state) throw new ProviderError('The PSP answered the charge lookup with an unknown status or payment');
      return state;
    },
    async receivedPix(window, page) {
      const reply = await client.call('GET', receivedPixPath(window, page));
      if (reply.status !== 200) throw failure(reply, 'the received Pix listing');
      const received = receivedPixPageOf(reply.body, page);
      if (!received) throw new ProviderError('The PSP answered the received Pix listing with an unexpected body');
      return received;
    },
    async registerWebhook(webhookUrl) {
      const reply = await client.call('PUT', `/webhook/${encodeURIComponent(settings.pixKey)}`, { webhookUrl });
      if (reply.status === 200 || reply.status === 201 || reply.status === 204) return;
      if (isRefusal(reply.status)) throw rejection(reply);
      throw failure(reply, 'the webhook registration');
    },
    async registeredWebhook() {
      const reply = await client.call('GET', `/webhook/${encodeURIComponent(settings.pixKey)}`);
      if (reply.status === 404) return undefined;
      const url = (reply.body as { webhookUrl?: unknown } | undefined)?.webhookUrl;
      if (reply.status !== 200 || typeof url !== 'string') throw failure(reply, 'the webhook lookup');
      return url;
    },
  };
}

/** The adapter the registry creates from the configuration (APIPIX_*; the secret from Secrets Manager). */
export function apiPixProvider(config: Config, credentials?: () => Promise<ApiPixCredentials>): ApiPixProvider {
  const settings = config.apiPix;
  if (!settings) throw new Error('The API Pix provider needs APIPIX_BASE_URL, APIPIX_CLIENT_ID, APIPIX_PIX_KEY and APIPIX_SECRET_ID');
  const client = apiPixClient({
    baseUrl: settings.baseUrl,
    tokenUrl: settings.tokenUrl,
    clientId: settings.clientId,
    credentials: credentials ?? apiPixCredentialsSource(settings.secretId),
    timeoutMs: config.payments.timeoutMs,
  });
  return apiPixProviderWith({ pixKey: settings.pixKey }, client);
}
