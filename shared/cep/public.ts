import cepPromise from 'cep-promise';
import { type CepAddress, type CepLookup, CepUnavailableError } from './port';

type Search = (
  cep: string,
  options: { timeout: number; providers: ('brasilapi' | 'viacep' | 'widenet')[] },
) => Promise<{
  cep: string;
  state: string;
  city: string;
  neighborhood: string;
  street: string;
}>;

const NOT_FOUND = /n[ãa]o encontrado|not found|inexistente|inv[áa]lido/i;

/**
 * cep-promise asks several public services at once. It fails with the messages of each service;
 * when every service said the CEP does not exist it is unknown (null), otherwise the sources are down.
 */
export function isNotFound(err: unknown): boolean {
  const errors = (err as { errors?: { message?: string }[] } | undefined)?.errors;
  return Array.isArray(errors) && errors.length > 0 && errors.every((e) => NOT_FOUND.test(e.message ?? ''));
}

/** The production adapter: public CEP services through cep-promise, with a timeout. */
export function publicCepLookup(timeoutMs: number, search: Search = cepPromise as unknown as Search): CepLookup {
  return {
    async lookup(cep): Promise<CepAddress | null> {
      try {
        const found = await search(cep, { timeout: timeoutMs, providers: ['brasilapi', 'viacep', 'widenet'] });
        return { zipcode: found.cep.replace(/\D/g, ''), state: found.state, city: found.city, district: found.neighborhood ?? '', street: found.street ?? '' };
      } catch (err) {
        if (isNotFound(err)) return null;
        throw new CepUnavailableError(err instanceof Error ? err.message : 'unknown error');
      }
    },
  };
}
