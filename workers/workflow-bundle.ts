import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The file every grove worker registers workflows from. */
export const WORKFLOWS_PATH = join(__dirname, '..', 'workflows', 'index.ts');

/**
 * Bundles grove's workflows (1–2 s). Callers that start several workers (tests, benchmarks)
 * bundle once and pass `{ codePath }` to each worker instead.
 *
 * @example
 * const bundle = await bundleGroveWorkflows();
 * await Worker.create({ workflowBundle: bundle, ... });
 */
export async function bundleGroveWorkflows(opts: { workflowsPath?: string } = {}): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({
    workflowsPath: opts.workflowsPath ?? WORKFLOWS_PATH,
    logger: quietLogger,
  });
}

/** Bundles and writes the bundle to `path`, returning `{ codePath }` for `WorkerOptions.workflowBundle`. */
export async function writeWorkflowBundle(path: string, opts: { workflowsPath?: string } = {}): Promise<{ codePath: string }> {
  const bundle = await bundleGroveWorkflows(opts);
  await writeFile(path, bundle.code);
  return { codePath: path };
}

const noop = () => {};
const quietLogger = {
  log: noop,
  trace: noop,
  debug: noop,
  info: noop,
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};
