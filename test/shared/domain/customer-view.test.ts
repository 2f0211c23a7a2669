import { describe, expect, it } from 'vitest';
import { customerItem, customerOf } from '../../../shared/adapters/dynamo/customers';
import { newCustomer } from '../../../shared/app/customers/create-customer';
import { customerFields } from '../../../shared/domain/customer-fields';
import { type CustomerView, customerView as viewOf, matchesFilters } from '../../../shared/domain/customer-view';
import type { Item } from '../../../shared/adapters/dynamo/dynamo';
import { createCustomerBodySchema } from '../../../shared/domain/schemas/customer';

const KEY = Buffer.alloc(32, 3);
const ACCOUNT = 'acct_0123456789abcdefghij';
const CUSTOMER_ID = 123_456_789;
const NOW = new Date('2026-03-04T05:06:07.089Z');

const BRAZIL = { id: 76, iso: 'BR', name: 'BRAZIL', nicename: 'Brazil', iso3: 'BRA', numcode: 76, phonecode: 55 };
const SAO_PAULO = { name: 'São Paulo', uf: 'SP', ibge: 35, ddd: '11,12,13,14,15,16,17,18,19' };

const FULL = {
  name: 'José da Silva',
  document: '529.982.247-25',
  document_type: 'CPF',
  email: 'jose@example.com',
  zipcode: '01310-100',
  country_id: 76,
  state: 'SP',
  city: 'São Paulo',
  district: 'Bela Vista',
  street: 'Avenida Paulista',
  number: '1000',
  phone: '+55 (11) 3333-4444',
  mobilephone: '(11) 98765-4321',
};

const body = (raw: unknown) => createCustomerBodySchema.parse(raw);
/** A new customer as stored (the use case's record through the adapter's item mapper). */
const newCustomerItem = (accountId: string, id: number, input: ReturnType<typeof body>, now: Date, key: Buffer) =>
  customerItem(newCustomer(accountId, id, input, now), key);
/** A stored item read back and viewed as the API answers it. */
const customerView = (item: Item, key: Buffer) => viewOf(customerOf(item, key));

describe('newCustomerItem', () => {
  it('keys the item by account and zero-padded customer id', () => {
    const item = newCustomerItem(ACCOUNT, CUSTOMER_ID, body(FULL), NOW, KEY);
    expect(item.PK).toBe(`ACCT#${ACCOUNT}`);
    expect(item.SK).toBe('CUSTOMER#0000000123456789');
    expect(item).toMatchObject({ type: 'customer', accountId: ACCOUNT, customerId: CUSTOMER_ID, createdAt: '2026-03-04T05:06:07.089Z' });
  });

  it('stores the document only sealed', () => {
    const item = newCustomerItem(ACCOUNT, CUSTOMER_ID, body(FULL), NOW, KEY);
    const json = JSON.stringify(item);
    expect(json).not.toContain('52998224725');
    expect(json).not.toContain('529.982.247-25');
    expect(json).not.toContain('529982247');
    expect(String(item.documentSealed)).toMatch(/^v1\./);
    expect(item.documentType).toBe('CPF');
  });

  it('stores the zipcode as 8 digits and the UF in upper case', () => {
    const item = newCustomerItem(ACCOUNT, CUSTOMER_ID, body({ ...FULL, state: 'sp' }), NOW, KEY);
    expect(item.zipcode).toBe('01310100');
    expect(item.state).toBe('SP');
    expect(item.countryId).toBe(76);
  });

  it('does not store blank optional fields', () => {
    const item = newCustomerItem(ACCOUNT, CUSTOMER_ID, body({ ...FULL, phone: '', mobilephone: '' }), NOW, KEY);
    expect(item.phone).toBeUndefined();
    expect(item.mobilephone).toBeUndefined();
  });
});

