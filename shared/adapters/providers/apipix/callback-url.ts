import { linkToken, linkTokenMatches } from '../../../platform/crypto/link-token';

/**
 * The URL the gateway registers with an API Pix PSP for its callbacks: under the provider's name,
 * with a path token derived from the master key (the PSP appends `/pix`, as the standard does). The
 * token keeps strangers' calls out cheaply (a wrong one is 401, counted per IP); it is not what makes
 * a payment true: every charge a callback names is read back from the PSP before anything moves.
 */
const purpose = (provider: string) => `pix-callback:${provider}`;

export function pixCallbackToken(key: Buffer, provider: string): string {
  return linkToken(key, purpose(provider));
}

export function pixCallbackTokenMatches(key: Buffer, provider: string, token: string): boolean {
  return linkTokenMatches(key, purpose(provider), token);
}

/** The webhookUrl to register (`provider register-webhook`): `<public base>/provider/<name>/notifications/<token>`. */
export function pixCallbackUrl(publicBaseUrl: string, key: Buffer, provider: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/provider/${provider}/notifications/${pixCallbackToken(key, provider)}`;
}
