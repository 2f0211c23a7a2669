/**
 * FEBRABAN bank boleto ("boleto de cobrança") numbering: the 44-digit barcode and the 47-digit
 * "linha digitável" typed by payers. Pure functions; every malformed input throws.
 *
 * Barcode layout (1-based positions): 1–3 bank, 4 currency (9 = real), 5 general check digit,
 * 6–9 due-date factor, 10–19 amount in cents, 20–44 free field (the issuing bank's own layout).
 */

/** The largest amount the 10-digit barcode amount field holds: R$ 99,999,999.99. */
export const MAX_BOLETO_CENTS = 9_999_999_999;

const CURRENCY_REAL = '9';
const DAY_MS = 86_400_000;
/** 2025-02-22, the day the due-date factor restarted at 1000 (FEBRABAN rule in force since then). */
const FACTOR_BASE_DAY = Date.UTC(2025, 1, 22) / DAY_MS;
const FACTOR_MIN = 1000;
const FACTOR_CYCLE = 9000; // factors 1000..9999

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since the Unix epoch of a real calendar date 'YYYY-MM-DD' (UTC); throws otherwise. */
function utcDay(date: string): number {
  const match = ISO_DATE.exec(date);
  if (!match) throw new Error(`Invalid date "${date}": use YYYY-MM-DD`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const parsed = new Date(ms);
  if (parsed.getUTCFullYear() !== year || parsed.getUTCMonth() !== month - 1 || parsed.getUTCDate() !== day) {
    throw new Error(`Invalid date "${date}": no such calendar day`);
  }
  return ms / DAY_MS;
}

/**
 * The 4-digit due-date factor of a date 'YYYY-MM-DD': 1000 on 2025-02-22, +1 per day, back to 1000
 * after 9999 (every 9000 days). Dates before 2025-02-22 throw: only new boletos are issued.
 */
export function dueDateFactor(dueDate: string): number {
  const days = utcDay(dueDate) - FACTOR_BASE_DAY;
  if (days < 0) throw new Error(`Due date ${dueDate} is before 2025-02-22, the start of the current factor cycle`);
  return FACTOR_MIN + (days % FACTOR_CYCLE);
}

/** 'YYYY-MM-DD' of a day count since the Unix epoch. */
function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The first day of the factor cycle `today` falls in (the first cycle for days before it began). */
function cycleStartDay(today: string): number {
  const days = utcDay(today) - FACTOR_BASE_DAY;
  return FACTOR_BASE_DAY + Math.max(0, Math.floor(days / FACTOR_CYCLE)) * FACTOR_CYCLE;
}

/**
 * The last due date the barcode can carry when a boleto is issued on `today` ('YYYY-MM-DD'): the day of
 * factor 9999 in the current cycle (2049-10-13 for the cycle that began on 2025-02-22). A later date
 * would wrap to factor 1000 and read as a date 9000 days earlier, i.e. already overdue.
 */
export function lastEncodableDueDate(today: string): string {
  return isoDay(cycleStartDay(today) + FACTOR_CYCLE - 1);
}

/** The due date a factor (1000..9999) stands for in the cycle `today` falls in: what a bank reads back. */
export function dueDateOfFactor(factor: number, today: string): string {
  if (!Number.isInteger(factor) || factor < FACTOR_MIN || factor >= FACTOR_MIN + FACTOR_CYCLE) {
    throw new Error(`A due-date factor is an integer from ${FACTOR_MIN} to ${FACTOR_MIN + FACTOR_CYCLE - 1}`);
  }
  return isoDay(cycleStartDay(today) + factor - FACTOR_MIN);
}

export type BoletoBarcodeInput = {
  /** 3-digit bank code (COMPE), e.g. "341". */
  bankCode: string;
  /** Integer cents, 1..MAX_BOLETO_CENTS. */
  amountCents: number;
  /** 'YYYY-MM-DD', on or after 2025-02-22. */
  dueDate: string;
  /** 25 digits laid out by the issuing bank. */
  freeField: string;
};

/** Modulo 11 general check digit of the 43 barcode digits without it: weights 2..9 from the right; 0, 10, 11 → 1. */
function generalCheckDigit(digits43: string): string {
  let sum = 0;
  let weight = 2;
  for (let i = digits43.length - 1; i >= 0; i -= 1) {
    sum += Number(digits43[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const dv = 11 - (sum % 11);
  return String(dv === 0 || dv === 10 || dv === 11 ? 1 : dv);
}

/** Modulo 10 check digit of a field of the digitable line: weights 2,1,2,1… from the right, digits of products summed. */
function fieldCheckDigit(digits: string): string {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    const product = Number(digits[i]) * weight;
    sum += product > 9 ? product - 9 : product;
    weight = weight === 2 ? 1 : 2;
  }
  return String((10 - (sum % 10)) % 10);
}

/** Builds the 44-digit barcode number with its general check digit. */
export function buildBarcode(input: BoletoBarcodeInput): string {
  const { bankCode, amountCents, dueDate, freeField } = input;
  if (!/^\d{3}$/.test(bankCode)) throw new Error('Bank code must be 3 digits');
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0 || amountCents > MAX_BOLETO_CENTS) {
    throw new Error(`Amount must be an integer number of cents between 1 and ${MAX_BOLETO_CENTS}`);
  }
  if (!/^\d{25}$/.test(freeField)) throw new Error('Free field must be 25 digits');
  const factor = String(dueDateFactor(dueDate));
  const amount = String(amountCents).padStart(10, '0');
  const withoutDv = bankCode + CURRENCY_REAL + factor + amount + freeField;
  return withoutDv.slice(0, 4) + generalCheckDigit(withoutDv) + withoutDv.slice(4);
}

/** Throws unless `barcode` is 44 digits with currency 9 and a correct general check digit. */
function assertBarcode(barcode: string): void {
  if (!/^\d{44}$/.test(barcode)) throw new Error('Barcode must be 44 digits');
  if (barcode[3] !== CURRENCY_REAL) throw new Error('Barcode currency must be 9 (real)');
  if (generalCheckDigit(barcode.slice(0, 4) + barcode.slice(5)) !== barcode[4]) throw new Error('Barcode general check digit is wrong');
}

/** The 47-digit linha digitável of a barcode (5 fields; fields 1–3 carry modulo 10 check digits). */
export function digitableLine(barcode: string): string {
  assertBarcode(barcode);
  const field1 = barcode.slice(0, 4) + barcode.slice(19, 24);
  const field2 = barcode.slice(24, 34);
  const field3 = barcode.slice(34, 44);
  const field4 = barcode.slice(4, 5);
  const field5 = barcode.slice(5, 19);
  return field1 + fieldCheckDigit(field1) + field2 + fieldCheckDigit(field2) + field3 + fieldCheckDigit(field3) + field4 + field5;
}

/** Groups a 47-digit line as printed: "AAAAA.AAAAA BBBBB.BBBBBB CCCCC.CCCCCC D EEEEEEEEEEEEEE". */
export function formatDigitableLine(line: string): string {
  if (!/^\d{47}$/.test(line)) throw new Error('Digitable line must be 47 digits');
  return `${line.slice(0, 5)}.${line.slice(5, 10)} ${line.slice(10, 15)}.${line.slice(15, 21)} ${line.slice(21, 26)}.${line.slice(26, 32)} ${line.slice(32, 33)} ${line.slice(33)}`;
}

/**
 * The barcode of a digitable line (47 digits, or the formatted form with dots and spaces).
 * Throws when a field check digit or the general check digit is wrong.
 */
export function barcodeFromDigitable(line: string): string {
  const digits = line.replace(/[ .]/g, '');
  if (!/^\d{47}$/.test(digits)) throw new Error('Digitable line must be 47 digits');
  const fields: Array<[string, string]> = [
    [digits.slice(0, 9), digits.slice(9, 10)],
    [digits.slice(10, 20), digits.slice(20, 21)],
    [digits.slice(21, 31), digits.slice(31, 32)],
  ];
  fields.forEach(([field, dv], index) => {
    if (fieldCheckDigit(field) !== dv) throw new Error(`Check digit of field ${index + 1} is wrong`);
  });
  const barcode = digits.slice(0, 4) + digits.slice(32, 33) + digits.slice(33, 47) + digits.slice(4, 9) + digits.slice(10, 20) + digits.slice(21, 31);
  assertBarcode(barcode);
  return barcode;
}