describe('customerView', () => {
  it('round-trips a full customer, with the document normalized and country and state expanded', () => {
    const item = newCustomerItem(ACCOUNT, CUSTOMER_ID, body(FULL), NOW, KEY);
    const expected: CustomerView = {
      id: CUSTOMER_ID,
      name: 'José da Silva',
      document: '52998224725',
      document_type: 'CPF',
      zipcode: '01310100',
      country: BRAZIL,
      state: SAO_PAULO,
      city: 'São Paulo',
      district: 'Bela Vista',
      street: 'Avenida Paulista',
      number: '1000',
      email: 'jose@example.com',
      phone: '+55 (11) 3333-4444',
      mobilephone: '(11) 98765-4321',
      created_at: '2026-03-04T05:06:07.089Z',
    };
    expect(customerView(item, KEY)).toEqual(expected);
    // The answer's JSON keeps the order of spec 2.4 (toEqual does not look at it).
    expect(JSON.stringify(customerView(item, KEY))).toBe(JSON.stringify(expected));
  });

  it('holds what customerFields gives (the boleto reads those), plus the country', () => {
    const item = newCustomerItem(ACCOUNT, CUSTOMER_ID, body(FULL), NOW, KEY);
    const { country, ...fields } = customerView(item, KEY);
    expect(country).toEqual(BRAZIL);
    expect(fields).toEqual(customerFields(customerOf(item, KEY)));
  });

  it('survives a JSON round trip of the item (as stored)', () => {
    const item = JSON.parse(JSON.stringify(newCustomerItem(ACCOUNT, CUSTOMER_ID, body(FULL), NOW, KEY))) as Record<string, unknown>;
    expect(customerView(item, KEY).document).toBe('52998224725');
  });

  it('shows a CNPJ normalized, letters upper-cased', () => {
    const item = newCustomerItem(ACCOUNT, CUSTOMER_ID, body({ ...FULL, document: '12.abc.345/01de-35', document_type: 'CNPJ' }), NOW, KEY);
    const view = customerView(item, KEY);
    expect(view.document).toBe('12ABC34501DE35');
    expect(view.document_type).toBe('CNPJ');
  });

  it('shows a lower-case UF as its state object', () => {
    const view = customerView(newCustomerItem(ACCOUNT, CUSTOMER_ID, body({ ...FULL, state: 'sp' }), NOW, KEY), KEY);
    expect(view.state).toEqual(SAO_PAULO);
  });

  it('shows absent and empty optional fields as null', () => {
    const minimal = { name: 'Ana', document: '529.982.247-25', document_type: 'CPF', email: 'ana@example.com', phone: '', mobilephone: '' };
    const view = customerView(newCustomerItem(ACCOUNT, 7, body(minimal), NOW, KEY), KEY);
    expect(view).toEqual({
      id: 7,
      name: 'Ana',
      document: '52998224725',
      document_type: 'CPF',
      zipcode: null,
      country: null,
      state: null,
      city: null,
      district: null,
      street: null,
      number: null,
      email: 'ana@example.com',
      phone: null,
      mobilephone: null,
      created_at: '2026-03-04T05:06:07.089Z',
    });
  });

  it('cannot unseal the document under another key', () => {
    const item = newCustomerItem(ACCOUNT, CUSTOMER_ID, body(FULL), NOW, KEY);
    expect(() => customerView(item, Buffer.alloc(32, 4))).toThrow();
  });

  it('cannot unseal a document moved to another customer or account', () => {
    const item = newCustomerItem(ACCOUNT, CUSTOMER_ID, body(FULL), NOW, KEY);
    expect(() => customerView({ ...item, customerId: CUSTOMER_ID + 1 }, KEY)).toThrow();
    expect(() => customerView({ ...item, accountId: 'acct_other' }, KEY)).toThrow();
  });
});

function view(overrides: Partial<CustomerView> = {}): CustomerView {
  return {
    id: 1,
    name: 'José da Silva',
    document: '52998224725',
    document_type: 'CPF',
    zipcode: null,
    country: null,
    state: null,
    city: null,
    district: null,
    street: null,
    number: null,
    email: 'Jose.Silva@Example.com',
    phone: '+55 (11) 3333-4444',
    mobilephone: '(11) 98765-4321',
    created_at: '2026-03-04T05:06:07.089Z',
    ...overrides,
  };
}

describe('matchesFilters', () => {
  it('matches everything without filters', () => {
    expect(matchesFilters(view(), {})).toBe(true);
  });

  it('matches a name partially, ignoring case, accented letters included', () => {
    expect(matchesFilters(view(), { name: 'silva' })).toBe(true);
    expect(matchesFilters(view(), { name: 'JOSÉ' })).toBe(true);
    expect(matchesFilters(view({ name: 'JOSÉ DA SILVA' }), { name: 'josé' })).toBe(true);
    expect(matchesFilters(view(), { name: 'Souza' })).toBe(false);
  });

  it('matches an email partially, ignoring case', () => {
    expect(matchesFilters(view(), { email: 'jose.silva@example' })).toBe(true);
    expect(matchesFilters(view(), { email: 'EXAMPLE.COM' })).toBe(true);
    expect(matchesFilters(view(), { email: 'example.org' })).toBe(false);
  });

  it('matches a document partially on its characters, ignoring punctuation', () => {
    expect(matchesFilters(view(), { document: '529.982' })).toBe(true);
    expect(matchesFilters(view(), { document: '247-25' })).toBe(true);
    expect(matchesFilters(view(), { document: '529.982.247-25' })).toBe(true);
    expect(matchesFilters(view(), { document: '99822' })).toBe(true);
    expect(matchesFilters(view(), { document: '111' })).toBe(false);
    expect(matchesFilters(view({ document: '12ABC34501DE35', document_type: 'CNPJ' }), { document: '12.abc.345' })).toBe(true);
  });

  it('matches phones on digits only, partially', () => {
    expect(matchesFilters(view(), { phone: '3333-4444' })).toBe(true);
    expect(matchesFilters(view(), { phone: '(11) 3333' })).toBe(true);
    expect(matchesFilters(view(), { phone: '5511' })).toBe(true);
    expect(matchesFilters(view(), { phone: '98765' })).toBe(false);
    expect(matchesFilters(view(), { mobilephone: '987654321' })).toBe(true);
    expect(matchesFilters(view(), { mobilephone: '3333' })).toBe(false);
  });

  it('does not match a phone filter without digits, nor a customer without a phone', () => {
    expect(matchesFilters(view(), { phone: '()-' })).toBe(false);
    expect(matchesFilters(view({ phone: null }), { phone: '3333' })).toBe(false);
    expect(matchesFilters(view({ mobilephone: null }), { mobilephone: '9876' })).toBe(false);
  });

  it('requires every filter to match', () => {
    expect(matchesFilters(view(), { name: 'josé', email: 'example', document: '529', phone: '3333', mobilephone: '9876' })).toBe(true);
    expect(matchesFilters(view(), { name: 'josé', email: 'example', document: '529', phone: '3333', mobilephone: '0000' })).toBe(false);
    expect(matchesFilters(view(), { name: 'maria', email: 'example' })).toBe(false);
  });
});
