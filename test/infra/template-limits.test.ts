import { describe, expect, it } from 'vitest';
import { Synthesized } from './synthesized';

/** CloudFormation's limits (../shared/notes/aws-limits.md): 500 resources and 200 outputs per stack. */
describe('the template stays within CloudFormation’s limits', () => {
  it('has fewer than 500 resources and 200 outputs, with and without a Pix PSP, with room to grow', () => {
    const psp = { apiPixBaseUrl: 'https://psp.example/api/v2', apiPixClientId: 'client', apiPixPixKey: 'pix@example.com', apiPixSecretName: 'payment-gateway/apipix' };
    for (const context of [{}, psp]) {
      const s = new Synthesized(context);
      const resources = Object.keys(s.resources).length;
      const outputs = Object.keys(s.json.Outputs ?? {}).length;
      expect(resources).toBeLessThan(450);
      expect(outputs).toBeLessThan(200);
    }
  }, 120_000);
});
