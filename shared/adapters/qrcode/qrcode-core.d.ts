/** The encoder core of the `qrcode` package (its matrix only: no renderer, no PNG library). */
declare module 'qrcode/lib/core/qrcode.js' {
  export function create(text: string, options: { errorCorrectionLevel: 'L' | 'M' | 'Q' | 'H' }): { modules: { size: number; data: Uint8Array } };
}
