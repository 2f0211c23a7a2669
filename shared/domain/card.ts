import creditCardType from 'credit-card-type';
import type { CardBrand } from './payment-methods';

export type { CardBrand };

const BRAND_NAMES: Record<string, CardBrand> = {
  visa: 'visa',
  mastercard: 'mastercard',
  master: 'mastercard',
  amex: 'amex',
  'american express': 'amex',
  elo: 'elo',
  hipercard: 'hipercard',
  diners: 'diners',
  'diners club': 'diners',
  discover: 'discover',
  jcb: 'jcb',
};

/** credit-card-type's type ids → our brands; its other types (unionpay, maestro, mir, hiper) are not accepted. */
const VALIDATOR_TYPES: Record<string, CardBrand> = {
  visa: 'visa',
  mastercard: 'mastercard',
  'american-express': 'amex',
  elo: 'elo',
  hipercard: 'hipercard',
  'diners-club': 'diners',
  discover: 'discover',
  jcb: 'jcb',
};

/** A brand as clients write it ("Visa", "MASTER", "American Express", "Diners Club"), or undefined when unknown. */
export function normalizeBrand(text: string): CardBrand | undefined {
  const key = text.trim().toLowerCase().replace(/\s+/g, ' ');
  return Object.hasOwn(BRAND_NAMES, key) ? BRAND_NAMES[key] : undefined;
}

/** The brand a card number (digits only) belongs to by its prefix, or undefined when none of ours (or ambiguous). */
export function detectBrand(number: string): CardBrand | undefined {
  if (!/^\d+$/.test(number)) return undefined;
  // Exactly one brand's prefixes fit (as card-validator decided it): an ambiguous prefix is no brand yet.
  const types = creditCardType(number);
  const type = types.length === 1 ? types[0]?.type : undefined;
  return type !== undefined && Object.hasOwn(VALIDATOR_TYPES, type) ? VALIDATOR_TYPES[type] : undefined;
}

/**
 * Whether a digit string passes the Luhn (mod 10) check (a brand's number check would also require a
 * known brand and length).
 */
export function luhnValid(number: string): boolean {
  if (!/^\d+$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i += 1) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export type CardInput = { number: string; cvv: string; month: number; year: number; brand: string };

/**
 * Validation errors of a card, keyed by API field name (creditcard_number, creditcard_cvv,
 * creditcard_month, creditcard_year, creditcard_brand); empty when valid. A card is valid through
 * the last day of its expiry month (UTC). Messages never contain the number or the CVV.
 */
export function cardFieldErrors(card: CardInput, now: Date): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string): void => {
    (errors[field] ??= []).push(message);
  };

  const numberWellFormed = /^\d{12,19}$/.test(card.number);
  if (!numberWellFormed) add('creditcard_number', 'must be 12 to 19 digits');
  else if (!luhnValid(card.number)) add('creditcard_number', 'is not a valid card number');

  const declared = normalizeBrand(card.brand);
  const detected = numberWellFormed ? detectBrand(card.number) : undefined;
  if (declared === undefined) add('creditcard_brand', 'must be one of visa, mastercard, amex, elo, hipercard, diners, discover, jcb');
  else if (numberWellFormed && detected !== declared) add('creditcard_brand', 'does not match the card number');

  const cvvLength = (detected ?? declared) === 'amex' ? 4 : 3;
  if (!new RegExp(`^\\d{${cvvLength}}$`).test(card.cvv)) add('creditcard_cvv', `must be ${cvvLength} digits`);

  const monthValid = Number.isInteger(card.month) && card.month >= 1 && card.month <= 12;
  if (!monthValid) add('creditcard_month', 'must be a month from 1 to 12');
  const yearValid = Number.isInteger(card.year) && card.year >= 1000 && card.year <= 9999;
  if (!yearValid) add('creditcard_year', 'must be a 4-digit year');
  if (monthValid && yearValid && now.getTime() >= Date.UTC(card.year, card.month, 1)) add('creditcard_year', 'the card has expired');

  return errors;
}

/** The last 4 digits of a card number (for display and receipts). */
export function last4(number: string): string {
  if (!/^\d{4,}$/.test(number)) throw new Error('Card number must have at least 4 digits');
  return number.slice(-4);
}
