import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { AccessDeniedError, IamEvaluator } from '../../../../infra/local/iam/evaluator';
import { installIamEvaluation, runAsFunction } from '../../../../infra/local/iam/hook';
import type { LocalIamPolicies } from '../../../../infra/local/iam/policies';
import {
  authorizationRequests,
  dynamoDbRequests,
  expressionAttributes,
  LOCAL_ARNS,
  parseMailbox,
  queryPartitionKey,
  requestAttributes,
  tableArn,
} from '../../../../infra/local/iam/requests';
import { createDb } from '../../../../shared/adapters/dynamo/dynamo';

const TABLE = tableArn(LOCAL_ARNS, 't');

describe('authorization requests built from SDK commands', () => {
  it('names the top-level attributes of every expression, placeholders resolved, functions and keywords left out', () => {
    expect(expressionAttributes('SET #log[60] = :now, #ttl = :ttl REMOVE #log[0]', { '#log': 'rlLog', '#ttl': 'ttl' }).sort()).toEqual(['rlLog', 'ttl']);
    expect(
      expressionAttributes('size(#log) = :limit AND #log[0] <= :cutoff AND kv = :kv AND (attribute_not_exists(disabled) OR disabled = :f)', {
        '#log': 'rlLog',
      }).sort(),
    ).toEqual(['disabled', 'kv', 'rlLog']);
    expect(expressionAttributes('info.rating BETWEEN :a AND :b', {})).toEqual(['info']);
    expect(requestAttributes({ Key: { PK: { S: 'a' }, SK: { S: 'b' } }, ProjectionExpression: 'kv, disabled' })).toEqual(['PK', 'SK', 'disabled', 'kv']);
  });

  it('UpdateItem: the table, the partition key as dynamodb:LeadingKeys, the attributes, ReturnValues as stated', () => {
    const [request, ...rest] = dynamoDbRequests(LOCAL_ARNS, 'UpdateItemCommand', {
      TableName: 't',
      Key: { PK: { S: 'ACCT#1' }, SK: { S: 'ACCOUNT' } },
      UpdateExpression: 'ADD rlCnt :one',
      ConditionExpression: 'kv = :kv',
      ExpressionAttributeValues: { ':one': { N: '1' }, ':kv': { N: '1' } },
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    expect(rest).toEqual([]);
    expect(request).toEqual({
      action: 'dynamodb:UpdateItem',
      resource: TABLE,
      context: { 'dynamodb:LeadingKeys': ['ACCT#1'], 'dynamodb:Attributes': ['PK', 'SK', 'kv', 'rlCnt'], 'dynamodb:ReturnValues': 'ALL_NEW' },
    });
  });

  it('TransactWriteItems: each part as the item action it is, on its table, with the enclosing operation', () => {
    const requests = dynamoDbRequests(LOCAL_ARNS, 'TransactWriteItemsCommand', {
      TransactItems: [
        { Put: { TableName: 't', Item: { PK: { S: 'INV#1' }, SK: { S: 'INVOICE' }, amount: { N: '1' } } } },
        { Update: { TableName: 't', Key: { PK: { S: 'BAL#1#0' }, SK: { S: 'BAL' } }, UpdateExpression: 'ADD availableCents :d' } },
        { Delete: { TableName: 't', Key: { PK: { S: 'IDEM#x' }, SK: { S: 'IDEM' } } } },
        { ConditionCheck: { TableName: 't', Key: { PK: { S: 'ACCT#1' }, SK: { S: 'ACCOUNT' } }, ConditionExpression: 'attribute_exists(PK)' } },
      ],
    });
    expect(requests.map((r) => [r.action, r.context['dynamodb:LeadingKeys'], r.context['dynamodb:EnclosingOperation']])).toEqual([
      ['dynamodb:PutItem', ['INV#1'], 'TransactWriteItems'],
      ['dynamodb:UpdateItem', ['BAL#1#0'], 'TransactWriteItems'],
      ['dynamodb:DeleteItem', ['IDEM#x'], 'TransactWriteItems'],
      ['dynamodb:ConditionCheckItem', ['ACCT#1'], 'TransactWriteItems'],
    ]);
    expect(requests[0]?.context['dynamodb:Attributes']).toEqual(['PK', 'SK', 'amount']);
  });

  it('BatchGetItem: one request per table with every key; TransactGetItems: GetItem per item', () => {
    const [batch] = dynamoDbRequests(LOCAL_ARNS, 'BatchGetItemCommand', {
      RequestItems: {
        t: {
          Keys: [
            { PK: { S: 'INV#A' }, SK: { S: 'INVOICE' } },
            { PK: { S: 'INVID#9' }, SK: { S: 'INVID' } },
          ],
          ProjectionExpression: 'PK, SK',
        },
      },
    });
    expect(batch).toEqual({
      action: 'dynamodb:BatchGetItem',
      resource: TABLE,
      context: { 'dynamodb:LeadingKeys': ['INV#A', 'INVID#9'], 'dynamodb:Attributes': ['PK', 'SK'] },
    });
    const gets = dynamoDbRequests(LOCAL_ARNS, 'TransactGetItemsCommand', {
      TransactItems: [{ Get: { TableName: 't', Key: { PK: { S: 'BAL#1#0' }, SK: { S: 'B' } } } }],
    });
    expect(gets.map((g) => g.action)).toEqual(['dynamodb:GetItem']);
  });

  it("Query: the index's ARN, its partition key value from the key condition; Scan: Select as stated", () => {
    const input = {
      TableName: 't',
      IndexName: 'GSI1',
      KeyConditionExpression: '#pk = :pk AND begins_with(GSI1SK, :p)',
      ExpressionAttributeNames: { '#pk': 'GSI1PK' },
      ExpressionAttributeValues: { ':pk': { S: 'ACCT#1#INVOICES' }, ':p': { S: 'x' } },
    };
    expect(queryPartitionKey(input)).toBe('ACCT#1#INVOICES');
    const [query] = dynamoDbRequests(LOCAL_ARNS, 'QueryCommand', input);
    expect(query?.resource).toBe(`${TABLE}/index/GSI1`);
    expect(query?.context['dynamodb:LeadingKeys']).toEqual(['ACCT#1#INVOICES']);
    const [scan] = dynamoDbRequests(LOCAL_ARNS, 'ScanCommand', { TableName: 't', ProjectionExpression: 'PK, SK, accountId', Select: 'SPECIFIC_ATTRIBUTES' });
    expect(scan?.context).toEqual({ 'dynamodb:Attributes': ['PK', 'SK', 'accountId'], 'dynamodb:Select': 'SPECIFIC_ATTRIBUTES' });
  });

  it('SQS, SES and Secrets Manager: the queue from its URL, the sending identity with ses:FromAddress, the secret', () => {
    expect(authorizationRequests(LOCAL_ARNS, 'SQSClient', 'SendMessageBatchCommand', { QueueUrl: 'http://127.0.0.1:1/000000000000/payouts' })).toEqual([
      { action: 'sqs:SendMessage', resource: 'arn:aws:sqs:us-east-1:123456789012:payouts', context: {} },
    ]);
    expect(parseMailbox('Painel do gateway <painel@gateway.localhost>')).toEqual({ address: 'painel@gateway.localhost', displayName: 'Painel do gateway' });
    const [mail] =
      authorizationRequests(LOCAL_ARNS, 'SESv2Client', 'SendEmailCommand', {
        FromEmailAddress: 'Painel <painel@x.example>',
        Destination: { ToAddresses: ['a@b.example'] },
      }) ?? [];
    expect(mail).toEqual({
      action: 'ses:SendEmail',
      resource: 'arn:aws:ses:us-east-1:123456789012:identity/painel@x.example',
      context: { 'ses:FromAddress': 'painel@x.example', 'ses:FromDisplayName': 'Painel', 'ses:Recipients': ['a@b.example'], 'ses:ApiVersion': '2' },
    });
    // Issue 44: a send through a configuration set is authorized on the set too, with the same keys.
    const throughSet = authorizationRequests(LOCAL_ARNS, 'SESv2Client', 'SendEmailCommand', {
      FromEmailAddress: 'painel@x.example',
      Destination: { ToAddresses: ['a@b.example'] },
      ConfigurationSetName: 'panel-mail',
    });
    expect(throughSet?.map((r) => r.resource)).toEqual([
      'arn:aws:ses:us-east-1:123456789012:identity/painel@x.example',
      'arn:aws:ses:us-east-1:123456789012:configuration-set/panel-mail',
    ]);
    expect(throughSet?.[1]?.context).toEqual(throughSet?.[0]?.context);
    const [secret] = authorizationRequests(LOCAL_ARNS, 'SecretsManagerClient', 'GetSecretValueCommand', { SecretId: 'app/master' }) ?? [];
    expect(secret?.resource).toBe('arn:aws:secretsmanager:us-east-1:123456789012:secret:app/master');
    expect(authorizationRequests(LOCAL_ARNS, 'STSClient', 'GetCallerIdentityCommand', {})).toBeUndefined();
  });
});

/** A role that may GetItem ACCT# items, update only their counter attributes without the item back, and send to `payouts`. */
const POLICIES: LocalIamPolicies = {
  arns: LOCAL_ARNS,
  functions: {
    Reader: {
      roleLogicalId: 'ReaderRole',
      policies: [
        {
          name: 'ReaderPolicy',
          policy: {
            Version: '2012-10-17',
            Statement: [
              {
                Effect: 'Allow',
                Action: 'dynamodb:GetItem',
                Resource: TABLE,
                Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['ACCT#*'] } },
              },
              {
                Effect: 'Allow',
                Action: 'dynamodb:UpdateItem',
                Resource: TABLE,
                Condition: {
                  'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['ACCT#*'] },
                  'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['PK', 'SK', 'rlCnt'] },
                  StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE', 'UPDATED_OLD', 'UPDATED_NEW'] },
                },
              },
              { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: 'arn:aws:sqs:us-east-1:123456789012:payouts' },
            ],
          },
        },
      ],
    },
  },
};

