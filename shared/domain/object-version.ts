/**
 * A version on every object that moves (issue 29): invoices, withdrawals and orders carry `version`, 1
 * at creation and raised by one at each state change, in the same transaction as the change. Every event
 * about the object carries the version the change made and the status it left (`previous_status`), so a
 * receiver that keeps the highest version it has seen drops an older event delivered late
 * (events/webhook-receiver.ts).
 */

/** An object's version at creation. */
export const FIRST_VERSION = 1;

/** The version a state change makes from the one read (objects stored before versions were kept count as 1). */
export function nextVersion(read: number | undefined): number {
  return (read ?? FIRST_VERSION) + 1;
}

/** The fields every event's data object adds: the version the change made and the status it left (null: just created). */
export function versionFields(version: number, previousStatus: string | null): { version: number; previous_status: string | null } {
  return { version, previous_status: previousStatus };
}
