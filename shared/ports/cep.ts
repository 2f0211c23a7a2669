import type { CepAddress } from '../domain/cep';

/** The addresses found before (shared/adapters/dynamo/cep-cache.ts). */
export interface CepCache {
  /** The cached address of a CEP (8 digits) still within its lifetime at `nowSeconds`, or undefined. */
  get(cep: string, nowSeconds: number): Promise<CepAddress | undefined>;
}
