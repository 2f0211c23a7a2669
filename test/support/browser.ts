import { accessSync, constants, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from './local-stack-process';

/**
 * Headless Chromium for browser tests: the Debian package (`apt-get install -y chromium`, done by
 * .ci/run), driven by playwright-core, which downloads no browser of its own.
 */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/** The flags checked on this machine: no sandbox (Chromium refuses to start as root without it), no GPU, no calls home. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** The payer's phone (the checkout's narrowest supported width) and a desktop window. */
export const VIEWPORTS = {
  mobile: { width: 360, height: 740 },
  desktop: { width: 1280, height: 800 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

/** Where the browser lives: CHROMIUM_PATH when set, else the Debian package's binary. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.CHROMIUM_PATH?.trim();
  return fromEnv ? fromEnv : DEFAULT_CHROMIUM_PATH;
}

/** Fails (never skips) when the binary is absent, saying how to install it. */
function assertExecutable(path: string): void {
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new Error(
      `Chromium not found at ${path}: the browser tests need it. On Debian/Ubuntu run \`apt-get install -y chromium\` ` +
        '(bash .ci/run installs it), or set CHROMIUM_PATH to a Chromium binary.',
    );
  }
}

/** Starts headless Chromium; close it in afterAll. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = chromiumPath();
  assertExecutable(executablePath);
  return chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS], timeout: 30_000 });
}

export type SharedBrowser = { browser: () => Promise<Browser>; close: () => Promise<void> };

/**
 * One Chromium for a test file, started by the first test that asks for it. A launch failure (no
 * Chromium) then fails every test that needs the browser, instead of a failed beforeAll that vitest
 * reports as skipped tests. Call close() in afterAll.
 */
export function sharedBrowser(launch: () => Promise<Browser> = launchBrowser): SharedBrowser {
  let launched: Promise<Browser> | undefined;
  return {
    browser: () => (launched ??= launch()),
    close: async () => {
      const browser = await launched?.catch(() => undefined);
      await browser?.close();
    },
  };
}

/** The folder for screenshots of browser tests (ignored by git with the rest of .local/), created if missing. */
export function screenshotDir(): string {
  const dir = join(ROOT, '.local', 'test-output', 'screenshots');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Saves a full-page PNG of page as screenshotDir()/<name>.png and returns its path. Written under a
 * name of this process, then renamed: runs side by side never read each other's half-written file.
 */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) throw new Error(`screenshot name must be lowercase letters, digits and dashes: ${name}`);
  const finalPath = join(screenshotDir(), `${name}.png`);
  const partPath = join(screenshotDir(), `.${name}.${process.pid}.part.png`);
  await page.screenshot({ path: partPath, fullPage: true, type: 'png' });
  renameSync(partPath, finalPath);
  return finalPath;
}

export type PageOptions = { viewport?: ViewportName };

/**
 * Runs fn on a new page in a context of its own (no cookies or storage shared with other tests), at
 * the given viewport (mobile unless told), and closes the context whatever fn does.
 */
export async function withPage<T>(browser: Browser, fn: (page: Page) => Promise<T>, options: PageOptions = {}): Promise<T> {
  const context = await browser.newContext({ viewport: VIEWPORTS[options.viewport ?? 'mobile'] });
  try {
    return await fn(await context.newPage());
  } finally {
    await context.close();
  }
}
