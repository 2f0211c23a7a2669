import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { isPanelRole } from '../../domain/panel/roles';
import type { PanelTeam, TeamChangeOutcome } from '../../ports/panel';
import { cancellationReasons } from './contention';
import type { Db } from './dynamo';
import { keys } from './keys';
import { auditItem, ownersAdded } from './panel-people';
import { inviteEntryDelete, inviteLinkDelete } from './panel-invite-items';
import { stripped } from './transact';
import type { PanelInvite } from '../../domain/panel/invite';

/**
 * An account's panel team (issue 27): its people listed through GSI1 (`ACCT#<account>#PEOPLE`, by
 * e-mail; only the fields the team page shows), and the role changes and removals, each conditional on
 * the person as read and, for an owner, on the account's owner count (PTEAM#), with its audit entry and
 * (issue 43) the revocation of the invites the person sent, when removed or lowered.
 */
const TEAM_INDEX = 'GSI1';

export function dynamoPanelTeam(db: Db, table: string): PanelTeam {
  // The transaction: [0] the person, [1] the audit entry, then each revoked invite's entry and link, then the owner count.
  const outcome = (err: unknown, revoked: number): TeamChangeOutcome => {
    const reasons = cancellationReasons(err);
    const failed = (i: number) => reasons?.[i]?.Code === 'ConditionalCheckFailed';
    if (failed(0)) return 'moved';
    if (Array.from({ length: revoked }, (_, i) => 2 + 2 * i).some(failed)) return 'invites_moved';
    if (failed(2 + 2 * revoked)) return 'last_owner';
    throw err;
  };
  // The invites the person sent, revoked with the change: each entry only while still that invite (./panel-invite-items.ts).
  const revocations = (revoke: readonly PanelInvite[]) =>
    revoke.flatMap((invite) => [stripped(inviteEntryDelete(table, invite)), stripped(inviteLinkDelete(table, invite.tokenHash))]);
  const ownersMove = (accountId: string, from: string, to: string | undefined) =>
    from === 'owner' && to !== 'owner' ? [ownersAdded(table, accountId, -1)] : from !== 'owner' && to === 'owner' ? [ownersAdded(table, accountId, 1)] : [];
  return {
    async members(accountId) {
      const out = await db.send(
        new QueryCommand({
          TableName: table,
          IndexName: TEAM_INDEX,
          KeyConditionExpression: 'GSI1PK = :pk',
          ExpressionAttributeValues: { ':pk': keys.peopleListPartition(accountId) },
          ProjectionExpression: 'personId, accountId, email, #role, createdAt',
          ExpressionAttributeNames: { '#role': 'role' },
          Limit: 200,
        }),
      );
      return (out.Items ?? []).flatMap((item) => {
        const { personId, email, role, createdAt } = item;
        if (typeof personId !== 'string' || typeof email !== 'string' || !isPanelRole(role) || typeof createdAt !== 'string' || item.accountId !== accountId)
          return [];
        return [{ personId, accountId, email, role, createdAt }];
      });
    },
    async changeRole(person, role, audit, revoke) {
      try {
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: table,
                  Key: keys.panelPerson(person.email),
                  UpdateExpression: 'SET #role = :to',
                  ConditionExpression: '#role = :from AND personId = :id',
                  ExpressionAttributeNames: { '#role': 'role' },
                  ExpressionAttributeValues: { ':to': role, ':from': person.role, ':id': person.personId },
                },
              },
              { Put: { TableName: table, Item: auditItem(audit), ConditionExpression: 'attribute_not_exists(PK)' } },
              ...revocations(revoke),
              ...ownersMove(person.accountId, person.role, role),
            ],
          }),
        );
        return 'done';
      } catch (err) {
        return outcome(err, revoke.length);
      }
    },
    async remove(person, audit, revoke) {
      try {
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Delete: {
                  TableName: table,
                  Key: keys.panelPerson(person.email),
                  ConditionExpression: '#role = :from AND personId = :id',
                  ExpressionAttributeNames: { '#role': 'role' },
                  ExpressionAttributeValues: { ':from': person.role, ':id': person.personId },
                },
              },
              { Put: { TableName: table, Item: auditItem(audit), ConditionExpression: 'attribute_not_exists(PK)' } },
              ...revocations(revoke),
              ...ownersMove(person.accountId, person.role, undefined),
            ],
          }),
        );
        return 'done';
      } catch (err) {
        return outcome(err, revoke.length);
      }
    },
  };
}
