import { tableShape } from '../../../shared/adapters/dynamo/table';

/**
 * What IAM is asked when a function's SDK call reaches AWS, built from the command alone (pure): the
 * action, the resource's ARN and the condition keys the service defines for it. One SDK call can be
 * several authorizations: a TransactWriteItems is authorized as each of its parts' actions on its
 * table, a BatchGetItem once per table with every key's partition key. docs/decisions.md (issue 44).
 */
export type AuthorizationRequest = { action: string; resource: string; context: Record<string, string | string[]> };

/** Where the local stack pretends to be: the ARNs it builds, and the synthesized policies' tokens resolve to the same. */
export type LocalArns = { partition: string; region: string; account: string };

export const LOCAL_ARNS: LocalArns = { partition: 'aws', region: 'us-east-1', account: '123456789012' };

export const tableArn = (arns: LocalArns, table: string) => `arn:${arns.partition}:dynamodb:${arns.region}:${arns.account}:table/${table}`;
export const queueArn = (arns: LocalArns, name: string) => `arn:${arns.partition}:sqs:${arns.region}:${arns.account}:${name}`;
/** A secret's ARN as the local stack names it: no random suffix (a Secrets Manager ARN has six characters after the name). */
export const secretArn = (arns: LocalArns, name: string) =>
  name.startsWith('arn:') ? name : `arn:${arns.partition}:secretsmanager:${arns.region}:${arns.account}:secret:${name}`;
export const sesIdentityArn = (arns: LocalArns, identity: string) => `arn:${arns.partition}:ses:${arns.region}:${arns.account}:identity/${identity}`;
export const sesConfigurationSetArn = (arns: LocalArns, name: string) => `arn:${arns.partition}:ses:${arns.region}:${arns.account}:configuration-set/${name}`;

type Input = Record<string, unknown>;
type AttributeMap = Record<string, unknown>;

/** A key attribute's value as text (a marshalled {S}/{N}/{B}, or a plain value from a document client). */
function keyText(value: unknown): string {
  if (value && typeof value === 'object') {
    const v = value as { S?: unknown; N?: unknown; B?: unknown };
    if (v.S !== undefined) return String(v.S);
    if (v.N !== undefined) return String(v.N);
    if (v.B !== undefined) return Buffer.from(v.B as Uint8Array).toString('base64');
  }
  return String(value);
}

/** The top-level attribute names an expression refers to (`#name` placeholders resolved; `a.b[2]` counts as `a`). */
export function expressionAttributes(expression: unknown, names: unknown): string[] {
  if (typeof expression !== 'string' || expression.length === 0) return [];
  const aliases = (names ?? {}) as Record<string, string>;
  const found = new Set<string>();
  // A path is a name, then nested segments (.name or [n]); values (:v) are not attributes.
  const path = /(#?[A-Za-z_]\w*)((?:\s*\.\s*#?[A-Za-z_]\w*|\s*\[\s*\d+\s*\])*)(\s*\()?/g;
  for (const match of expression.replace(/:\w+/g, ' ').matchAll(path)) {
    const [, token = '', , call] = match;
    // A function (size(…), attribute_exists(…)) or a keyword (SET, AND, BETWEEN…) is not an attribute.
    if (call !== undefined || KEYWORDS.has(token.toUpperCase())) continue;
    found.add(token.startsWith('#') ? (aliases[token] ?? token) : token);
  }
  return [...found];
}

const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'BETWEEN', 'IN', 'SET', 'REMOVE', 'ADD', 'DELETE']);

/** Every top-level attribute a DynamoDB request names: its key, its item, and each of its expressions' attributes. */
export function requestAttributes(input: Input): string[] {
  const names = input.ExpressionAttributeNames;
  const attributes = new Set<string>();
  for (const map of [input.Key, input.Item] as unknown[]) if (map && typeof map === 'object') for (const name of Object.keys(map)) attributes.add(name);
  for (const field of ['UpdateExpression', 'ConditionExpression', 'ProjectionExpression', 'FilterExpression', 'KeyConditionExpression']) {
    const expression = input[field];
    if (typeof expression === 'string') for (const name of expressionAttributes(expression, names)) attributes.add(name);
  }
  for (const field of ['AttributesToGet']) for (const name of (input[field] as string[] | undefined) ?? []) attributes.add(name);
  for (const field of ['AttributeUpdates', 'Expected'])
    if (input[field] && typeof input[field] === 'object') for (const name of Object.keys(input[field])) attributes.add(name);
  return [...attributes].sort();
}

