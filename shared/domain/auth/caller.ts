import type { Caller } from '../account';

/** The caller of a Bearer route; the pipeline guarantees one, this narrows the type. */
export function requireCaller(caller: Caller | undefined): Caller {
  if (!caller) throw new Error('A Bearer route ran without a caller');
  return caller;
}
