import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { reachable } from '../../support/reachable';

const ROOT = resolve(__dirname, '../../..');
const PASSWORDS = 'shared/adapters/crypto/password-hash.ts';
const POLICY = 'shared/domain/panel/password-policy.ts';
const STRENGTH = 'shared/domain/panel/password-strength.ts';

/** Every .ts file under a folder of the project, as a path from the root. */
function tsFilesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return tsFilesUnder(path);
    return entry.isFile() && entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the password hashing is bundled only where a password is checked or set (issue 26: every function within 450 KB)', () => {
  it('the money pages (withdrawals, invoices, statement) do not reach it', () => {
    const files = reachable('functions/panel/money.ts');
    expect(files.has('shared/wiring/panel.ts')).toBe(true);
    expect(files.has(PASSWORDS)).toBe(false);
  });

  it('the sign-in function reaches it (the check can fail)', () => {
    expect(reachable('functions/panel/access.ts').has(PASSWORDS)).toBe(true);
  });
});

describe('the password policy and its zxcvbn dictionaries are bundled only where a password is set (issue 43)', () => {
  it('only the password strength module imports zxcvbn, and only the policy imports that module', () => {
    const importers = ['functions', 'shared']
      .flatMap(tsFilesUnder)
      .filter((file) =>
        ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true).importedFiles.some(({ fileName }) => fileName.startsWith('@zxcvbn-ts/')),
      );
    expect(importers).toEqual([STRENGTH]);
    expect(
      ['functions', 'shared']
        .flatMap(tsFilesUnder)
        .filter((file) =>
          ts
            .preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true)
            .importedFiles.some(({ fileName }) => fileName === './password-strength' || fileName.endsWith('/password-strength')),
        ),
    ).toEqual([POLICY]);
  });

  it('of every function, only the door (enrollment, a new password) and the recovery (a reset) reach the policy', () => {
    const functions = tsFilesUnder('functions');
    expect(functions.length).toBeGreaterThan(50);
    expect(functions.filter((entry) => reachable(entry).has(POLICY))).toEqual(['functions/panel/access.ts', 'functions/panel/recovery.ts']);
  });
});
