import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type LocalIamPolicies, mailFromAddress, sourceDigest } from './policies';

/**
 * The synthesized policies of each function (bundling skipped), resolved to the local ARNs, cached
 * under .local/iam/ by a digest of infra/ and shared/ (synthesis costs 10 to 20 s; a cached file is
 * read in milliseconds). `mailFrom` is the local stack's sender, synthesized as the stack's `mailFrom`.
 */
export async function loadLocalIamPolicies(root: string, mailFrom: string | undefined): Promise<{ file: string; policies: LocalIamPolicies }> {
  const from = mailFromAddress(mailFrom);
  const dir = join(root, '.local', 'iam');
  const file = join(
    dir,
    `policies-${sourceDigest(root)}-${createHash('sha256')
      .update(from ?? '')
      .digest('hex')
      .slice(0, 8)}.json`,
  );
  if (existsSync(file)) return { file, policies: JSON.parse(readFileSync(file, 'utf8')) as LocalIamPolicies };
  const { synthesizeLocalIamPolicies } = await import('./synthesize');
  const policies = synthesizeLocalIamPolicies(from);
  mkdirSync(dir, { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify(policies));
  renameSync(partial, file);
  return { file, policies };
}
