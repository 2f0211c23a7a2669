import { createHmac } from 'node:crypto';

/**
 * Signed checkout forms (issue 10): an account may require that its `POST /ext_transfer` forms carry
 * a signature made with a per-account secret. The secret is never stored: it is derived from the
 * master-derived `checkoutSigning` key, the account id and the account's secret version
 * (`checkoutSigningVersion` on the account item), so issuing a new secret is moving the version on.
 */
export const CHECKOUT_SIGNING_SECRET_PREFIX = 'cks_';

/** `cks_` + base64url (no padding) HMAC-SHA256 of `${accountId}:${version}`: 47 characters. */
export function checkoutSigningSecret(key: Buffer, accountId: string, version: number): string {
  if (!Number.isSafeInteger(version) || version < 1) throw new Error(`A checkout signing secret needs a version from 1, not ${version}`);
  return CHECKOUT_SIGNING_SECRET_PREFIX + createHmac('sha256', key).update(`${accountId}:${version}`, 'utf8').digest('base64url');
}

export type CheckoutSigning = {
  /** Forms must be signed (an unsigned or altered form is refused). */
  required: boolean;
  /** The current secret's version; 0 when no secret was ever issued. */
  version: number;
};

/** The account item's checkout signing settings, with their defaults (not required, no secret). */
export function checkoutSigningOf(account: Record<string, unknown>): CheckoutSigning {
  const required = account.checkoutSigningRequired === true;
  const raw = account.checkoutSigningVersion;
  const version = typeof raw === 'number' && Number.isSafeInteger(raw) && raw > 0 ? raw : 0;
  return { required, version };
}

/**
 * What requiring (or not) signed forms, or a new secret, makes of the settings: a new secret version is
 * issued when signing is required and none was ever issued, or on `rotate`. Turning signing off keeps
 * the version (the merchant may keep signing, and turning it on again needs no new secret).
 */
export function nextCheckoutSigning(current: CheckoutSigning, change: { require: boolean; rotate?: boolean }) {
  const issued = change.rotate === true || (change.require && current.version === 0);
  return { required: change.require, version: issued ? current.version + 1 : current.version, previousVersion: current.version, issued };
}
