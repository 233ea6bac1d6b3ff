import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * grove's local state folder (Temporal CLI cache, dev-server database, message store).
 * `GROVE_HOME` overrides it; the default `.grove` in the current directory keeps a project's
 * runs next to the project and is git-ignored.
 */
export function groveHome(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.GROVE_HOME ?? '.grove');
}

/**
 * A module of grove by path without extension: the `.ts` source in a checkout, the compiled
 * `.js` in the installed package (where the sources are not shipped).
 *
 * @example
 * moduleFile(join(__dirname, '..', 'workflows', 'index')) // …/workflows/index.ts or …/workflows/index.js
 */
export function moduleFile(pathWithoutExtension: string): string {
  const source = `${pathWithoutExtension}.ts`;
  return existsSync(source) ? source : `${pathWithoutExtension}.js`;
}

/** Whether this copy of grove runs from compiled JavaScript (the installed package, `dist/`). */
export const COMPILED = __filename.endsWith('.js');
