/** The cold-start section of bench/reports/latest.md. */
import type { InputShare } from './analysis';
import type { ColdStartReport, ColdStartRow } from './types';

function fmt(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

function result(r: ColdStartRow): string {
  if (r.kind === 'reference') return '—';
  const text = r.verdict.pass ? 'PASS' : 'FAIL';
  return r.targeted ? `**${text}**` : `(${text})`;
}

function check(pass: boolean): string {
  return pass ? 'ok' : 'over';
}

function functionLine(r: ColdStartRow): string {
  const t = r.importMs;
  const size = r.kind === 'reference' ? '' : check(r.verdict.sizePass);
  const time = r.kind === 'reference' ? '' : check(r.verdict.importPass);
  const label = r.error ? `${r.label} ⚠ ${r.error}` : r.label;
  return `| ${label} | ${r.kind} | ${fmt(r.kb)} | ${fmt(r.mapKb)} | ${fmt(t.median)} | ${fmt(t.min)}–${fmt(t.max)} | ${fmt(r.ratioToFloor, 2)} | ${size} | ${time} | ${result(r)} |`;
}

function sharesTable(title: string, shares: readonly InputShare[]): string[] {
  return [`| ${title} | KB | Share |`, '|---|---:|---:|', ...shares.map((s) => `| \`${s.path}\` | ${fmt(s.bytes / 1024)} | ${fmt(s.share * 100)} % |`)];
}

export function coldStartMarkdown(report: ColdStartReport): string {
  const t = report.targets;
  const api = report.functions.filter((r) => r.targeted);
  const lines: string[] = [];
  lines.push('## Cold start: bundle size and import time per function');
  lines.push('');
  lines.push(
    `${report.generatedAt} · each bundle imported ${report.runs} times in a fresh Node ${report.node} process (\`await import()\` timed inside the child), all bundles interleaved in a shuffled order per round · esbuild ${report.esbuild} with the CDK's settings (ESM, minify, target node22, platform node, main fields module,main, the require banner, nothing external but the beside modules, source map) · ${report.cpus} CPUs, load average ${fmt(report.loadAverage.before, 2)} before and ${fmt(report.loadAverage.after, 2)} after · ${report.durationSeconds} s`,
  );
  lines.push('');
  lines.push(
    `Targets (issue 13, raised by issue 44), for every deployed function (the routes, the fallback, the edge authorizer and the workers; no exceptions): bundle ≤ ${t.maxKb} KB (1 KB = ${t.bytesPerKb.toLocaleString('en-US')} bytes; the index.mjs each function imports at its cold start, its map apart) and import median ≤ ${t.maxRatioToFloor} × the floor's, measured in this run: ${fmt(t.floorMedianMs)} ms, so ≤ ${fmt(t.importLimitMs)} ms. Imports run without NODE_OPTIONS; the source-map flag is measured apart below.`,
  );
  if (report.floorAsDeployed) {
    lines.push('');
    lines.push(
      `The floor is the DynamoDB document client bundled with the SDK's defaults (its whole default credential chain). The stack bundles every function with the chain reduced to the environment, where Lambda puts the role's credentials (infra/cdk/bundling.ts): the floor's module bundled that way is ${fmt(report.floorAsDeployed.kb)} KB and imports in ${fmt(report.floorAsDeployed.importMs.median)} ms (${fmt(report.floorAsDeployed.ratioToFloor, 2)} × the floor), shown for information; the targets use the floor.`,
    );
  }
  lines.push('');
  lines.push('| Function | Kind | Bundle KB | Map KB | Import median ms | min–max ms | × floor | Size | Import | Result |');
  lines.push('|---|---|---:|---:|---:|---:|---:|---|---|---|');
  const references = [report.floor, ...(report.floorAsDeployed ? [report.floorAsDeployed] : []), report.empty];
  for (const r of [...references, ...report.functions]) lines.push(functionLine(r));
  lines.push('');
  const failing = api.filter((r) => !r.verdict.pass);
  lines.push(
    failing.length === 0
      ? `**All ${api.length} functions PASS.**`
      : `**${failing.length} of ${api.length} functions FAIL**: ${failing.map((r) => `${r.id} (${fmt(r.kb, 0)} KB, ${fmt(r.ratioToFloor, 2)}×)`).join(', ')}.`,
  );
  if (report.beside && report.beside.length > 0) {
    lines.push('');
    lines.push('### Beside the bundles: modules loaded only when needed (infra/cdk/bundling.ts, BESIDE_BUNDLE_MODULES)');
    lines.push('');
    lines.push(
      'Each is built into its own file next to index.mjs in the asset of the functions whose bundle imports it, and imported the first time it is needed, never at a cold start (the imports above run without these files). They are not part of a function\'s bundle or its budget (docs/decisions.md, "Issue 44: every bundle within 512 KB").',
    );
    lines.push('');
    lines.push('| File | Module | KB | Functions |');
    lines.push('|---|---|---:|---|');
    for (const b of report.beside) lines.push(`| ${b.file} | \`${b.entry}\` | ${fmt(b.kb)} | ${b.functions.length}: ${b.functions.join(', ')} |`);
  }
  lines.push('');
  lines.push('### Source maps: NODE_OPTIONS=--enable-source-maps (no longer set by the stack) against none');
  lines.push('');
  lines.push('| Function | Bundle KB | Map KB | Without: median ms | With: median ms | Added ms | With / without | × floor, both with the flag |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const s of report.sourceMaps) {
    lines.push(
      `| ${s.error ? `${s.label} ⚠ ${s.error}` : s.label} | ${fmt(s.kb)} | ${fmt(s.mapKb)} | ${fmt(s.without.median)} | ${fmt(s.with.median)} | ${fmt(s.addedMs)} | ${fmt(s.withToWithout, 2)} | ${fmt(s.ratioToFloorWith, 2)} |`,
    );
  }
  lines.push('');
  lines.push('### What the biggest bundles hold (esbuild metafile: bytes each input leaves in the minified output)');
  lines.push('');
  lines.push('The three biggest bundles, then the API function of median size (what most functions hold).');
  for (const [i, b] of report.biggest.entries()) {
    lines.push('');
    lines.push(`#### ${i === report.biggest.length - 1 && report.biggest.length > 3 ? 'Median size: ' : ''}${b.label} (${b.id}): ${fmt(b.kb)} KB`);
    lines.push('');
    lines.push(...sharesTable('Input', b.inputs));
    lines.push('');
    lines.push(...sharesTable('Package (inputs summed)', b.packages));
  }
  return `${lines.join('\n')}\n`;
}
