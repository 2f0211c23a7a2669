import { burnPasswordCheck, hashPassword, verifyPassword } from '../adapters/crypto/password-hash';
import type { PanelAccessPorts } from '../app/panel/access-ports';
import type { Runtime } from './runtime';
import { panelSessionPorts } from './panel';

/**
 * The panel's access use cases' ports: the session ports and the password hashing (scrypt), in a module
 * of its own so that the functions that never check a password (the money pages) do not bundle it.
 */
export async function panelAccessPorts(runtime: Runtime): Promise<PanelAccessPorts> {
  return { ...(await panelSessionPorts(runtime)), passwords: { hash: (password) => hashPassword(password), verify: verifyPassword, burn: burnPasswordCheck } };
}
