import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** The repository root: handler paths in shared/http/routes.ts are relative to it. */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const depsLockFilePath = path.join(projectRoot, 'package-lock.json');

/** Absolute path of a module given relative to the project root. */
export function fromRoot(relativePath: string): string {
  return path.join(projectRoot, relativePath);
}
