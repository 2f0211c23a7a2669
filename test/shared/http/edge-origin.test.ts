import { describe, expect, it } from 'vitest';
import { DomainError, OutsideEdgeError } from '../../../shared/domain/errors';
import { EDGE_CLIENT_IP_HEADER, EDGE_ORIGIN_HEADER, edgeClientAddress } from '../../../shared/http/edge-origin';
import { toErrorAnswer } from '../../../shared/http/errors';

const SECRET = 'o'.repeat(64);

function refusalOf(run: () => unknown): DomainError {
  try {
    run();
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('the origin check behind the edge', () => {
  it("without an edge (local runs), API Gateway's source address counts and edge headers are ignored", () => {
    expect(edgeClientAddress({ [EDGE_CLIENT_IP_HEADER]: '10.9.9.9' }, '127.0.0.5', undefined)).toBe('127.0.0.5');
  });

  it("behind the edge, a request carrying the origin secret counts the viewer's address the edge wrote", () => {
    expect(edgeClientAddress({ [EDGE_ORIGIN_HEADER]: SECRET, [EDGE_CLIENT_IP_HEADER]: '198.51.100.23' }, '130.176.0.1', SECRET)).toBe('198.51.100.23');
  });

  it('behind the edge, a request without the secret, or with another one, is refused 403 naming neither header nor secret', () => {
    for (const headers of [{}, { [EDGE_ORIGIN_HEADER]: 'x'.repeat(64) }, { [EDGE_ORIGIN_HEADER]: SECRET.slice(1) }, { [EDGE_ORIGIN_HEADER]: '' }]) {
      const error = refusalOf(() => edgeClientAddress({ ...headers, [EDGE_CLIENT_IP_HEADER]: '10.0.0.1' }, '203.0.113.9', SECRET));
      expect(error).toBeInstanceOf(OutsideEdgeError);
      const answer = toErrorAnswer(error);
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ error: 'Call the API at its public address', code: 'forbidden' });
      expect(JSON.stringify(answer.body)).not.toContain(SECRET);
    }
  });
});
