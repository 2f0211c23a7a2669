/** Whether `text` is a txid the Pix API accepts for an immediate charge: 26 to 35 characters of [a-zA-Z0-9]. */
export function isValidTxid(text: string): boolean {
  return /^[a-zA-Z0-9]{26,35}$/.test(text);
}
