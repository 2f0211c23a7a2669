/**
 * What the cold-start bench bundles: every Lambda function the stack deploys (one per route of the
 * route table, the $default fallback, the queue, stream and scheduled workers), named as the stack
 * names them, and the two references (the DynamoDB-only floor and an empty handler).
 */
import { fallbackHandler, routeList } from '../../shared/http/routes';
import { checkoutUpkeepWorker, queueList, reconcileWorker, streamConsumerList, sweepWorker } from '../../shared/queues';

export type FunctionKind = 'route' | 'fallback' | 'worker' | 'reference';

export type BundleTarget = {
  /** The stack's construct id of the function (route id, `Fallback`, `<queue>Worker`, …), or `floor` / `empty`. */
  id: string;
  /** What the report calls it: `GET /api/balance`, `payouts queue worker`, … */
  label: string;
  /** Handler module relative to the project root. */
  entry: string;
  kind: FunctionKind;
};

export const FLOOR_ID = 'floor';
export const EMPTY_ID = 'empty';

export const referenceTargets: readonly BundleTarget[] = [
  { id: FLOOR_ID, label: 'floor: DynamoDB document client only', entry: 'bench/cold-start/references/floor.ts', kind: 'reference' },
  { id: EMPTY_ID, label: 'empty handler', entry: 'bench/cold-start/references/empty.ts', kind: 'reference' },
];

/** The deployed functions, in the stack's order: routes and the fallback first (the API), then the workers. */
export function deployedTargets(): BundleTarget[] {
  return [
    ...routeList.map((route): BundleTarget => ({ id: route.id, label: `${route.method} ${route.path}`, entry: route.handler, kind: 'route' })),
    { id: 'Fallback', label: '$default (fallback: 404 / 405)', entry: fallbackHandler, kind: 'fallback' },
    ...queueList.map((def): BundleTarget => ({ id: `${def.id}Worker`, label: `${def.id} queue worker`, entry: def.handler, kind: 'worker' })),
    ...streamConsumerList.map((def): BundleTarget => ({ id: def.id, label: `${def.id} (table stream)`, entry: def.handler, kind: 'worker' })),
    ...[sweepWorker, checkoutUpkeepWorker, reconcileWorker].map((def): BundleTarget => ({
      id: def.id,
      label: `${def.id} (scheduled)`,
      entry: def.handler,
      kind: 'worker',
    })),
  ];
}

/** The targets bind the API functions (routes and the fallback); the workers are reported against the same limits for information. */
export function isTargeted(kind: FunctionKind): boolean {
  return kind === 'route' || kind === 'fallback';
}
