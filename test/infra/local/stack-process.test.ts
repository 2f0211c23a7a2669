import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { describe, expect, it } from 'vitest';
import { stack } from '../../support/api';
import { startLocalStackProcess } from '../../support/local-stack-process';

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

describe('npm start (the local stack)', () => {
  it("authenticates the demo account with the banner's curl line", async () => {
    const { public_key, secret_key } = stack().demo.created;
    const { stdout } = await promisify(execFile)('curl', ['-s', '-X', 'POST', '-u', `${public_key}:${secret_key}`, `${stack().baseUrl}/api/auth`]);
    const body = JSON.parse(stdout) as { success: { token: string; token_type: string } };
    expect(body.success.token_type).toBe('Bearer');
    const { stdout: balance } = await promisify(execFile)('curl', [
      '-s',
      '-H',
      `Authorization: Bearer ${body.success.token}`,
      `${stack().baseUrl}/api/balance`,
    ]);
    expect(JSON.parse(balance)).toEqual({ balance: { available: '0.00', reserved: '0.00', currency: 'BRL' } });
  });

  it('serves GetSecretValue on its loopback Secrets Manager endpoint through the real SDK client', async () => {
    const client = new SecretsManagerClient({
      region: 'us-east-1',
      endpoint: stack().secretsEndpoint,
      credentials: { accessKeyId: 'l', secretAccessKey: 'l' },
    });
    const out = await client.send(new GetSecretValueCommand({ SecretId: stack().masterKeySecretId }));
    expect(JSON.parse(out.SecretString ?? '{}')).toMatchObject({ masterKey: expect.stringMatching(/^[A-Za-z0-9_-]{32,}$/) });
    await expect(client.send(new GetSecretValueCommand({ SecretId: 'nope' }))).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });

  it('starts on the given ports and stops every child process (DynamoDB Local included)', async () => {
    const second = await startLocalStackProcess();
    const { port, dynamodbPort, sqsPort } = second.info;
    expect(second.info.baseUrl).toBe(`http://127.0.0.1:${port}`);
    expect(second.info.dynamodbEndpoint).toBe(`http://127.0.0.1:${dynamodbPort}`);
    expect(second.info.sqsEndpoint).toBe(`http://127.0.0.1:${sqsPort}`);
    expect(await portIsFree(dynamodbPort)).toBe(false);
    // Its own authenticator test clock, empty (the real clock) at the start, gone at the stop.
    expect(second.info.totpClockDir).not.toBe(stack().totpClockDir);
    expect(readdirSync(second.info.totpClockDir)).toEqual([]);
    await second.stop();
    expect(existsSync(second.info.totpClockDir)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await portIsFree(port)).toBe(true);
    expect(await portIsFree(dynamodbPort)).toBe(true);
    expect(await portIsFree(sqsPort)).toBe(true);
    const { stdout } = await promisify(execFile)('ps', ['-eo', 'args']);
    expect(stdout).not.toContain(`-port ${dynamodbPort}`);
  }, 60_000);
});
