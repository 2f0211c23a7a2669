import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RAIL_LIMIT_CENTS } from '../../shared/domain/rail-limits';
import { formatCents } from '../../shared/domain/money';
import type { totalCeilings } from './generated/openapi';
import { GENERATED_TYPES_PATH, openApiTypesSource } from './openapi-types';

describe('test/support/generated/openapi.d.ts (the typed client of the walk-through test)', () => {
  it('is what openapi-typescript generates from the current document: regenerate with scripts/generate-openapi-types.ts when this fails', async () => {
    const fresh = await openApiTypesSource();
    const checkedIn = readFileSync(GENERATED_TYPES_PATH, 'utf8');
    // Compared as text, but reported by the first differing line, not as a 190 KB diff.
    const [a, b] = [fresh.split('\n'), checkedIn.split('\n')];
    const at = a.findIndex((line, i) => line !== b[i]);
    const first = at === -1 && a.length !== b.length ? Math.min(a.length, b.length) : at;
    expect(first === -1 ? 'up to date' : `stale from line ${first + 1}: generated ${JSON.stringify(a[first])}, checked in ${JSON.stringify(b[first])}`).toBe(
      'up to date',
    );
  }, 60_000);

  it('types every operation of the route table and every webhook event', async () => {
    const text = await openApiTypesSource();
    for (const id of ['AuthToken', 'CreatePixCharge', 'CreateWithdraw', 'GetCheckout', 'OpenApiDocument']) expect(text).toContain(`\n  ${id}: {`);
    const webhooks = text.slice(text.indexOf('export interface webhooks {'));
    for (const event of ["'invoice.paid'", "'pixout.canceled'", 'ping']) expect(webhooks).toContain(`\n  ${event}: {`);
  }, 60_000);

  it("exposes each charge operation's ceiling on the total to the typed client (totalCeilings, from x-total-ceiling)", () => {
    // Typed as the generated literals: the typecheck fails when the generated file says otherwise.
    // The three charge routes written by hand (a method's derived route has its ceiling from its row: its own test).
    const ceilings: { [id in 'CreatePixCharge' | 'CreateBoletoCharge' | 'CreateCardCharge']: totalCeilings[id]['max_total'] } = {
      CreatePixCharge: '9999999999.99',
      CreateBoletoCharge: '99999999.99',
      CreateCardCharge: '9999999999.99',
    };
    expect(ceilings).toEqual({
      CreatePixCharge: formatCents(RAIL_LIMIT_CENTS.pix),
      CreateBoletoCharge: formatCents(RAIL_LIMIT_CENTS.boleto),
      CreateCardCharge: formatCents(RAIL_LIMIT_CENTS.creditcard),
    });
  });
});
