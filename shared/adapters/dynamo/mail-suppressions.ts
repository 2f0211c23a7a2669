import { createHash } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { normalizeEmail } from '../../domain/panel/invite';
import type { MailSuppressions } from '../../ports/mail';
import { batchGetConsistent } from './batch-get';
import { type Db, isConditionalCheckFailed } from './dynamo';
import { keys } from './keys';
import type { TxWrite } from './transact';

/** The item type of a suppressed address (`type` attribute). */
export const MAIL_SUPPRESSION_ITEM_TYPE = 'mail_suppression';

/** The SHA-256 (hex) of the normalized e-mail: a suppression's key, so the item never holds the address. */
export function emailHash(email: string): string {
  return createHash('sha256').update(normalizeEmail(email), 'utf8').digest('hex');
}

/** A suppressed address's key. */
export const suppressionKey = (email: string) => keys.mailSuppression(emailHash(email));

/**
 * The check the mail worker's claim makes in its transaction (./mail-outbox.ts): the recipient is not
 * suppressed. A suppression written at any instant before the claim refuses it.
 */
export function notSuppressedCheck(table: string, email: string): TxWrite {
  return { ConditionCheck: { TableName: table, Key: suppressionKey(email), ConditionExpression: 'attribute_not_exists(PK)' } };
}

/**
 * The addresses the panel no longer mails (issue 44): one item per address, `MAILSUP#<sha256 of the
 * normalized e-mail>`, with why (bounce or complaint), SES's detail and when; no TTL (an operator lifts
 * one by deleting it). The first suppression of an address is kept: a later event of it writes nothing.
 */
export function dynamoMailSuppressions(db: Db, table: string): MailSuppressions {
  return {
    async suppress(entries) {
      let added = 0;
      for (const entry of entries) {
        try {
          await db.send(
            new PutCommand({
              TableName: table,
              Item: {
                ...suppressionKey(entry.email),
                type: MAIL_SUPPRESSION_ITEM_TYPE,
                reason: entry.reason,
                detail: entry.detail.slice(0, 200),
                at: entry.at,
              },
              ConditionExpression: 'attribute_not_exists(PK)',
            }),
          );
          added += 1;
        } catch (err) {
          // Suppressed already (this event again, or an earlier one): the first reason stays.
          if (!isConditionalCheckFailed(err)) throw err;
        }
      }
      return added;
    },
    async suppressed(emails) {
      const unique = [...new Set(emails.map(normalizeEmail))];
      if (unique.length === 0) return new Set();
      const items = await batchGetConsistent(db, table, unique.map(suppressionKey), 'PK, SK');
      return new Set(unique.filter((_, i) => items[i] !== undefined));
    },
  };
}
