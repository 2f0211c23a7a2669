import type { PipelineMiddleware } from '../state';

/**
 * The innermost step, so its error handling runs first: a storage failure that is no domain error yet
 * (a throttled table) becomes the domain error it means (503 temporary_conflict, retry with the same
 * key) through the commit port, before any step reads the error (persist frees the key, observe answers).
 */
export function storageErrors(): PipelineMiddleware {
  return {
    onError: (request) => {
      const state = request.context.state;
      if (!state) return;
      const translated = state.ports.committer.asDomainError(request.error);
      if (translated instanceof Error) request.error = translated;
    },
  };
}
