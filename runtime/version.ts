import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** grove's version, from its package.json (one folder up in a checkout, two in the compiled package). */
export function version(): string {
  for (const dir of [join(__dirname, '..'), join(__dirname, '..', '..')]) {
    try {
      return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      // compiled layout: one level deeper
    }
  }
  return 'unknown';
}
