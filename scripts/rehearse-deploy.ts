/**
 * The deploy rehearsal (issue 44): the README's deploy command, run against moto on this machine.
 *
 *   npm run rehearse                      (or: node_modules/node/bin/node --import tsx scripts/rehearse-deploy.ts)
 *   npm run rehearse -- --keep            keeps the temporary folder (cdk.out, moto's log) and prints it
 *
 * Starts moto (scripts/rehearsal/moto_server.py: moto_server plus the CloudFormation types moto lacks
 * that the templates reference) on a free loopback port, bootstraps its fake account, runs
 * `cdk deploy -c alarmEmail=… --parameters PaymentProvider=simulated` (synthesis with bundling and
 * cdk-nag, asset upload, change set), then prints every stack's status and exits 0 only when the
 * top-level stack and each of its nested stacks is CREATE_COMPLETE with every resource of its template
 * and moto never failed a request internally (the CLI retries a 500, which can hide a half-created stack).
 *
 * What it proves: the templates, nested stack parameters, references, outputs and assets are consistent
 * and moto's IAM accepts every policy document. What it does not: IAM evaluation, limits, behaviour;
 * alarms, API routes, the stage, queue and topic policies are not created by moto at all
 * (docs/decisions.md, "Issue 44: the deploy rehearsal on moto").
 *
 * It never reaches AWS: every AWS_* variable of the caller is dropped, the endpoint is the loopback
 * moto and the keys are moto's dummies.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { freePort } from '../infra/local/free-port';
import { CloudFormationClient, DescribeStacksCommand, ListStackResourcesCommand, type StackResourceSummary } from '@aws-sdk/client-cloudformation';

const root = join(import.meta.dirname, '..');
const ACCOUNT = '123456789012'; // moto's default account
const REGION = 'us-east-1';
/** The README's deploy command (section "Deploying to AWS"), made non-interactive. */
const DEPLOY_ARGS = ['deploy', '-c', 'alarmEmail=oncall@example.com', '--parameters', 'PaymentProvider=simulated', '--require-approval', 'never'];

interface StackReport {
  name: string;
  status: string;
  resources: number;
  missing: string[];
}

function fail(message: string): never {
  console.error(`rehearsal: ${message}`);
  process.exit(1);
}

