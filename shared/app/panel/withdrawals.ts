import type { PanelSessionPorts } from './access-ports';
import { actingPerson, auditedChange, stepUp } from './acting';
import { reserveWithdrawal } from '../withdrawals/reserve-withdrawal';
import type { Change } from '../../domain/changes';
import { formatCents } from '../../domain/money';
import { mayAct } from '../../domain/panel/roles';
import type { PanelPerson } from '../../domain/panel/person';
import type { PanelSession } from '../../domain/panel/session';
import type { KeyType, Withdrawal } from '../../domain/withdrawal';
import { NotFoundError } from '../../domain/errors';
import type { BalancePort, WithdrawalStore, WithdrawListQuery } from '../../ports/withdrawals';

/**
 * The merchant panel's withdrawals (issue 27): the list and the detail read through GET /api/pixout's
 * store, and a new Pix withdrawal through POST /api/pixout/create's own use case (reserveWithdrawal),
 * after the role and a fresh authenticator code.
 */
export type PanelWithdrawalPorts = PanelSessionPorts & {
  withdrawals: Pick<WithdrawalStore, 'get' | 'list'>;
  balance: BalancePort;
  /** The account's fee for one withdrawal, in cents (the operator sets it). */
  feeCentsOf: (accountId: string) => Promise<number>;
  /** The registry name of the bank that pays withdrawals now (BANK_PROVIDER). */
  bank: string;
  newReference: () => string;
};

export type WithdrawalsView = { withdrawals: Withdrawal[]; mayWithdraw: boolean; feeCents: number };

/** The account's withdrawals as GET /api/pixout/list pages them, and whether the person may ask a new one. */
export async function withdrawalsView(ports: PanelWithdrawalPorts, session: PanelSession, query: WithdrawListQuery): Promise<WithdrawalsView> {
  const person = await actingPerson(ports, session, 'read');
  const [withdrawals, feeCents] = await Promise.all([ports.withdrawals.list(session.accountId, query), ports.feeCentsOf(session.accountId)]);
  return { withdrawals, mayWithdraw: mayAct(person.role, 'withdrawals.create'), feeCents };
}

/** One withdrawal of the session's account; unknown or another account's: 404, as the API answers. */
export async function withdrawalView(ports: PanelWithdrawalPorts, session: PanelSession, reference: string): Promise<Withdrawal> {
  await actingPerson(ports, session, 'read');
  const withdrawal = await ports.withdrawals.get(reference);
  if (!withdrawal || withdrawal.accountId !== session.accountId) throw new NotFoundError('Saque não encontrado.');
  return withdrawal;
}

/**
 * Who asks a withdrawal: a role that may (403 otherwise), with a fresh code of their authenticator,
 * used once (401 otherwise). A form posted twice with one code gets one withdrawal: the second post
 * finds the code used. Nothing is reserved before this passes.
 */
export async function authorizeWithdrawal(
  ports: PanelWithdrawalPorts,
  input: { session: PanelSession; code: string; ip: string; now: Date },
): Promise<PanelPerson> {
  const person = await actingPerson(ports, input.session, 'withdrawals.create');
  await stepUp(ports, person, input);
  return person;
}

export type PanelWithdrawalRequest = { amountCents: number; pixkey: string; keytype: KeyType; description?: string; ip: string; now: Date };

/**
 * The withdrawal of an authorized person: POST /api/pixout/create's use case (amount + fee held only if
 * the available balance covers them: 400 otherwise, nothing changed), with the audit entry in the same
 * transaction. The bank is asked after the commit, by the payout worker, as for the API's.
 */
export async function requestWithdrawalInPanel(
  ports: PanelWithdrawalPorts,
  person: PanelPerson,
  request: PanelWithdrawalRequest,
): Promise<{ answer: Withdrawal; changes: Change[] }> {
  const { answer, changes } = await reserveWithdrawal(ports, {
    accountId: person.accountId,
    feeCents: await ports.feeCentsOf(person.accountId),
    amountCents: request.amountCents,
    pixkey: request.pixkey,
    keytype: request.keytype,
    ...(request.description !== undefined ? { description: request.description } : {}),
    bank: ports.bank,
    reference: ports.newReference(),
    now: request.now,
  });
  const detail = `saque ${answer.reference} de R$ ${formatCents(answer.amountCents)} para a chave ${request.keytype}`;
  return { answer, changes: [...changes, auditedChange(ports, person, 'withdrawal.requested', detail, request.ip, request.now)] };
}
