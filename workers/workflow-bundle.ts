import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { moduleFile } from '../runtime/paths';

/** The file every grove worker registers workflows from (its source in a checkout, compiled in the package). */
export const WORKFLOWS_PATH = moduleFile(join(__dirname, '..', 'workflows', 'index'));

/** The workflow interceptors of a worker that exports telemetry (`workflows/telemetry/tracing-interceptors.ts`). */
export const TRACING_INTERCEPTORS = moduleFile(join(__dirname, '..', 'workflows', 'telemetry', 'tracing-interceptors'));

/** The workflow bundle built with the package (`npm run build`), and what it was built with. */
export const PREBUILT_BUNDLE = join(__dirname, '..', 'workflow-bundle.js');
/** The same workflows with the tracing interceptors, for workers that export telemetry. */
export const PREBUILT_TRACED_BUNDLE = join(__dirname, '..', 'workflow-bundle-traced.js');
const PREBUILT_INFO = join(__dirname, '..', 'workflow-bundle.json');

export interface GroveBundleOptions {
  /** Your own workflows file (it should `export * from 'grove-agents/workflows'`); default grove's. */
  workflowsPath?: string;
  /**
   * Bundle grove's tracing interceptors too: the bundle of a worker that exports telemetry. A
   * worker without telemetry uses a bundle without them, so its workflows run no tracing code.
   */
  tracing?: boolean;
}

/**
 * The workflow code a grove worker runs: the bundle prebuilt with the package when it serves
 * grove's own workflows (no bundler, no 1–2 s at start), else a bundle of `workflowsPath` made
 * on the spot (your own workflows file, which should `export * from 'grove-agents/workflows'`).
 * The prebuilt bundle holds the Temporal workflow runtime it was built with, so it is only used
 * with the same `@temporalio/workflow` version.
 *
 * @example
 * await Worker.create({ workflowBundle: await groveWorkflowBundle(), ... });
 */
export async function groveWorkflowBundle(opts: GroveBundleOptions = {}): Promise<{ codePath: string } | WorkflowBundleWithSourceMap> {
  if (!opts.workflowsPath && prebuiltMatches(opts.tracing)) return { codePath: opts.tracing ? PREBUILT_TRACED_BUNDLE : PREBUILT_BUNDLE };
  return bundleGroveWorkflows(opts);
}

/** Whether the prebuilt bundle (or its traced twin) exists and was built with the installed `@temporalio/workflow`. */
export function prebuiltMatches(tracing = false): boolean {
  if (!existsSync(tracing ? PREBUILT_TRACED_BUNDLE : PREBUILT_BUNDLE) || !existsSync(PREBUILT_INFO)) return false;
  const built = JSON.parse(readFileSync(PREBUILT_INFO, 'utf8')) as { workflowSdk?: string };
  return built.workflowSdk === workflowSdkVersion();
}

/** The installed `@temporalio/workflow` version. */
export function workflowSdkVersion(): string {
  return (JSON.parse(readFileSync(require.resolve('@temporalio/workflow/package.json'), 'utf8')) as { version: string }).version;
}

/**
 * Bundles grove's workflows (1–2 s). Callers that start several workers (tests, benchmarks)
 * bundle once and pass `{ codePath }` to each worker instead.
 *
 * @example
 * const bundle = await bundleGroveWorkflows();
 * await Worker.create({ workflowBundle: bundle, ... });
 */
export async function bundleGroveWorkflows(opts: GroveBundleOptions = {}): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({
    workflowsPath: opts.workflowsPath ?? WORKFLOWS_PATH,
    ...(opts.tracing ? { workflowInterceptorModules: [TRACING_INTERCEPTORS] } : {}),
    logger: quietLogger,
  });
}

/** Bundles and writes the bundle to `path`, returning `{ codePath }` for `WorkerOptions.workflowBundle`. */
export async function writeWorkflowBundle(path: string, opts: GroveBundleOptions = {}): Promise<{ codePath: string }> {
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
