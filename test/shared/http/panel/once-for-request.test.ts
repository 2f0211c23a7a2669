import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { onceForRequest } from '../../../../shared/http/panel/once-for-request';

const event = () => ({ rawPath: '/panel/saques' }) as APIGatewayProxyEventV2;

describe('a step run once for a request', () => {
  it('runs once however many times the route runs, and again for another request', async () => {
    let runs = 0;
    const step = async () => (runs += 1);
    const first = event();
    expect(await onceForRequest(first, step)).toBe(1);
    expect(await onceForRequest(first, step)).toBe(1);
    expect(await onceForRequest(event(), step)).toBe(2);
    expect(runs).toBe(2);
  });

  it('gives a refusal to every run of the request, without running the step again', async () => {
    let runs = 0;
    const refused = event();
    const step = async () => {
      runs += 1;
      throw new Error('wrong code');
    };
    await expect(onceForRequest(refused, step)).rejects.toThrow('wrong code');
    await expect(onceForRequest(refused, step)).rejects.toThrow('wrong code');
    expect(runs).toBe(1);
  });
});
