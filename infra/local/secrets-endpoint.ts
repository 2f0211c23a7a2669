import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type SecretsEndpoint = { endpoint: string; stop: () => Promise<void> };

/**
 * A loopback stand-in for Secrets Manager: answers GetSecretValue (JSON 1.1 protocol, the call the
 * service makes) for the secrets it was given, so the real @aws-sdk/client-secrets-manager code runs
 * locally, and CreateSecret (an operator's step: e.g. the API Pix credentials of a test PSP). Any other
 * call, an unknown secret or a name already taken, gets the error shapes the SDK understands.
 */
export async function startSecretsEndpoint(secrets: Record<string, string>, port = 0): Promise<SecretsEndpoint> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify(body));
      };
      const target = req.headers['x-amz-target'];
      if (target !== 'secretsmanager.GetSecretValue' && target !== 'secretsmanager.CreateSecret') {
        return reply(400, { __type: 'InvalidRequestException', message: 'Only GetSecretValue and CreateSecret are served locally' });
      }
      let input: { SecretId?: unknown; Name?: unknown; SecretString?: unknown };
      try {
        input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof input;
      } catch {
        return reply(400, { __type: 'InvalidRequestException', message: 'Body is not JSON' });
      }
      if (target === 'secretsmanager.CreateSecret') {
        const name = typeof input.Name === 'string' ? input.Name : '';
        if (!/^[A-Za-z0-9/_+=.@-]{1,512}$/.test(name) || typeof input.SecretString !== 'string') {
          return reply(400, { __type: 'InvalidParameterException', message: 'CreateSecret needs a Name and a SecretString' });
        }
        if (Object.hasOwn(secrets, name)) return reply(400, { __type: 'ResourceExistsException', message: `The secret ${name} already exists.` });
        secrets[name] = input.SecretString;
        return reply(200, { ARN: `arn:aws:secretsmanager:us-east-1:000000000000:secret:${name}`, Name: name, VersionId: 'local' });
      }
      const secretId = String(input.SecretId ?? '');
      const value = Object.hasOwn(secrets, secretId) ? secrets[secretId] : undefined;
      if (value === undefined) return reply(400, { __type: 'ResourceNotFoundException', message: `Secrets Manager can't find the specified secret.` });
      return reply(200, {
        ARN: `arn:aws:secretsmanager:us-east-1:000000000000:secret:${secretId}`,
        Name: secretId,
        SecretString: value,
        VersionId: 'local',
        VersionStages: ['AWSCURRENT'],
        CreatedDate: 0,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${bound}`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