/** Python 3 with moto, or a message that says how to get it. */
function checkMoto(): string {
  const probe = spawnSync('python3', ['-c', 'import moto, flask; print(moto.__version__)'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    fail(
      "the deploy rehearsal needs Python 3 with moto's server (the CI image has moto 5.2.1): " +
        "python3 -m pip install 'moto[server]==5.2.1'" +
        (probe.stderr ? `\n${probe.stderr.trim().split('\n').at(-1) ?? ''}` : ''),
    );
  }
  return probe.stdout.trim();
}

async function waitForMoto(url: string, moto: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (moto.exitCode !== null) fail(`moto exited with ${moto.exitCode} before answering: see ${logFile}\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
    try {
      const response = await fetch(`${url}/moto-api/`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  fail(`moto did not answer on ${url} within 30 s: see ${logFile}`);
}

/** The caller's environment without any AWS setting, pointed at moto. */
function rehearsalEnv(endpoint: string, workDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('AWS_') && !name.startsWith('CDK_')) env[name] = value;
  return {
    ...env,
    // cdk.json runs the app with `npx tsx`: the same Node 22 as this script.
    PATH: [dirname(process.execPath), env.PATH ?? ''].join(delimiter),
    AWS_ACCESS_KEY_ID: 'testing',
    AWS_SECRET_ACCESS_KEY: 'testing',
    AWS_REGION: REGION,
    AWS_DEFAULT_REGION: REGION,
    AWS_CONFIG_FILE: join(workDir, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(workDir, 'no-aws-credentials'),
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_ENDPOINT_URL: endpoint,
    // The template URL the CLI hands to CloudFormation: moto reads a bucket from the host only when it says localhost.
    AWS_ENDPOINT_URL_S3_FOR_CLOUDFORMATION: endpoint.replace('127.0.0.1', 'localhost'),
    CDK_DISABLE_CLI_TELEMETRY: '1',
  };
}

function runCdk(args: string[], env: NodeJS.ProcessEnv, logFile: string): void {
  const cdk = join(root, 'node_modules', 'aws-cdk', 'bin', 'cdk');
  console.log(`\n$ cdk ${args.join(' ')}`);
  const result = spawnSync(process.execPath, [cdk, ...args], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) fail(`cdk ${args[0]} failed (exit ${result.status ?? result.signal}); moto's log: ${logFile}`);
}

interface Template {
  Resources?: Record<string, { Type: string; Metadata?: Record<string, string> }>;
}

/** The top-level stacks of the synthesized assembly, with each one's template file. */
function assemblyStacks(outDir: string): { name: string; template: string }[] {
  const manifest = JSON.parse(readFileSync(join(outDir, 'manifest.json'), 'utf8')) as {
    artifacts: Record<string, { type: string; properties?: { templateFile?: string; stackName?: string } }>;
  };
  return Object.entries(manifest.artifacts)
    .filter(([, artifact]) => artifact.type === 'aws:cloudformation:stack')
    .map(([id, artifact]) => ({
      name: artifact.properties?.stackName ?? id,
      template: join(outDir, artifact.properties?.templateFile ?? `${id}.template.json`),
    }));
}

/** A nested stack's template file: the asset whose path CDK records on the AWS::CloudFormation::Stack resource. */
function nestedTemplateFile(outDir: string, template: Template, logicalId: string): string {
  const path = template.Resources?.[logicalId]?.Metadata?.['aws:asset:path'];
  if (!path) fail(`nested stack ${logicalId} has no aws:asset:path metadata`);
  return join(outDir, path);
}

async function listResources(client: CloudFormationClient, stackName: string): Promise<StackResourceSummary[]> {
  const all: StackResourceSummary[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new ListStackResourcesCommand({ StackName: stackName, NextToken: token }));
    all.push(...(page.StackResourceSummaries ?? []));
    token = page.NextToken;
  } while (token);
  return all;
}

/** Checks one stack and, recursively, its nested stacks; `skipped` counts the resources moto did not create, by type. */
async function checkStack(
  client: CloudFormationClient,
  outDir: string,
  stackName: string,
  label: string,
  templateFile: string,
  skipped: Map<string, number>,
): Promise<StackReport[]> {
  const template = JSON.parse(readFileSync(templateFile, 'utf8')) as Template;
  const described = await client.send(new DescribeStacksCommand({ StackName: stackName }));
  const status = described.Stacks?.[0]?.StackStatus ?? 'MISSING';
  const listed = await listResources(client, stackName);
  const byId = new Map(listed.filter((resource) => resource.LogicalResourceId).map((resource) => [resource.LogicalResourceId ?? '', resource]));
  // moto lists each resource of a type it has no model for as an entry with no id, "created": nothing behind it.
  const anonymous = listed.filter((resource) => !resource.LogicalResourceId && resource.ResourceStatus === 'CREATE_COMPLETE').length;
  const resources = Object.entries(template.Resources ?? {});
  const unlisted = resources.filter(([id]) => !byId.has(id));
  const failed = resources.filter(([id]) => byId.has(id) && byId.get(id)?.ResourceStatus !== 'CREATE_COMPLETE').map(([id]) => id);
  // Every unlisted resource must be one of those skipped entries; more unlisted than skipped means some were never created.
  const missing = unlisted.length === anonymous ? failed : [...failed, ...unlisted.map(([id]) => id)];
  if (unlisted.length === anonymous) for (const [, resource] of unlisted) skipped.set(resource.Type, (skipped.get(resource.Type) ?? 0) + 1);
  const reports: StackReport[] = [{ name: label, status, resources: resources.length, missing }];
  for (const [id, resource] of resources) {
    if (resource.Type !== 'AWS::CloudFormation::Stack') continue;
    const physical = byId.get(id)?.PhysicalResourceId;
    // The construct's name (ApiAccount, Workers...) from CDK's path metadata, else the logical id.
    const cdkPath = resource.Metadata?.['aws:cdk:path'];
    const nestedLabel = `${label}/${
      cdkPath
        ?.split('/')
        .at(-2)
        ?.replace(/\.NestedStack$/, '') ?? id
    }`;
    if (!physical) {
      reports.push({ name: nestedLabel, status: 'MISSING', resources: 0, missing: [id] });
      continue;
    }
    reports.push(...(await checkStack(client, outDir, physical, nestedLabel, nestedTemplateFile(outDir, template, id), skipped)));
  }
  return reports;
}

async function main(): Promise<void> {
  const started = Date.now();
  const keep = process.argv.includes('--keep');
  const motoVersion = checkMoto();
  const workDir = mkdtempSync(join(tmpdir(), 'rehearsal-'));
  const outDir = join(workDir, 'cdk.out');
  const logFile = join(workDir, 'moto.log');
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  // moto writes its log straight to the file: the cdk commands run synchronously, and a pipe nobody reads would fill and stall moto.
  const log = openSync(logFile, 'w');
  const moto = spawn('python3', [join(root, 'scripts', 'rehearsal', 'moto_server.py'), '-H', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', log, log] });
  const stop = (): void => {
    if (moto.exitCode === null) moto.kill('SIGTERM');
  };
  process.on('exit', stop);
  process.on('SIGINT', () => process.exit(130));
  process.on('SIGTERM', () => process.exit(143));
  console.log(`rehearsal: moto ${motoVersion} on ${endpoint} (work folder ${workDir})`);
  await waitForMoto(endpoint, moto, logFile);

  const env = rehearsalEnv(endpoint, workDir);
  // Bootstrap first: it synthesizes without bundling, into its own folder so the deploy's assembly is whole.
  runCdk(['bootstrap', `aws://${ACCOUNT}/${REGION}`, '-o', join(workDir, 'bootstrap.out'), '-c', 'nag=false'], env, logFile);
  runCdk([...DEPLOY_ARGS, '-o', outDir], env, logFile);

  const client = new CloudFormationClient({
    region: REGION,
    endpoint,
    credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' },
    maxAttempts: 1,
  });
  const reports: StackReport[] = [];
  const skipped = new Map<string, number>();
  for (const stack of assemblyStacks(outDir)) reports.push(...(await checkStack(client, outDir, stack.name, stack.name, stack.template, skipped)));
  const outputs = (await client.send(new DescribeStacksCommand({ StackName: assemblyStacks(outDir)[0]?.name }))).Stacks?.[0]?.Outputs ?? [];
  const motoLog = readFileSync(logFile, 'utf8');
  const internalErrors = motoLog.split('\n').filter((line) => /Traceback|" 500 -/.test(line)).length;

  console.log('\nrehearsal: final stack statuses');
  for (const report of reports) {
    const gaps = report.missing.length ? `  NOT CREATED: ${report.missing.join(', ')}` : '';
    console.log(`  ${report.status.padEnd(16)} ${String(report.resources).padStart(4)} resources  ${report.name}${gaps}`);
  }
  console.log(`rehearsal: outputs of the top-level stack: ${outputs.map((o) => `${o.OutputKey}=${o.OutputValue}`).join(', ') || 'none'}`);
  const skippedText = [...skipped.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([type, count]) => `${type} ×${count}`);
  console.log(`rehearsal: reported created by moto with nothing behind them (not checked): ${skippedText.join(', ') || 'none'}`);
  if (internalErrors) console.log(`rehearsal: moto failed ${internalErrors} request(s) internally: see ${logFile}`);
  const ok = internalErrors === 0 && reports.length > 0 && reports.every((report) => report.status === 'CREATE_COMPLETE' && report.missing.length === 0);
  console.log(`rehearsal: ${ok ? 'every stack CREATE_COMPLETE' : 'FAILED'} (${reports.length} stacks) in ${Math.round((Date.now() - started) / 1000)} s`);
  moto.kill('SIGTERM');
  closeSync(log);
  if (keep) console.log(`rehearsal: kept ${workDir}`);
  else rmSync(workDir, { recursive: true, force: true });
  process.exit(ok ? 0 : 1);
}

main().catch((error: unknown) => fail(error instanceof Error ? (error.stack ?? error.message) : String(error)));
