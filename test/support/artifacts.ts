import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** Where browser tests leave screenshots (git-ignored). */
export const ARTIFACTS = join(__dirname, '..', '..', '.grove', 'test-artifacts');

/** A path under .grove/test-artifacts/ (created; outside the test tree, so generated pages are never read as tests). */
export function artifact(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, name);
}
