/** Typings for the untyped dev dependency boleto-brasileiro-validator (used only by the boleto tests). */
declare module 'boleto-brasileiro-validator' {
  /** Any boleto (bank or collection), barcode or digitable line, with or without mask. */
  export function boleto(code: string, validateBlocks?: boolean): boolean;
  /** A bank boleto, barcode (44 digits) or digitable line (47 digits). */
  export function boletoBancario(code: string, validateBlocks?: boolean): boolean;
  /** A bank boleto barcode: 44 digits and the modulo 11 general check digit. */
  export function boletoBancarioCodigoBarras(code: string): boolean;
  /** A bank boleto digitable line; with `validateBlocks` also the modulo 10 digits of fields 1–3. */
  export function boletoBancarioLinhaDigitavel(code: string, validateBlocks?: boolean): boolean;
}
