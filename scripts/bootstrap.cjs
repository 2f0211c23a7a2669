#!/usr/bin/env node
// Entry point of every npm script. Runs on whatever Node the machine has (18+), then:
// 1. installs dependencies when node_modules is missing or older than package-lock.json;
// 2. finds Node 22+ (the machine's, or the node@22 binary installed from the npm registry);
// 3. finds Java 17+ where the task needs DynamoDB Local;
// 4. runs the task under Node 22.
'use strict';
const { spawnSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const task = process.argv[2];
const rest = process.argv.slice(3);

function fail(line) {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function isLink(file) {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

function ensureDependencies() {
  const lock = path.join(root, 'package-lock.json');
  const installed = path.join(root, 'node_modules', '.package-lock.json');
  const nodeBinary = path.join(root, 'node_modules', 'node', 'bin', 'node');
  if (mtime(installed) >= mtime(lock) && fs.existsSync(nodeBinary)) return;
  // A checkout whose node_modules is a link to another's install (a git worktree sharing it): npm ci would
  // empty the shared folder under every other user of it. Its own lock's time says nothing about that install.
  if (isLink(path.join(root, 'node_modules')) && fs.existsSync(nodeBinary)) return;
  process.stderr.write('Installing dependencies (npm ci)...\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) fail('npm ci failed: check the network access to the npm registry, then run the command again.');
}

function majorOf(versionText) {
  const match = /v?(\d+)\./.exec(versionText || '');
  return match ? Number(match[1]) : 0;
}

function findNode22() {
  if (majorOf(process.version) >= 22) return process.execPath;
  const local = path.join(root, 'node_modules', 'node', 'bin', 'node');
  if (fs.existsSync(local)) {
    const probe = spawnSync(local, ['-v'], { encoding: 'utf8' });
    if (probe.status === 0 && majorOf(probe.stdout) >= 22) return local;
  }
  return fail('Node 22 or newer is needed: `npm ci` installs it from the npm registry (package node@22), or install Node 22 and run again.');
}

function ensureJava() {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const text = `${probe.stderr || ''}${probe.stdout || ''}`;
  const match = /version "(\d+)/.exec(text);
  if (probe.error || !match || Number(match[1]) < 17) {
    fail('Java 17 or newer is needed for DynamoDB Local: on Debian/Ubuntu run `apt-get install -y openjdk-17-jre-headless`.');
  }
}

function run(node, args, options = {}) {
  return spawnSync(node, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...options.env } });
}

function runForeground(node, args) {
  const child = spawn(node, args, { cwd: root, stdio: 'inherit', env: process.env });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

function runTests(node) {
  const bin = (name) => path.join(root, 'node_modules', name);
  const stages = [
    ['typecheck', [bin('typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.json']],
    ['lint', [bin('eslint/bin/eslint.js'), '.', '--max-warnings=0']],
    // One formatter on the whole tree (.prettierrc.json; .prettierignore leaves out what is generated or not ours).
    ['format', [bin('prettier/bin/prettier.cjs'), '--check', '.', '--log-level', 'warn']],
  ];
  let failedStage = null;
  for (const [name, args] of stages) {
    process.stdout.write(`\n== ${name} ==\n`);
    const result = run(node, args);
    if (result.status !== 0) failedStage = failedStage || name;
  }
  const reportDir = path.join(root, '.local');
  fs.mkdirSync(reportDir, { recursive: true });
  const report = path.join(reportDir, 'vitest-report.json');
  fs.rmSync(report, { force: true });
  process.stdout.write('\n== unit, integration and CDK tests (vitest) ==\n');
  const vitest = run(node, [bin('vitest/vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...rest]);
  let summary = null;
  try {
    const data = JSON.parse(fs.readFileSync(report, 'utf8'));
    summary = {
      passed: data.numPassedTests,
      failed: data.numFailedTests + (data.numRuntimeErrorTestSuites || 0),
      skipped: data.numPendingTests + (data.numTodoTests || 0),
    };
  } catch {
    summary = null;
  }
  if (failedStage) process.stdout.write(`\n${failedStage} failed: see its output above.\n`);
  if (!summary) {
    process.stdout.write('\ntests: 0 passed, 1 failed\n');
    process.exit(1);
  }
  if (vitest.status !== 0 && summary.failed === 0) {
    // Every test passed but the run did not: an error outside the tests (the leak scan at teardown, a crashed worker).
    process.stdout.write('\nThe run failed outside the tests (e.g. the leak scan at teardown): see its output above.\n');
    summary.failed = 1;
  }
  const skipped = summary.skipped ? `, ${summary.skipped} skipped` : '';
  process.stdout.write(`\ntests: ${summary.passed} passed, ${summary.failed} failed${skipped}\n`);
  process.exit(failedStage || vitest.status !== 0 || summary.failed > 0 ? 1 : 0);
}

ensureDependencies();
const node = findNode22();
const tsx = ['--import', 'tsx'];
switch (task) {
  case 'start':
    ensureJava();
    runForeground(node, [...tsx, 'infra/local/main.ts', ...rest]);
    break;
  case 'test':
    ensureJava();
    runTests(node);
    break;
  case 'admin':
    runForeground(node, [...tsx, 'infra/admin/cli.ts', ...rest]);
    break;
  case 'bench':
    // The cold-start section bundles and imports code only: no DynamoDB Local, no Java.
    if (!rest.includes('--only=cold-start')) ensureJava();
    runForeground(node, [...tsx, 'bench/run.ts', ...rest]);
    break;
  case 'rehearse':
    // The deploy rehearsal on moto (needs Python 3 with moto; no Java, no AWS account).
    runForeground(node, [...tsx, 'scripts/rehearse-deploy.ts', ...rest]);
    break;
  default:
    fail(`unknown task "${task}": use start, test, admin, bench or rehearse`);
}
