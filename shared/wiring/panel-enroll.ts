import { otpauthQrDataUri } from '../adapters/crypto/totp-qr';
import type { EnrollPorts } from '../app/panel/enroll';
import type { Runtime } from './runtime';
import { panelPasswordPorts } from './panel-password';

/** The enrollment pages' ports: the access ports and the QR encoder of the authenticator's URI (its own module: only the door bundles the encoder). */
export async function panelEnrollPorts(runtime: Runtime): Promise<EnrollPorts> {
  return { ...(await panelPasswordPorts(runtime)), qrDataUri: otpauthQrDataUri };
}
