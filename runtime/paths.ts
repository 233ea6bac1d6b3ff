import { resolve } from 'node:path';

/**
 * grove's local state folder (Temporal CLI cache, dev-server database, message store).
 * `GROVE_HOME` overrides it; the default `.grove` in the current directory keeps a project's
 * runs next to the project and is git-ignored.
 */
export function groveHome(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.GROVE_HOME ?? '.grove');
}
