import { otpauthQrDataUri } from '../adapters/crypto/totp-qr';
import type { EnrollPorts } from '../app/panel/enroll';
import type { Runtime } from '../runtime';
import { panelAccessPorts } from './panel-access';

/** The enrollment pages' ports: the access ports and the QR encoder of the authenticator's URI (its own module: only the door bundles the encoder). */
export async function panelEnrollPorts(runtime: Runtime): Promise<EnrollPorts> {
  return { ...(await panelAccessPorts(runtime)), qrDataUri: otpauthQrDataUri };
}
