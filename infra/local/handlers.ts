import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

export type LoadedHandler = (event: unknown, context: unknown) => Promise<unknown>;

const cache = new Map<string, Promise<LoadedHandler>>();

/** Loads a handler module (relative to the project root) once, as a Lambda container would. */
export function loadHandler(root: string, modulePath: string): Promise<LoadedHandler> {
  let loaded = cache.get(modulePath);
  if (!loaded) {
    loaded = import(pathToFileURL(join(root, modulePath)).href).then((mod: { handler?: unknown }) => {
      if (typeof mod.handler !== 'function') throw new Error(`${modulePath} exports no handler`);
      return mod.handler as LoadedHandler;
    });
    cache.set(modulePath, loaded);
  }
  return loaded;
}
