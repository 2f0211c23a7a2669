import { type Clock, systemClock } from '../ports/clock';
import { type Config, getConfig } from '../platform/config';
import { edgeOriginSecret } from '../adapters/secrets/edge-origin';
import { getServiceKeys, type ServiceKeys } from '../adapters/secrets/master-key';
import { type Db, getDb } from '../adapters/dynamo/dynamo';
import { dnsResolver, type Resolver } from '../adapters/webhooks/dns';

/** The ports a handler uses, created once per container. Tests may swap the clock. */
export type Runtime = {
  config: Config;
  db: Db;
  clock: Clock;
  serviceKeys: () => Promise<ServiceKeys>;
  /** The CloudFront origin check's secret, or undefined where no edge stands in front (local runs). */
  edgeSecret: () => Promise<string | undefined>;
  /** DNS (A and AAAA) for webhook hosts: checked at configuration and again before every attempt. */
  resolve: Resolver;
  /** Fault injection for tests only (never set in production): e.g. fail after the commit, before the answer. */
  faults?: { beforeCommit?: (routeId: string) => void; afterCommit?: (routeId: string) => void };
};

let current: Runtime | undefined;

export function getRuntime(): Runtime {
  if (!current) {
    const config = getConfig();
    const { originSecretId } = config.edge;
    current = {
      config,
      db: getDb(),
      clock: systemClock,
      serviceKeys: () => getServiceKeys(config.masterKeySecretId),
      edgeSecret: () => (originSecretId === undefined ? Promise.resolve(undefined) : edgeOriginSecret(originSecretId)),
      resolve: dnsResolver,
    };
  }
  return current;
}

/** For tests only: replace some ports of the runtime (e.g. a fixed clock). */
export function overrideRuntime(patch: Partial<Runtime>): void {
  current = { ...getRuntime(), ...patch };
}
