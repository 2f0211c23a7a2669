import type { CardAttempt } from '../../shared/domain/card-attempt';
import type { Checkout } from '../../shared/domain/checkout';
import type { Customer } from '../../shared/domain/customer';
import type { Invoice, NewInvoice } from '../../shared/domain/invoice';
import type { Withdrawal } from '../../shared/domain/withdrawal';

/**
 * Typed records for unit tests: one valid record of each kind, changed by what a test is about
 * (`anInvoice({ status: 'PAID' })`). Values are fixed, so two calls give equal records.
 */

export const RECORD_TIME = '2026-11-27T12:00:00.000Z';

/** A PENDING Pix invoice of acct_1, created by the simulated provider. */
export function aNewInvoice(over: Partial<NewInvoice> = {}): NewInvoice {
  return {
    accountId: 'acct_1',
    invoiceId: 1001,
    reference: 'INV-AAAAAA',
    merchantName: 'Loja',
    method: 'pix',
    status: 'PENDING',
    invoiceNo: 'N1',
    itemName: 'Camiseta',
    quantity: 1,
    amountCents: 2_500,
    tax: 0,
    discount: 0,
    totalCents: 2_500,
    dueDate: '2026-11-28',
    payer: { email: 'ana@example.com' },
    pix: { txid: 'INVAAAAAA00000000000000000000000', location: 'loc', copy: '000201' },
    createdAt: RECORD_TIME,
    provider: 'simulated',
    ...over,
  };
}

/** The same invoice as read back. */
export function anInvoice(over: Partial<Invoice> = {}): Invoice {
  return { ...aNewInvoice(), ...over };
}

/** A PENDING hosted checkout of acct_1 offering Pix, its Pix invoice INV-AAAAAA. */
export function aCheckout(over: Partial<Checkout> = {}): Checkout {
  return {
    reference: 'CHK-ABCDEFGH',
    accountId: 'acct_1',
    txRef: 'order-1',
    merchantName: 'Loja',
    title: 'Camiseta',
    quantity: 1,
    amountCents: 2_500,
    totalCents: 2_500,
    email: 'ana@example.com',
    firstName: 'Ana',
    lastName: 'Silva',
    callbackUrl: 'https://shop.example/done',
    methods: ['pix'],
    pixReference: 'INV-AAAAAA',
    createdAt: RECORD_TIME,
    status: 'PENDING',
    cardAttempt: 0,
    ...over,
  };
}

/** A PENDING Pix withdrawal of acct_1, held. */
export function aWithdrawal(over: Partial<Withdrawal> = {}): Withdrawal {
  return {
    reference: 'WD-ABCDEFGHJKLM',
    accountId: 'acct_1',
    status: 'PENDING',
    amountCents: 1_000,
    feeCents: 100,
    heldCents: 1_100,
    pixkey: 'ana@example.com',
    keytype: 'EMAIL',
    createdAt: RECORD_TIME,
    bank: 'simulated',
    ...over,
  };
}

/** Customer 7 of acct_1. */
export function aCustomer(over: Partial<Customer> = {}): Customer {
  return {
    id: 7,
    accountId: 'acct_1',
    name: 'Ana Silva',
    document: '12345678909',
    documentType: 'CPF',
    email: 'ana@example.com',
    createdAt: RECORD_TIME,
    ...over,
  };
}

/** An OPEN attempt of an API card charge. */
export function aCardAttempt(over: Partial<CardAttempt> = {}): CardAttempt {
  return {
    key: 'k'.repeat(43),
    accountId: 'acct_1',
    providerKey: 'p'.repeat(43),
    reference: 'INV-CCCCCC',
    invoiceId: 1002,
    status: 'OPEN',
    provider: 'simulated',
    ...over,
  };
}
