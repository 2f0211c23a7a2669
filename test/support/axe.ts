import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
/** axe-core's browser build, injected through the DevTools protocol (the pages' CSP allows no script of their own). */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export type AxeFinding = { id: string; impact: string; help: string; targets: string[] };

/** The serious and critical violations axe-core finds on the page as it stands (WCAG 2.x A and AA rules, and best practices). */
export async function seriousAxeViolations(page: Page): Promise<AxeFinding[]> {
  await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] };
    const scope = globalThis as unknown as { axe: { run: (context: unknown, options: object) => Promise<Result> }; document: unknown };
    const result = await scope.axe.run(scope.document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? 'unknown',
      help: v.help,
      targets: v.nodes.map((n) => n.target.map(String).join(' ')),
    }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
