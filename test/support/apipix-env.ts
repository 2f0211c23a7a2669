import { randomUUID } from 'node:crypto';
import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { localAwsConfig } from '../../infra/local/aws';
import { LOCAL_APIPIX_SECRET_NAME } from '../../infra/local/constants';
import { startHttpServer, type LocalHttpServer } from '../../infra/local/http-server';
import { pixCallbackUrl } from '../../shared/adapters/providers/apipix/callback-url';
import { getRuntime } from '../../shared/wiring/runtime';
import { bearer, newAccount, stack, tokenFor, useLocalStackEnvironment } from './api';
import { createCustomerWithAddress } from './charges';
import { pixProvider } from '../../shared/wiring/provider-registry';
import { generateApiPixCertificates } from './apipix-certificates';
import { startTestPsp, type TestPsp } from './apipix-psp';
import { freePort } from '../../infra/local/free-port';
import { ROOT } from './local-stack-process';

/**
 * A merchant of the API Pix environment: an account with Pix and boleto, a customer with an address
 * (a BolePix's payer), and the gateway's callback URL registered at the PSP.
 */
export async function apiPixMerchant(environment: ApiPixEnvironment): Promise<{ accountId: string; auth: Record<string, string>; customer: number }> {
  const account = await newAccount(['pix', 'boleto']);
  const auth = bearer(await tokenFor(account));
  const customer = await createCustomerWithAddress(auth);
  const provider = pixProvider(getRuntime().config) as ReturnType<typeof pixProvider> & { registerWebhook(url: string): Promise<void> };
  await provider.registerWebhook(await environment.callbackUrl());
  return { accountId: account.account_id, auth, customer };
}

/** A standard-shaped PSP on loopback, this process configured for it (PAYMENT_PROVIDER=apipix), and a gateway its callbacks reach. */
export type ApiPixEnvironment = { psp: TestPsp; gateway: LocalHttpServer; callbackUrl: () => Promise<string>; stop: () => Promise<void> };

/**
 * Starts the test PSP behind mutual TLS, stores its credentials as the API Pix secret in the local
 * Secrets Manager, points THIS process's configuration at it (the local stack and every other test file
 * keep the simulated provider), and starts a gateway in this process for the PSP's callbacks.
 */
export async function startApiPixEnvironment(): Promise<ApiPixEnvironment> {
  useLocalStackEnvironment();
  const certificates = await generateApiPixCertificates();
  const psp = await startTestPsp({ certificates });
  // The name the local IAM evaluation's API Pix grant covers (<name>-??????): six characters after it.
  const secretId = `${LOCAL_APIPIX_SECRET_NAME}-${randomUUID().replace(/-/g, '').slice(0, 6)}`;
  const secrets = new SecretsManagerClient({ ...localAwsConfig(), endpoint: stack().secretsEndpoint });
  await secrets.send(
    new CreateSecretCommand({
      Name: secretId,
      SecretString: JSON.stringify({
        client_secret: psp.clientSecret,
        certificate: certificates.clientCert,
        private_key: certificates.clientKey,
        ca: certificates.ca,
      }),
    }),
  );
  Object.assign(process.env, {
    PAYMENT_PROVIDER: 'apipix',
    APIPIX_BASE_URL: psp.baseUrl,
    APIPIX_TOKEN_URL: psp.tokenUrl,
    APIPIX_CLIENT_ID: psp.clientId,
    APIPIX_PIX_KEY: psp.pixKey,
    APIPIX_SECRET_ID: secretId,
    PROVIDER_TIMEOUT_MS: '3000',
  });
  const gateway = await startHttpServer(ROOT, await freePort());
  return {
    psp,
    gateway,
    callbackUrl: async () => pixCallbackUrl(gateway.url, (await getRuntime().serviceKeys()).providerCallbacks, 'apipix'),
    stop: async () => {
      await gateway.stop();
      await psp.close();
    },
  };
}
