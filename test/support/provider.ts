import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { handler as providerNotification } from '../../functions/provider/notifications';
import { notificationFor, type PaymentOptions, type ProviderCommand } from '../../infra/admin/provider';
import { lambdaContext, toHttpApiEvent } from '../../infra/local/apigw-event';
import { routes } from '../../shared/http/routes';
import { SIMULATED_SIGNATURE_HEADER, type SimulatedNotification } from '../../shared/adapters/providers/simulated';
import { signatureHeader } from '../../shared/domain/hmac-header';
import { call, type Reply, stack, uniqueIp } from './api';
import { conforming, type Invoked, invoked } from './invoke';

let secret: Promise<string> | undefined;

/** The simulated provider's notification secret, read from the local Secrets Manager endpoint. */
export function providerSecret(): Promise<string> {
  secret ??= new SecretsManagerClient({ region: 'us-east-1', endpoint: stack().secretsEndpoint, credentials: { accessKeyId: 'l', secretAccessKey: 'l' } })
    .send(new GetSecretValueCommand({ SecretId: stack().providerSecretId }))
    .then((out) => (JSON.parse(out.SecretString ?? '{}') as { simulated: string }).simulated);
  return secret;
}

/** Sends a signed notification to the inbound route, as the provider (and the operator CLI) does. */
export async function notify(notification: SimulatedNotification, options: { secret?: string; body?: string } = {}): Promise<Reply> {
  const body = options.body ?? JSON.stringify(notification);
  const header = signatureHeader(body, options.secret ?? (await providerSecret()), Math.floor(Date.now() / 1000));
  return call('POST', '/provider/simulated/notifications', { headers: { 'content-type': 'application/json', [SIMULATED_SIGNATURE_HEADER]: header }, body });
}

export function notification(command: ProviderCommand, target: { txid?: string; reference?: string }): SimulatedNotification {
  return notificationFor(command, target, new Date());
}

/**
 * Sends a notification as a provider does: an answer of 503 (or a lost connection) is retried with
 * exponential backoff and full jitter until another answer comes; returns every answer seen, the last one final.
 */
export async function notifyUntilSettled(notification: SimulatedNotification, maxAttempts = 30): Promise<Reply[]> {
  const seen: Reply[] = [];
  for (let attempt = 1; ; attempt += 1) {
    const reply = await notify(notification).catch(() => undefined);
    if (reply) seen.push(reply);
    if ((reply && reply.status !== 503) || attempt >= maxAttempts) return seen;
    const ceiling = Math.min(8_000, Number(reply?.headers['retry-after'] ?? 1) * 1000 * 2 ** (attempt - 1));
    await new Promise((resolve) => setTimeout(resolve, ceiling * Math.random()));
  }
}

/**
 * A simulated provider payment notification, signed, through the notification route IN THIS PROCESS
 * (so what the route does at the providers, such as withdrawing a BolePix's other rail, reaches this
 * process's adapters); `payment`: what the CLI's --amount and --date say.
 */
export async function notifyHere(command: ProviderCommand, target: { txid?: string; reference?: string }, payment: PaymentOptions = {}): Promise<Invoked> {
  const body = JSON.stringify(notificationFor(command, target, new Date(), payment));
  const route = routes.providerNotification;
  const event = toHttpApiEvent(
    {
      method: route.method,
      url: '/provider/simulated/notifications',
      headers: {
        'content-type': 'application/json',
        [SIMULATED_SIGNATURE_HEADER]: signatureHeader(body, await providerSecret(), Math.floor(Date.now() / 1000)),
      },
      body: Buffer.from(body),
      sourceIp: uniqueIp(),
      host: 'localhost',
    },
    `${route.method} ${route.path}`,
    { name: 'simulated' },
  );
  return conforming(
    route,
    route.path,
    invoked((await providerNotification(event as never, lambdaContext(route.id) as never)) as APIGatewayProxyStructuredResultV2),
  );
}