/** The partition key value a Query's key condition fixes (`PK = :pk`, `#pk = :pk`, either way round). */
export function queryPartitionKey(input: Input): string | undefined {
  const index = tableShape.globalSecondaryIndexes.find((i) => i.indexName === input.IndexName);
  const keyName = index ? index.partitionKey : tableShape.partitionKey;
  const expression = typeof input.KeyConditionExpression === 'string' ? input.KeyConditionExpression : '';
  const aliases = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (input.ExpressionAttributeValues ?? {}) as AttributeMap;
  for (const match of expression.matchAll(/(#?\w+)\s*=\s*(:\w+)|(:\w+)\s*=\s*(#?\w+)/g)) {
    const [name, value] = match[1] ? [match[1], match[2]] : [match[4], match[3]];
    const resolved = name?.startsWith('#') ? aliases[name] : name;
    if (resolved === keyName && value && value in values) return keyText(values[value]);
  }
  return undefined;
}

function leadingKeyOf(key: unknown): string[] {
  const pk = key && typeof key === 'object' ? (key as AttributeMap)[tableShape.partitionKey] : undefined;
  return pk === undefined ? [] : [keyText(pk)];
}

/** The condition keys DynamoDB sets that the request states (absent ones stay absent: `…IfExists` conditions pass on them). */
function stated(input: Input, context: Record<string, string | string[]>): Record<string, string | string[]> {
  if (typeof input.ReturnValues === 'string') context['dynamodb:ReturnValues'] = input.ReturnValues;
  if (typeof input.ReturnConsumedCapacity === 'string') context['dynamodb:ReturnConsumedCapacity'] = input.ReturnConsumedCapacity;
  if (typeof input.Select === 'string') context['dynamodb:Select'] = input.Select;
  return context;
}

function itemRequest(arns: LocalArns, action: string, input: Input, enclosing?: string): AuthorizationRequest {
  const context: Record<string, string | string[]> = {
    'dynamodb:LeadingKeys': leadingKeyOf(input.Key ?? input.Item),
    'dynamodb:Attributes': requestAttributes(input),
  };
  if (enclosing) context['dynamodb:EnclosingOperation'] = enclosing;
  return { action: `dynamodb:${action}`, resource: tableArn(arns, String(input.TableName)), context: stated(input, context) };
}

/** DynamoDB (low-level input: a document client's commands are marshalled before they are sent). */
export function dynamoDbRequests(arns: LocalArns, command: string, input: Input): AuthorizationRequest[] {
  const name = command.replace(/Command$/, '');
  switch (name) {
    case 'GetItem':
    case 'PutItem':
    case 'UpdateItem':
    case 'DeleteItem':
      return [itemRequest(arns, name, input)];
    case 'Query':
    case 'Scan': {
      const table = tableArn(arns, String(input.TableName));
      const resource = typeof input.IndexName === 'string' ? `${table}/index/${input.IndexName}` : table;
      const context: Record<string, string | string[]> = { 'dynamodb:Attributes': requestAttributes(input) };
      const pk = name === 'Query' ? queryPartitionKey(input) : undefined;
      if (pk !== undefined) context['dynamodb:LeadingKeys'] = [pk];
      return [{ action: `dynamodb:${name}`, resource, context: stated(input, context) }];
    }
    case 'BatchGetItem':
    case 'BatchWriteItem': {
      const tables = (input.RequestItems ?? {}) as Record<string, unknown>;
      return Object.entries(tables).map(([table, request]) => {
        const entries: Input[] =
          name === 'BatchGetItem'
            ? ((request as { Keys?: Input[] }).Keys ?? []).map((key) => ({ ...(request as Input), Key: key, Keys: undefined }))
            : ((request as { PutRequest?: Input; DeleteRequest?: Input }[]) ?? []).map((w) => (w.PutRequest ?? w.DeleteRequest ?? {}) as Input);
        const attributes = new Set(entries.flatMap((e) => requestAttributes(e)));
        const context: Record<string, string | string[]> = {
          'dynamodb:LeadingKeys': [...new Set(entries.flatMap((e) => leadingKeyOf(e.Key ?? e.Item)))],
          'dynamodb:Attributes': [...attributes].sort(),
        };
        return { action: `dynamodb:${name}`, resource: tableArn(arns, table), context: stated(input, context) };
      });
    }
    case 'TransactWriteItems': {
      // No action of its own: each part is authorized as the item action it is, on its table.
      const parts = (input.TransactItems ?? []) as Record<string, Input | undefined>[];
      return parts.flatMap((part) => {
        const [kind, body] = Object.entries(part).find(([, v]) => v !== undefined) ?? [];
        const action = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem' }[kind ?? ''];
        return action && body ? [itemRequest(arns, action, { ...body, ReturnConsumedCapacity: input.ReturnConsumedCapacity }, 'TransactWriteItems')] : [];
      });
    }
    case 'TransactGetItems': {
      const parts = (input.TransactItems ?? []) as { Get?: Input }[];
      return parts.flatMap((part) =>
        part.Get ? [itemRequest(arns, 'GetItem', { ...part.Get, ReturnConsumedCapacity: input.ReturnConsumedCapacity }, 'TransactGetItems')] : [],
      );
    }
    default:
      return [{ action: `dynamodb:${name}`, resource: tableArn(arns, String(input.TableName ?? '*')), context: {} }];
  }
}

/** A queue URL's queue name (its last path segment). */
const queueNameOf = (url: unknown) =>
  String(url ?? '')
    .replace(/\/+$/, '')
    .split('/')
    .pop() ?? '';

export function sqsRequests(arns: LocalArns, command: string, input: Input): AuthorizationRequest[] {
  const name = command.replace(/Command$/, '');
  // Batch calls are authorized as the single action (SendMessageBatch needs sqs:SendMessage).
  const action =
    { SendMessageBatch: 'SendMessage', DeleteMessageBatch: 'DeleteMessage', ChangeMessageVisibilityBatch: 'ChangeMessageVisibility' }[name] ?? name;
  const queue = name === 'GetQueueUrl' || name === 'CreateQueue' ? String(input.QueueName ?? '') : queueNameOf(input.QueueUrl);
  return [{ action: `sqs:${action}`, resource: queueArn(arns, queue), context: {} }];
}

/** `Name <address>` or a bare address: the address and the display name. */
export function parseMailbox(from: string): { address: string; displayName?: string } {
  const match = /^\s*(?:"?([^"<]*?)"?\s*)?<([^>]+)>\s*$/.exec(from);
  if (!match) return { address: from.trim() };
  const displayName = match[1]?.trim();
  return { address: (match[2] ?? '').trim(), ...(displayName ? { displayName } : {}) };
}

/**
 * SES v2 SendEmail: authorized on the sending identity (the From address), with ses:FromAddress,
 * ses:Recipients…, and when it names a configuration set, on that configuration set too (with the same keys).
 */
export function sesRequests(arns: LocalArns, command: string, input: Input): AuthorizationRequest[] {
  const name = command.replace(/Command$/, '');
  if (name !== 'SendEmail') return [{ action: `ses:${name}`, resource: sesIdentityArn(arns, '*'), context: {} }];
  const from = parseMailbox(String(input.FromEmailAddress ?? ''));
  const destination = (input.Destination ?? {}) as { ToAddresses?: string[]; CcAddresses?: string[]; BccAddresses?: string[] };
  const recipients = [...(destination.ToAddresses ?? []), ...(destination.CcAddresses ?? []), ...(destination.BccAddresses ?? [])].map(
    (r) => parseMailbox(r).address,
  );
  const context: Record<string, string | string[]> = { 'ses:FromAddress': from.address, 'ses:Recipients': recipients, 'ses:ApiVersion': '2' };
  if (from.displayName) context['ses:FromDisplayName'] = from.displayName;
  const identity = { action: 'ses:SendEmail', resource: sesIdentityArn(arns, from.address), context };
  const set = typeof input.ConfigurationSetName === 'string' && input.ConfigurationSetName.length > 0 ? input.ConfigurationSetName : undefined;
  return set ? [identity, { action: 'ses:SendEmail', resource: sesConfigurationSetArn(arns, set), context }] : [identity];
}

export function secretsManagerRequests(arns: LocalArns, command: string, input: Input): AuthorizationRequest[] {
  const name = command.replace(/Command$/, '');
  const id = String(input.SecretId ?? '');
  const context: Record<string, string | string[]> = { 'secretsmanager:SecretId': secretArn(arns, id) };
  if (typeof input.VersionStage === 'string') context['secretsmanager:VersionStage'] = input.VersionStage;
  if (typeof input.VersionId === 'string') context['secretsmanager:VersionId'] = input.VersionId;
  return [{ action: `secretsmanager:${name}`, resource: secretArn(arns, id), context }];
}

/** The authorizations one SDK call needs, by the client that sends it; undefined for a client not evaluated. */
export function authorizationRequests(arns: LocalArns, clientName: string, command: string, input: Input): AuthorizationRequest[] | undefined {
  switch (clientName) {
    case 'DynamoDBClient':
      return dynamoDbRequests(arns, command, input);
    case 'SQSClient':
      return sqsRequests(arns, command, input);
    case 'SESv2Client':
      return sesRequests(arns, command, input);
    case 'SecretsManagerClient':
      return secretsManagerRequests(arns, command, input);
    default:
      return undefined;
  }
}
