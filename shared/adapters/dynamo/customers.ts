import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { seal, unseal } from '../../platform/crypto/personal-data';
import type { CustomerCreated } from '../../domain/changes';
import type { Customer } from '../../domain/customer';
import { IdClashError } from '../../domain/errors';
import { type CustomerStore, MAX_SCANNED } from '../../ports/customers';
import type { Db, Item } from './dynamo';
import { keys } from './keys';
import { queryPage } from './paging';
import type { TxWrite } from './transact';
import type { ChangeCompilers } from './changes';
import { definedOnly } from '../../domain/defined';

/** What a sealed document is bound to: its account and customer, so it cannot be moved to another item. */
export function documentContext(accountId: string, customerId: number): string {
  return `customer:${accountId}:${customerId}`;
}

/** The stored item of a customer: the taxpayer document sealed. */
export function customerItem(customer: Customer, personalDataKey: Buffer): Item {
  const { id, document, documentType, ...rest } = customer;
  return {
    ...keys.customer(customer.accountId, id),
    type: 'customer',
    ...rest,
    customerId: id,
    documentSealed: seal(document, personalDataKey, documentContext(customer.accountId, id)),
    documentType,
  };
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A customer item read back as the record (the document unsealed: a sealed document moved to another item fails). */
export function customerOf(item: Item, personalDataKey: Buffer): Customer {
  const accountId = String(item.accountId);
  const id = Number(item.customerId);
  const optional = {
    zipcode: text(item.zipcode),
    countryId: typeof item.countryId === 'number' ? item.countryId : undefined,
    state: text(item.state),
    city: text(item.city),
    district: text(item.district),
    street: text(item.street),
    number: text(item.number),
    phone: text(item.phone),
    mobilephone: text(item.mobilephone),
  };
  return {
    id,
    accountId,
    name: String(item.name),
    document: unseal(String(item.documentSealed), personalDataKey, documentContext(accountId, id)),
    documentType: item.documentType === 'CNPJ' ? 'CNPJ' : 'CPF',
    email: String(item.email),
    ...definedOnly(optional),
    createdAt: String(item.createdAt),
  };
}

/** A new customer: its id's reservation (ids are unique across accounts) and the customer, neither overwriting. */
export function customerCreatedWrites(table: string, change: CustomerCreated, personalDataKey: Buffer): TxWrite[] {
  const { customer } = change;
  return [
    {
      Put: {
        TableName: table,
        Item: { ...keys.customerIdReservation(customer.id), type: 'customerId', accountId: customer.accountId },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
      onConditionFailed: () => new IdClashError(),
    },
    {
      Put: { TableName: table, Item: customerItem(customer, personalDataKey), ConditionExpression: 'attribute_not_exists(PK)' },
      onConditionFailed: () => new IdClashError(),
    },
  ];
}

/** The customer store over the table. */
export function dynamoCustomers(db: Db, table: string, personalDataKey: () => Promise<Buffer>): CustomerStore {
  return {
    async get(accountId, id) {
      const out = await db.send(new GetCommand({ TableName: table, Key: keys.customer(accountId, id), ConsistentRead: true }));
      return out.Item ? customerOf(out.Item, await personalDataKey()) : undefined;
    },
    async list(accountId, page, keep) {
      const key = await personalDataKey();
      // Newest first: sort keys are zero-padded time-ordered ids.
      return queryPage(db, {
        query: {
          TableName: table,
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
          ExpressionAttributeValues: { ':pk': keys.account(accountId).PK, ':prefix': keys.customerPrefix },
          ScanIndexForward: false,
        },
        page: page.page,
        pageSize: page.limit,
        maxScanned: MAX_SCANNED,
        keep: (item) => {
          const customer = customerOf(item, key);
          return keep(customer) ? customer : undefined;
        },
      });
    },
  };
}

/** The customers room's changes. */
export const customerCompilers: ChangeCompilers = {
  'customer.created': async (context, change) => customerCreatedWrites(context.table, change, (await context.keys()).personalData),
};
