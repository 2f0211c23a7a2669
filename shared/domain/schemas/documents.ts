import { cnpj, cpf } from 'cpf-cnpj-validator';

export type DocumentType = 'CPF' | 'CNPJ';

/** Strips the usual punctuation of CPF and CNPJ ("529.982.247-25", "11.222.333/0001-81"). */
export function normalizeDocument(document: string): string {
  return document.replace(/[.\-/\s]/g, '').toUpperCase();
}

/** A taxpayer document with valid check digits for its type (cpf-cnpj-validator; CNPJ may be alphanumeric). */
export function isValidDocument(document: string, type: DocumentType): boolean {
  const normalized = normalizeDocument(document);
  if (type === 'CPF') return /^\d{11}$/.test(normalized) && cpf.isValid(normalized);
  return /^[0-9A-Z]{12}\d{2}$/.test(normalized) && cnpj.isValid(normalized);
}

/** The type of a bare document by its length: 11 characters CPF, 14 CNPJ. */
export function documentTypeOf(document: string): DocumentType | undefined {
  const normalized = normalizeDocument(document);
  if (normalized.length === 11) return 'CPF';
  if (normalized.length === 14) return 'CNPJ';
  return undefined;
}
