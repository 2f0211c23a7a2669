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

/** A CEP as 8 digits ("01310-100" → "01310100"), or null when it is not one. */
export function normalizeCep(text: string): string | null {
  const match = /^(\d{5})-?(\d{3})$/.exec(text.trim());
  return match ? `${match[1]}${match[2]}` : null;
}
