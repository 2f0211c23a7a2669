import type { CepAddress } from '../domain/cep';

export type { CepAddress };

/** The CEP lookup port: null when the CEP does not exist; CepUnavailableError when the source is down. */
export interface CepLookup {
  lookup(cep: string): Promise<CepAddress | null>;
}

export class CepUnavailableError extends Error {
  constructor(detail: string) {
    super(`CEP lookup unavailable: ${detail}`);
    this.name = 'CepUnavailableError';
  }
}

/** The addresses found before (shared/adapters/dynamo/cep-cache.ts). */
export interface CepCache {
  /** The cached address of a CEP (8 digits) still within its lifetime at `nowSeconds`, or undefined. */
  get(cep: string, nowSeconds: number): Promise<CepAddress | undefined>;
}
