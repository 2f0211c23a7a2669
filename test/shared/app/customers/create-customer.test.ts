import { describe, expect, it } from 'vitest';
import { createCustomer } from '../../../../shared/app/customers/create-customer';
import { customerCreatedWrites } from '../../../../shared/adapters/dynamo/customers';
import { IdClashError } from '../../../../shared/domain/errors';
import { createCustomerBodySchema } from '../../../../shared/domain/schemas/customer';

const now = new Date('2026-11-27T12:00:00.000Z');
const body = createCustomerBodySchema.parse({
  name: 'Ana',
  document: '529.982.247-25',
  document_type: 'CPF',
  email: 'ana@example.com',
  phone: ' ',
  mobilephone: '(11) 98765-4321',
});

describe('create a customer (use case)', () => {
  it('answers the normalized customer and says it was created (one change)', () => {
    const { answer, changes } = createCustomer({ accountId: 'acct_1', id: 42, body, now });
    expect(answer).toEqual({
      id: 42,
      accountId: 'acct_1',
      name: 'Ana',
      document: '52998224725',
      documentType: 'CPF',
      email: 'ana@example.com',
      mobilephone: '(11) 98765-4321',
      createdAt: now.toISOString(),
    });
    expect(changes).toEqual([{ kind: 'customer.created', customer: answer }]);
  });

  it('is written as the id reservation and the customer, neither overwriting (a taken id: draw again)', () => {
    const { changes } = createCustomer({ accountId: 'acct_1', id: 42, body, now });
    const [change] = changes;
    if (change?.kind !== 'customer.created') throw new Error('no customer.created');
    const writes = customerCreatedWrites('t', change, Buffer.alloc(32, 1));
    expect(writes.map((w) => [w.Put?.Item?.PK, w.Put?.Item?.SK, w.Put?.ConditionExpression])).toEqual([
      ['CUSTID#42', 'CUSTID', 'attribute_not_exists(PK)'],
      ['ACCT#acct_1', 'CUSTOMER#0000000000000042', 'attribute_not_exists(PK)'],
    ]);
    for (const write of writes) expect(write.onConditionFailed?.()).toBeInstanceOf(IdClashError);
    expect(JSON.stringify(writes)).not.toContain('52998224725');
  });
});