describe('the IAM evaluator', () => {
  const evaluator = new IamEvaluator(POLICIES);
  const update = (returnValues: string, attributes = ['PK', 'SK', 'rlCnt'], pk = 'ACCT#1') => ({
    action: 'dynamodb:UpdateItem',
    resource: TABLE,
    context: { 'dynamodb:LeadingKeys': [pk], 'dynamodb:Attributes': attributes, 'dynamodb:ReturnValues': returnValues },
  });

  it('allows what a statement allows and refuses ReturnValues, attributes and partitions outside it (twice: validated, then the cheaper path)', async () => {
    for (let round = 0; round < 2; round += 1) {
      expect((await evaluator.decide('Reader', update('UPDATED_NEW'))).allowed).toBe(true);
      expect((await evaluator.decide('Reader', update('ALL_NEW'))).allowed).toBe(false);
      expect((await evaluator.decide('Reader', update('NONE', ['PK', 'SK', 'rlCnt', 'name']))).allowed).toBe(false);
      expect((await evaluator.decide('Reader', update('NONE', ['PK', 'SK'], `INV#${round}`))).allowed).toBe(false);
    }
  });

  it('installed on real SDK clients: a denied call throws AccessDeniedException (400) before anything is sent; calls outside a function are not evaluated', async () => {
    installIamEvaluation(POLICIES, undefined);
    const config = { region: 'us-east-1', endpoint: 'http://127.0.0.1:9', credentials: { accessKeyId: 'x', secretAccessKey: 'x' }, maxAttempts: 1 };
    const db = createDb(new DynamoDBClient(config));
    const denied = runAsFunction('Reader', () =>
      db.send(
        new UpdateCommand({
          TableName: 't',
          Key: { PK: 'ACCT#1', SK: 'ACCOUNT' },
          UpdateExpression: 'ADD rlCnt :one',
          ExpressionAttributeValues: { ':one': 1 },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    await expect(denied).rejects.toBeInstanceOf(AccessDeniedError);
    await expect(denied).rejects.toMatchObject({ name: 'AccessDeniedException', $fault: 'client', $metadata: { httpStatusCode: 400 } });
    // Allowed: the call goes on to the (absent) endpoint and fails there, not in IAM.
    const allowed = runAsFunction('Reader', () => db.send(new GetCommand({ TableName: 't', Key: { PK: 'ACCT#1', SK: 'ACCOUNT' } })));
    await expect(allowed).rejects.not.toBeInstanceOf(AccessDeniedError);
    // A partition the role may not read, outside any function: not evaluated.
    await expect(db.send(new GetCommand({ TableName: 't', Key: { PK: 'INV#1', SK: 'INVOICE' } }))).rejects.not.toBeInstanceOf(AccessDeniedError);
    const sqs = new SQSClient(config);
    await expect(
      runAsFunction('Reader', () => sqs.send(new SendMessageCommand({ QueueUrl: 'http://127.0.0.1:9/0/webhooks', MessageBody: 'x' }))),
    ).rejects.toMatchObject({
      name: 'AccessDenied',
      $metadata: { httpStatusCode: 403 },
    });
  });
});
