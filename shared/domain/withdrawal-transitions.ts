/** THE list of allowed withdraw state moves (spec 3): the bank concludes or refuses a PENDING withdraw. */
export type WithdrawStatus = 'PENDING' | 'PAID' | 'CANCELED';
export type WithdrawEventType = 'pixout.paid' | 'pixout.canceled';

export type WithdrawMove = { from: WithdrawStatus; to: WithdrawStatus; event: WithdrawEventType; refund: boolean };

export const WITHDRAW_MOVES: readonly WithdrawMove[] = [
  { from: 'PENDING', to: 'PAID', event: 'pixout.paid', refund: false },
  { from: 'PENDING', to: 'CANCELED', event: 'pixout.canceled', refund: true },
];

export function withdrawMove(from: WithdrawStatus, to: WithdrawStatus): WithdrawMove | undefined {
  return WITHDRAW_MOVES.find((move) => move.from === from && move.to === to);
}
