/**
 * Installs Temporal's Python SDK into .grove/py for the test of the documented Python snippet
 * (the test installs it on first use too; CI does it up front so a failure has its own line):
 * `npx tsx scripts/install-python-client.ts`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { groveHome } from '../runtime/paths';

/** The Python SDK the documented snippet uses, pinned. */
export const TEMPORALIO_PACKAGE = 'temporalio==1.35.0';

/**
 * A project-local install of Temporal's Python SDK (`pip install --target .grove/py`), as `.ci/run`
 * makes it; installed here on first use when missing. Returns the `PYTHONPATH` to run with.
 *
 * @example
 * const pythonPath = ensurePythonTemporalio();
 * spawnSync('python3', ['examples/clients/start_run.py', ...], { env: { ...process.env, PYTHONPATH: pythonPath } });
 */
export function ensurePythonTemporalio(): string {
  const target = join(groveHome(), 'py');
  if (existsSync(join(target, 'temporalio'))) return target;
  const result = spawnSync(
    'python3',
    ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-warn-script-location', '--target', target, TEMPORALIO_PACKAGE],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`pip install ${TEMPORALIO_PACKAGE} --target ${target} failed: ${(result.stderr || result.stdout).trim().split('\n').pop()}`);
  return target;
}

if (require.main === module) console.log(`${TEMPORALIO_PACKAGE} for Python in ${ensurePythonTemporalio()}`);
