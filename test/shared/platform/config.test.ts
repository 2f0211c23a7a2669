import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/platform/config';

const REQUIRED = { TABLE_NAME: 'payment-gateway-test', MASTER_KEY_SECRET_ID: 'payment-gateway/test/master-key' };

describe('parseConfig', () => {
  it('applies the spec defaults (30-day token, limits 10/30/60, idempotency lock 60 s and TTL 24 h)', () => {
    expect(parseConfig(REQUIRED)).toEqual({
      tableName: 'payment-gateway-test',
      masterKeySecretId: 'payment-gateway/test/master-key',
      tokenTtlSeconds: 30 * 24 * 60 * 60,
      rateLimits: { auth: 10, cep: 30, checkout: 120, unauthenticated: 60, public: 300, account: 60 },
      checkout: { ttlSeconds: 86_400 },
      // Card testing caps (issue 31) and the reconciliation's pages (issue 25).
      cardDeclines: { perCheckout: 3, perCardPerHour: 5, perMerchantPerHour: 100 },
      reconcile: { queueUrl: undefined, pageSize: 100 },
      idempotency: { lockSeconds: 60, ttlSeconds: 24 * 60 * 60 },
      cep: { provider: 'public', timeoutMs: 3000 },
      // 3 s a provider call (issue 44: every call's chain fits the function's timeout, shared/domain/time-budgets.ts).
      payments: { provider: 'simulated', cardAndBoletoProvider: 'simulated', credentialsSecretId: undefined, timeoutMs: 3000 },
      apiPix: undefined,
      publicBaseUrl: 'http://127.0.0.1:3000',
      edge: { originSecretId: undefined },
      payouts: { bank: 'simulated', queueUrl: undefined, dlqUrl: undefined, retryScale: 1, retryWindowSeconds: 86_400, bankTimeoutMs: 5000 },
      webhooks: { queueUrl: undefined, retryScale: 1, allowPrivateHosts: [], dnsTimeoutMs: 2000 },
      mail: { queueUrl: undefined, from: undefined, configurationSet: undefined },
      sweep: { afterSeconds: 300 },
      localTotpClockDir: undefined,
    });
    expect(parseConfig(REQUIRED).tokenTtlSeconds).toBe(2_592_000);
    expect(parseConfig(REQUIRED).idempotency.ttlSeconds).toBe(86_400);
  });

  it('reads the API Pix PSP settings with PAYMENT_PROVIDER=apipix (token URL from the base URL by default) and names a missing one', () => {
    const apiPix = {
      PAYMENT_PROVIDER: 'apipix',
      APIPIX_BASE_URL: 'https://psp.example/api/v2/',
      APIPIX_CLIENT_ID: 'client-1',
      APIPIX_PIX_KEY: 'payments@merchant.example',
      APIPIX_SECRET_ID: 'payment-gateway/apipix',
    };
    const config = parseConfig({ ...REQUIRED, ...apiPix });
    expect(config.payments).toMatchObject({ provider: 'apipix', cardAndBoletoProvider: 'simulated' });
    expect(config.apiPix).toEqual({
      baseUrl: 'https://psp.example/api/v2',
      tokenUrl: 'https://psp.example/oauth/token',
      clientId: 'client-1',
      pixKey: 'payments@merchant.example',
      secretId: 'payment-gateway/apipix',
      sweepAfterMinutes: 30,
    });
    expect(parseConfig({ ...REQUIRED, ...apiPix, APIPIX_TOKEN_URL: 'https://auth.psp.example/token' }).apiPix?.tokenUrl).toBe('https://auth.psp.example/token');
    expect(() => parseConfig({ ...REQUIRED, ...apiPix, APIPIX_PIX_KEY: undefined, APIPIX_SECRET_ID: undefined })).toThrow(
      'Invalid configuration: APIPIX_PIX_KEY, APIPIX_SECRET_ID (required with PAYMENT_PROVIDER=apipix)',
    );
    expect(() => parseConfig({ ...REQUIRED, PAYMENT_PROVIDER: 'acme' })).toThrow(/PAYMENT_PROVIDER/);
  });

  it("reads the edge's origin secret id (deployed stack only)", () => {
    expect(parseConfig({ ...REQUIRED, EDGE_ORIGIN_SECRET_ID: 'arn:aws:secretsmanager:sa-east-1:1:secret:o' }).edge).toEqual({
      originSecretId: 'arn:aws:secretsmanager:sa-east-1:1:secret:o',
    });
  });

  it("reads the local stack's authenticator test clock, and refuses it in a deployed function (Lambda's own variables, or the edge's secret)", () => {
    expect(parseConfig({ ...REQUIRED, LOCAL_TOTP_CLOCK_DIR: '/repo/.local/totp-clock-x' }).localTotpClockDir).toBe('/repo/.local/totp-clock-x');
    const deployed = [
      { AWS_LAMBDA_FUNCTION_NAME: 'payment-gateway-PanelAccess' },
      { AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x' },
      { LAMBDA_TASK_ROOT: '/var/task' },
      { EDGE_ORIGIN_SECRET_ID: 'arn:aws:secretsmanager:sa-east-1:1:secret:o' },
    ];
    for (const marks of deployed) {
      expect(() => parseConfig({ ...REQUIRED, ...marks, LOCAL_TOTP_CLOCK_DIR: '/tmp/clock' }), JSON.stringify(marks)).toThrow(
        'Invalid configuration: LOCAL_TOTP_CLOCK_DIR (local stack only, refused in a deployed function)',
      );
      // Without it the same environment is a valid deployed one, on the real clock.
      expect(parseConfig({ ...REQUIRED, ...marks }).localTotpClockDir).toBeUndefined();
    }
  });

  it('reads overrides from environment strings as numbers', () => {
    const config = parseConfig({
      ...REQUIRED,
      TOKEN_TTL_SECONDS: '3600',
      RATE_LIMIT_AUTH_PER_MINUTE: '5',
      RATE_LIMIT_CEP_PER_MINUTE: '7',
      RATE_LIMIT_ACCOUNT_PER_MINUTE: '1000',
      RATE_LIMIT_CHECKOUT_PER_MINUTE: '9',
      RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '11',
      RATE_LIMIT_PUBLIC_PER_MINUTE: '13',
      CHECKOUT_TTL: '600',
      IDEMPOTENCY_LOCK_SECONDS: '15',
      IDEMPOTENCY_TTL_SECONDS: '172800',
    });
    expect(config.tokenTtlSeconds).toBe(3600);
    expect(config.rateLimits).toEqual({ auth: 5, cep: 7, checkout: 9, unauthenticated: 11, public: 13, account: 1000 });
    expect(config.checkout.ttlSeconds).toBe(600);
    expect(config.idempotency).toEqual({ lockSeconds: 15, ttlSeconds: 172_800 });
  });

  it('reads the limits of outbound calls: the bank (BANK_TIMEOUT_MS) and webhook DNS (DNS_TIMEOUT_MS)', () => {
    const config = parseConfig({ ...REQUIRED, BANK_TIMEOUT_MS: '250', DNS_TIMEOUT_MS: '120' });
    expect(config.payouts.bankTimeoutMs).toBe(250);
    expect(config.webhooks.dnsTimeoutMs).toBe(120);
  });

  it('names the payment provider and the bank by PAYMENT_PROVIDER and BANK_PROVIDER (the simulated ones by default)', () => {
    const config = parseConfig({ ...REQUIRED, PAYMENT_PROVIDER: 'simulated', BANK_PROVIDER: 'simulated' });
    expect(config.payments.provider).toBe('simulated');
    expect(config.payouts.bank).toBe('simulated');
  });

  it.each([
    ['PAYMENT_PROVIDER', 'stripe'],
    ['BANK_PROVIDER', 'acme-bank'],
    ['BANK_PROVIDER', ''],
  ])('throws naming %s for a provider it does not know (%j)', (name, value) => {
    expect(() => parseConfig({ ...REQUIRED, [name]: value })).toThrow(new RegExp(name));
  });

  it('ignores unrelated variables', () => {
    expect(parseConfig({ ...REQUIRED, PATH: '/usr/bin', AWS_REGION: 'sa-east-1' }).tableName).toBe('payment-gateway-test');
  });

  it('throws naming TABLE_NAME when it is missing or empty', () => {
    expect(() => parseConfig({ MASTER_KEY_SECRET_ID: 'x' })).toThrow(/TABLE_NAME/);
    expect(() => parseConfig({ ...REQUIRED, TABLE_NAME: '' })).toThrow(/TABLE_NAME/);
  });

  it('throws naming MASTER_KEY_SECRET_ID when it is missing', () => {
    expect(() => parseConfig({ TABLE_NAME: 't' })).toThrow(/MASTER_KEY_SECRET_ID/);
  });

  it('names every missing field at once', () => {
    let message = '';
    try {
      parseConfig({});
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('TABLE_NAME');
    expect(message).toContain('MASTER_KEY_SECRET_ID');
  });

  it.each([
    ['RATE_LIMIT_AUTH_PER_MINUTE', 'ten'],
    ['RATE_LIMIT_CEP_PER_MINUTE', '3.5'],
    ['RATE_LIMIT_ACCOUNT_PER_MINUTE', '0'],
    ['RATE_LIMIT_ACCOUNT_PER_MINUTE', '-60'],
    ['RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE', '0'],
    ['RATE_LIMIT_PUBLIC_PER_MINUTE', 'many'],
    ['TOKEN_TTL_SECONDS', '30d'],
    ['IDEMPOTENCY_LOCK_SECONDS', 'NaN'],
    ['BANK_TIMEOUT_MS', '0'],
    ['DNS_TIMEOUT_MS', '2s'],
  ])('throws naming %s for the non-numeric or non-positive value %j', (name, value) => {
    expect(() => parseConfig({ ...REQUIRED, [name]: value })).toThrow(new RegExp(name));
  });
});
