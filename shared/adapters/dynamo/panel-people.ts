import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '../../domain/panel/audit';
import type { PanelPerson } from '../../domain/panel/person';
import { isPanelRole } from '../../domain/panel/roles';
import { type PanelSession, sessionEndsAt } from '../../domain/panel/session';
import type { Enrollment, PanelAuditLog, PanelPeople, PanelSessions } from '../../ports/panel';
import type { ChangeCompilers } from './changes';
import { cancellationReasons } from './contention';
import { conditionHeld, type Db, type Item, isConditionalCheckFailed } from './dynamo';
import { keys } from './keys';
import { mailWrite } from './mail-outbox';
import { inviteEntryDelete, inviterCheck } from './panel-invite-items';
import { stripped } from './transact';

/** The merchant panel's items (issue 27): people by e-mail, sessions, sign-in failures, the audit log. */

function personOf(item: Item): PanelPerson | undefined {
  const { personId, accountId, email, role, passwordHash, totpSecretSealed, totpLastStep, createdAt, passwordChangedAt, sessionsValidFrom } = item;
  if (typeof personId !== 'string' || typeof accountId !== 'string' || typeof email !== 'string' || !isPanelRole(role)) return undefined;
  if (typeof passwordHash !== 'string' || typeof totpSecretSealed !== 'string' || typeof createdAt !== 'string' || typeof passwordChangedAt !== 'string')
    return undefined;
  return {
    personId,
    accountId,
    email,
    role,
    passwordHash,
    totpSecretSealed,
    createdAt,
    passwordChangedAt,
    ...(typeof totpLastStep === 'number' ? { totpLastStep } : {}),
    ...(typeof sessionsValidFrom === 'string' ? { sessionsValidFrom } : {}),
  };
}

function sessionOf(item: Item): PanelSession | undefined {
  const { sessionHash, personId, accountId, email, stage, createdAt, lastSeenAt, ip, userAgent } = item;
  if (typeof sessionHash !== 'string' || typeof personId !== 'string' || typeof accountId !== 'string' || typeof email !== 'string') return undefined;
  if (stage !== 'code' && stage !== 'active') return undefined;
  if (typeof createdAt !== 'string' || typeof lastSeenAt !== 'string' || typeof ip !== 'string' || typeof userAgent !== 'string') return undefined;
  return { sessionHash, personId, accountId, email, stage, createdAt, lastSeenAt, ip, userAgent };
}

/** A session's item: DynamoDB's TTL removes it after it ended (reads check the end themselves: TTL deletion lags). */
function sessionItem(session: PanelSession): Item {
  // A signed-in session is listed under its person (GSI1): their security page, "sign out everywhere".
  const listed =
    session.stage === 'active' ? { GSI1PK: keys.sessionListPartition(session.personId), GSI1SK: `${session.createdAt}#${session.sessionHash}` } : {};
  return { ...keys.panelSession(session.sessionHash), ...listed, type: 'panel_session', ...session, ttl: Math.ceil(sessionEndsAt(session).getTime() / 1000) };
}

/** A person's item: by e-mail, listed in the account's team (GSI1, by e-mail). */
export function personItem(person: PanelPerson): Item {
  return { ...keys.panelPerson(person.email), GSI1PK: keys.peopleListPartition(person.accountId), GSI1SK: person.email, type: 'panel_person', ...person };
}

/** The account's owner count moved by `delta`; taking one away only while another owner stays. */
export function ownersAdded(table: string, accountId: string, delta: 1 | -1) {
  return delta > 0
    ? { Update: { TableName: table, Key: keys.panelTeam(accountId), UpdateExpression: 'ADD owners :one', ExpressionAttributeValues: { ':one': 1 } } }
    : {
        Update: {
          TableName: table,
          Key: keys.panelTeam(accountId),
          UpdateExpression: 'ADD owners :minus',
          ConditionExpression: 'owners > :one',
          ExpressionAttributeValues: { ':minus': -1, ':one': 1 },
        },
      };
}

export function auditItem(entry: AuditEntry): Item {
  return { ...keys.panelAudit(entry.accountId, entry.at, entry.entryId), type: 'panel_audit', ...entry };
}

