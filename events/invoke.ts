/**
 * Invokes one Lambda handler by hand with a sample event and prints what it returns:
 *
 *   node_modules/node/bin/node --import tsx events/invoke.ts functions/meta/not-found.ts events/apigw/not-found.json
 *
 * Paths are taken relative to the current directory. Handlers that touch DynamoDB or the master
 * key need the environment of a running local stack (see events/README.md).
 */
import { readFileSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import { lambdaContext } from '../infra/local/apigw-event';

type Handler = (event: unknown, context: Context) => Promise<unknown>;

/** Parses a JSON sample event file. */
export function readEvent(file: string): unknown {
  return JSON.parse(readFileSync(resolve(file), 'utf8')) as unknown;
}

/** Loads a handler module (it must export `handler`) and calls it once with the event in eventFile. */
export async function invoke(handlerModule: string, eventFile: string): Promise<unknown> {
  const loaded = (await import(pathToFileURL(resolve(handlerModule)).href)) as { handler?: unknown };
  if (typeof loaded.handler !== 'function') throw new Error(`${handlerModule} exports no handler function`);
  const handler = loaded.handler as Handler;
  return handler(readEvent(eventFile), lambdaContext(basename(handlerModule, extname(handlerModule))));
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;

if (isMain) {
  const [handlerModule, eventFile] = process.argv.slice(2);
  if (!handlerModule || !eventFile) {
    console.error('usage: node --import tsx events/invoke.ts <handler module> <event file>');
    process.exit(2);
  }
  try {
    const result = await invoke(handlerModule, eventFile);
    console.log(JSON.stringify(result, null, 2));
  } catch (err) {
    console.error(err);
    process.exit(1);
  }
}
