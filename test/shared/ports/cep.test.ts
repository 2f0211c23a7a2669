import { describe, expect, it } from 'vitest';
import { CepUnavailableError } from '../../../shared/ports/cep';

describe('CepUnavailableError', () => {
  it('is an Error named CepUnavailableError carrying the detail', () => {
    const err = new CepUnavailableError('timeout');
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('CepUnavailableError');
    expect(err.message).toContain('timeout');
  });
});