export function dynamoPanelPeople(db: Db, table: string): PanelPeople {
  return {
    async byEmail(email) {
      const out = await db.send(new GetCommand({ TableName: table, Key: keys.panelPerson(email), ConsistentRead: true }));
      return out.Item ? personOf(out.Item) : undefined;
    },
    async enroll(invite, person, audit, now): Promise<Enrollment> {
      // An invite naming its own inviter's e-mail cannot be taken (that e-mail signs in already).
      if (invite.inviterEmail === person.email) return 'email_taken';
      const checks = inviterCheck(table, invite);
      try {
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Delete: {
                  TableName: table,
                  Key: keys.panelInvite(invite.tokenHash),
                  ConditionExpression: 'attribute_exists(PK) AND expiresAt > :now',
                  ExpressionAttributeValues: { ':now': now.toISOString() },
                },
              },
              { Put: { TableName: table, Item: personItem(person), ConditionExpression: 'attribute_not_exists(PK)' } },
              // Still the e-mail's live invite (not replaced or revoked), and (issue 43) its inviter still backs it.
              stripped(inviteEntryDelete(table, invite)),
              ...checks.map(stripped),
              { Put: { TableName: table, Item: auditItem(audit), ConditionExpression: 'attribute_not_exists(PK)' } },
              ...(person.role === 'owner' ? [ownersAdded(table, person.accountId, 1)] : []),
            ],
          }),
        );
        return 'enrolled';
      } catch (err) {
        const reasons = cancellationReasons(err);
        if (reasons?.[1]?.Code === 'ConditionalCheckFailed') return 'email_taken';
        if ([0, 2, ...checks.map((_, i) => 3 + i)].some((i) => reasons?.[i]?.Code === 'ConditionalCheckFailed')) return 'invite_gone';
        throw err;
      }
    },
    async endSessions(person, at, passwordHash) {
      return conditionHeld(() =>
        db.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.panelPerson(person.email),
            UpdateExpression: passwordHash ? 'SET sessionsValidFrom = :at, passwordHash = :hash, passwordChangedAt = :at' : 'SET sessionsValidFrom = :at',
            ConditionExpression: 'personId = :id',
            ExpressionAttributeValues: { ':at': at, ':id': person.personId, ...(passwordHash ? { ':hash': passwordHash } : {}) },
          }),
        ),
      );
    },
    async replaceAuthenticator(person, totpSecretSealed, step) {
      return conditionHeld(() =>
        db.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.panelPerson(person.email),
            UpdateExpression: 'SET totpSecretSealed = :new, totpLastStep = :step',
            ConditionExpression: 'personId = :id AND totpSecretSealed = :old',
            ExpressionAttributeValues: { ':new': totpSecretSealed, ':step': step, ':id': person.personId, ':old': person.totpSecretSealed },
          }),
        ),
      );
    },
    async useTotpStep(email, step) {
      return conditionHeld(() =>
        db.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.panelPerson(email),
            UpdateExpression: 'SET totpLastStep = :step',
            ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(totpLastStep) OR totpLastStep < :step)',
            ExpressionAttributeValues: { ':step': step },
          }),
        ),
      );
    },
  };
}

export function dynamoPanelSessions(db: Db, table: string, mailKey: () => Promise<Buffer>): PanelSessions {
  return {
    async open(session) {
      await db.send(new PutCommand({ TableName: table, Item: sessionItem(session), ConditionExpression: 'attribute_not_exists(PK)' }));
    },
    async get(sessionHash) {
      const out = await db.send(new GetCommand({ TableName: table, Key: keys.panelSession(sessionHash), ConsistentRead: true }));
      return out.Item ? sessionOf(out.Item) : undefined;
    },
    async promote(oldHash, next, notice) {
      const mail = mailWrite(table, notice, await mailKey());
      try {
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Delete: {
                  TableName: table,
                  Key: keys.panelSession(oldHash),
                  ConditionExpression: 'attribute_exists(PK) AND stage = :code',
                  ExpressionAttributeValues: { ':code': 'code' },
                },
              },
              { Put: { TableName: table, Item: sessionItem(next), ConditionExpression: 'attribute_not_exists(PK)' } },
              mail,
            ],
          }),
        );
        return true;
      } catch (err) {
        if (cancellationReasons(err)?.[0]?.Code === 'ConditionalCheckFailed') return false;
        throw err;
      }
    },
    async touch(session, now) {
      const touched = { ...session, lastSeenAt: now.toISOString() };
      try {
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: keys.panelSession(session.sessionHash),
            UpdateExpression: 'SET lastSeenAt = :seen, #ttl = :ttl',
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeNames: { '#ttl': 'ttl' },
            ExpressionAttributeValues: { ':seen': touched.lastSeenAt, ':ttl': Math.ceil(sessionEndsAt(touched).getTime() / 1000) },
          }),
        );
      } catch (err) {
        // Signed out meanwhile: nothing to keep alive.
        if (!isConditionalCheckFailed(err)) throw err;
      }
    },
    async listOf(personId) {
      const out = await db.send(
        new QueryCommand({
          TableName: table,
          IndexName: 'GSI1',
          KeyConditionExpression: 'GSI1PK = :pk',
          ExpressionAttributeValues: { ':pk': keys.sessionListPartition(personId) },
          ScanIndexForward: false,
          Limit: 50,
        }),
      );
      return (out.Items ?? []).flatMap((item) => sessionOf(item) ?? []);
    },
    async close(sessionHash) {
      await db.send(new DeleteCommand({ TableName: table, Key: keys.panelSession(sessionHash) }));
    },
  };
}

function auditOf(item: Item): AuditEntry | undefined {
  const { accountId, at, entryId, personId, email, action, detail, ip } = item;
  if (typeof accountId !== 'string' || typeof at !== 'string' || typeof entryId !== 'string' || typeof personId !== 'string') return undefined;
  if (typeof email !== 'string' || typeof action !== 'string' || typeof ip !== 'string') return undefined;
  return { accountId, at, entryId, personId, email, action, ip, ...(typeof detail === 'string' ? { detail } : {}) };
}

export function dynamoPanelAuditLog(db: Db, table: string): PanelAuditLog {
  return {
    async record(entry) {
      await db.send(new PutCommand({ TableName: table, Item: auditItem(entry), ConditionExpression: 'attribute_not_exists(PK)' }));
    },
    async latest(accountId, limit) {
      const out = await db.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': keys.panelAudit(accountId, '', '').PK },
          ScanIndexForward: false,
          Limit: limit,
          ConsistentRead: true,
        }),
      );
      return (out.Items ?? []).flatMap((item) => auditOf(item) ?? []);
    },
  };
}

/** The panel's changes: an audit entry, written with the action it records. */
export const panelCompilers: ChangeCompilers = {
  'panel.audited': (context, change) => [{ Put: { TableName: context.table, Item: auditItem(change.entry), ConditionExpression: 'attribute_not_exists(PK)' } }],
};
