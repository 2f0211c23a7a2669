/**
 * What the cold-start bench bundles: every Lambda function the stack deploys (one per route of the
 * route table, the $default fallback, the edge-origin authorizer, the queue, stream and scheduled
 * workers), named as the stack names them, and the two references (the DynamoDB-only floor and an
 * empty handler). test/infra/bundle-budget.test.ts checks that every function of the synthesized stack is here.
 */
import { fallbackHandler, routeList } from '../../shared/http/routes';
import { checkoutUpkeepWorker, pixSweepWorker, queueList, reconcileWorker, streamConsumerList, sweepWorker } from '../../shared/platform/queues';

export type FunctionKind = 'route' | 'fallback' | 'authorizer' | 'worker' | 'reference';

/** The stack's id of the edge-origin authorizer (infra/stack.ts, EDGE_AUTHORIZER_ID) and its handler. */
export const EDGE_AUTHORIZER = { id: 'EdgeOriginAuthorizer', entry: 'functions/edge/origin-authorizer.ts' } as const;

export type BundleTarget = {
  /** The stack's construct id of the function (route id, `Fallback`, `<queue>Worker`, …), or `floor` / `empty`. */
  id: string;
  /** What the report calls it: `GET /api/balance`, `payouts queue worker`, … */
  label: string;
  /** Handler module relative to the project root. */
  entry: string;
  kind: FunctionKind;
  /**
   * Bundled with the stack's import substitutions (infra/cdk/bundling.ts: the SDK's credential chain
   * reduced to the environment), as the CDK bundles every deployed function. The floor is not:
   * it is the DynamoDB document client as a function bundles it with the SDK's defaults.
   */
  stackAliases: boolean;
};

export const FLOOR_ID = 'floor';
export const EMPTY_ID = 'empty';
/** The floor's module bundled as the stack bundles its functions: for information, the targets use the floor. */
export const FLOOR_AS_DEPLOYED_ID = 'floor-as-deployed';

export const referenceTargets: readonly BundleTarget[] = [
  { id: FLOOR_ID, label: 'floor: DynamoDB document client only', entry: 'bench/cold-start/references/floor.ts', kind: 'reference', stackAliases: false },
  {
    id: FLOOR_AS_DEPLOYED_ID,
    label: "the floor's module with the stack's bundling (environment credentials only)",
    entry: 'bench/cold-start/references/floor.ts',
    kind: 'reference',
    stackAliases: true,
  },
  { id: EMPTY_ID, label: 'empty handler', entry: 'bench/cold-start/references/empty.ts', kind: 'reference', stackAliases: false },
];

/** The deployed functions, in the stack's order: routes, the fallback and the authorizer first (the API), then the workers. All get the stack's bundling. */
export function deployedTargets(): BundleTarget[] {
  const targets: Omit<BundleTarget, 'stackAliases'>[] = [
    ...routeList.map((route) => ({ id: route.id, label: `${route.method} ${route.path}`, entry: route.handler, kind: 'route' as const })),
    { id: 'Fallback', label: '$default (fallback: 404 / 405)', entry: fallbackHandler, kind: 'fallback' },
    { id: EDGE_AUTHORIZER.id, label: 'edge-origin authorizer (every route)', entry: EDGE_AUTHORIZER.entry, kind: 'authorizer' },
    ...queueList.map((def) => ({ id: `${def.id}Worker`, label: `${def.id} queue worker`, entry: def.handler, kind: 'worker' as const })),
    ...streamConsumerList.map((def) => ({ id: def.id, label: `${def.id} (table stream)`, entry: def.handler, kind: 'worker' as const })),
    ...[sweepWorker, checkoutUpkeepWorker, pixSweepWorker, reconcileWorker].map((def) => ({
      id: def.id,
      label: `${def.id} (scheduled)`,
      entry: def.handler,
      kind: 'worker' as const,
    })),
  ];
  return targets.map((target) => ({ ...target, stackAliases: true }));
}

/** The targets bind every deployed function (issue 44: per function, no exceptions); only the references are not bound. */
export function isTargeted(kind: FunctionKind): boolean {
  return kind !== 'reference';
}
