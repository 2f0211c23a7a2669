import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { StatementCursor } from '../../domain/pix-statement';
import type { PixStatementCursors } from '../../ports/pix-statement';
import { conditionHeld, type Db } from './dynamo';
import { keys } from './keys';

/** The cursor from its item; undefined when the item is missing or not a cursor. */
function cursorOf(item: Record<string, unknown> | undefined): StatementCursor | undefined {
  if (!item) return undefined;
  const { from, to, page } = item;
  if (typeof from !== 'string' || typeof to !== 'string' || typeof page !== 'number') return undefined;
  return { from, to, page };
}

/**
 * One item per PSP (`PIXSTMT#<provider>`): the window of the statement pass under way and its next
 * page. Moved by one conditional PutItem on the cursor read (or on its absence), so two runs never
 * both move it from the same place.
 */
export function dynamoPixStatementCursors(db: Db, table: string): PixStatementCursors {
  return {
    async read(provider) {
      const out = await db.send(new GetCommand({ TableName: table, Key: keys.pixStatement(provider), ConsistentRead: true }));
      return cursorOf(out.Item);
    },
    advance(provider, from, to) {
      const condition = from
        ? {
            ConditionExpression: '#from = :from AND #to = :to AND #page = :page',
            ExpressionAttributeValues: { ':from': from.from, ':to': from.to, ':page': from.page },
          }
        : { ConditionExpression: 'attribute_not_exists(PK)' };
      return conditionHeld(() =>
        db.send(
          new PutCommand({
            TableName: table,
            Item: { ...keys.pixStatement(provider), type: 'pixStatement', provider, from: to.from, to: to.to, page: to.page },
            ...condition,
            ...(from ? { ExpressionAttributeNames: { '#from': 'from', '#to': 'to', '#page': 'page' } } : {}),
          }),
        ),
      );
    },
  };
}
