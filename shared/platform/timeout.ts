/**
 * Runs an outbound call under a hard time limit: past it the call counts as failed with the caller's
 * error. The abandoned call may still settle later; its outcome is ignored (callers only use this for
 * calls that are idempotent or whose late success is harmless).
 */
export async function withTimeout<T>(call: Promise<T>, timeoutMs: number, onTimeout: () => Error): Promise<T> {
  call.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(onTimeout()), timeoutMs);
  });
  try {
    return await Promise.race([call, expired]);
  } finally {
    clearTimeout(timer);
  }
}
