import { Logger } from '@aws-lambda-powertools/logger';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addLogKeys, endInvocation, logger, startInvocation, withLogKeys } from '../../../shared/platform/logger';

/** What this process writes to stdout and to stderr from now until `stop`, apart. */
function captureStreams(): { stdout: () => string; stderr: () => string; stop: () => void } {
  const chunks: Record<'stdout' | 'stderr', string[]> = { stdout: [], stderr: [] };
  const restores = (['stdout', 'stderr'] as const).map((name) => {
    const stream = process[name];
    const original = stream.write;
    stream.write = function (this: NodeJS.WriteStream, ...args: unknown[]) {
      const [chunk] = args;
      chunks[name].push(typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : '');
      return (original as (...a: unknown[]) => boolean).apply(this, args);
    } as typeof stream.write;
    return () => {
      stream.write = original;
    };
  });
  return { stdout: () => chunks.stdout.join(''), stderr: () => chunks.stderr.join(''), stop: () => restores.forEach((restore) => restore()) };
}

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{"level"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

let output: ReturnType<typeof captureStreams>;
const traceId = process.env._X_AMZN_TRACE_ID;
beforeEach(() => {
  process.env._X_AMZN_TRACE_ID = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1';
  output = captureStreams();
});
afterEach(() => {
  output.stop();
  if (traceId === undefined) delete process.env._X_AMZN_TRACE_ID;
  else process.env._X_AMZN_TRACE_ID = traceId;
  endInvocation();
});

describe('the logger: Powertools Logger with the lines of before', () => {
  it('is a Powertools Logger', () => {
    expect(logger).toBeInstanceOf(Logger);
  });

  it('prints every level on stdout, one JSON line each, in the layout the logs and their readers know', () => {
    startInvocation(
      { awsRequestId: 'lambda-req-1', functionName: 'CreatePixCharge', invokedFunctionArn: 'arn:aws:lambda:::function:x', memoryLimitInMB: '512' },
      { route: 'CreatePixCharge', requestId: 'apigw-req-1', reference: '' },
      () => ({ accountId: 'acct_1' }),
    );
    addLogKeys({ reference: 'INV-1' });
    logger.info('request', { status: 200, ms: 12, note: null });
    withLogKeys({ messageId: 'msg-1', reference: 'INV-2' }, () => logger.warn('scoped', { reference: 'INV-3' }));
    logger.error('failed', Object.assign(new Error('boom'), { kind: 'conflict', Item: { secret: 'x' } }));
    expect(output.stderr()).toBe('');
    const [request, scoped, failed, ...rest] = jsonLines(output.stdout());
    expect(rest).toEqual([]);
    expect(Object.keys(request ?? {})).toEqual([
      'level',
      'message',
      'timestamp',
      'service',
      'cold_start',
      'function_name',
      'function_request_id',
      'function_arn',
      'function_memory_size',
      'sampling_rate',
      'xray_trace_id',
      'accountId',
      'route',
      'requestId',
      'reference',
      'status',
      'ms',
      'note',
    ]);
    expect(request).toMatchObject({
      level: 'INFO',
      message: 'request',
      service: 'payment-gateway',
      // Outside Lambda (no AWS_LAMBDA_INITIALIZATION_TYPE) never a cold start.
      cold_start: false,
      function_name: 'CreatePixCharge',
      function_request_id: 'lambda-req-1',
      function_memory_size: '512',
      sampling_rate: 0,
      xray_trace_id: '1-5759e988-bd862e3fe1be46a994272793',
      reference: 'INV-1',
      note: null,
    });
    expect(request?.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // The scope's keys over the invocation's, the call's over both.
    expect(scoped).toMatchObject({ level: 'WARN', messageId: 'msg-1', reference: 'INV-3', accountId: 'acct_1' });
    expect(failed?.level).toBe('ERROR');
    expect(Object.keys(failed?.error as object).sort()).toEqual(['kind', 'message', 'name', 'stack']);
  });

  it('drops the invocation keys at its end and keeps the context until the next one replaces it', () => {
    startInvocation({ awsRequestId: 'lambda-req-2', functionName: 'Sweep' }, { worker: 'sweep' });
    endInvocation();
    logger.info('between');
    startInvocation(undefined);
    logger.info('next');
    const [between, next] = jsonLines(output.stdout());
    expect(between).toMatchObject({ function_request_id: 'lambda-req-2' });
    expect(between).not.toHaveProperty('worker');
    expect(next).not.toHaveProperty('function_request_id');
  });

  it('prints what JSON cannot (a bigint) and still cuts card numbers out', () => {
    logger.info('figures', { big: 10n, text: 'card 4111 1111 1111 1111' });
    const [line] = jsonLines(output.stdout());
    expect(line).toMatchObject({ big: '10', text: 'card [redacted]' });
  });
});
