import { ActivityFailure, ApplicationFailure, TimeoutFailure, log, patched, proxyActivities, proxyLocalActivities, upsertMemo, workflowInfo } from '@temporalio/workflow';
import type { createRegistryActivities } from '../../activities/registry/registry-activities';
import { entryKeys, formatDifferences, registryDifferences, registryQueue } from '../../core/fleet/registry';
import { RegistryFailure } from '../../core/failures';
import { type RegistryRead, type RegistryReadInput, type RunRegistry } from '../../core/schemas/fleet';
import type { LlmSettings } from '../../core/schemas/llm-settings';
import { patchId } from '../patches';

/**
 * Patch id: a run binds to the registry of the worker that starts it, and sends its tools and
 * evaluators only to workers with that registry (`<queue>@<fingerprint>`). Runs recorded before
 * keep their tools on the task queue as they were.
 */
export const FLEET_REGISTRY = patchId('grove-fleet-registry');

type RegistryActivities = ReturnType<typeof createRegistryActivities>;

/** The run's bindings, by base task queue: module state is per workflow execution (as `runLedger`). */
const bindings = new Map<string, RunRegistry>();
const notes: string[] = [];

/** What a run names, grouped by the task queue that serves it (undefined: the run's own). */
export interface RegistryNeeds {
  queue?: string;
  tools: string[];
  evaluators: string[];
}

/**
 * Binds the run to a registry on each task queue that serves its tools or custom evaluator:
 * on the run's own queue, the registry of the worker that holds the run (asked by a local
 * activity); if that worker lacks something the run names, the first worker on the queue that
 * has it all (a regular activity that every lacking worker fails retryably — the run waits, and
 * its pending activity says who lacks what); on another queue (`toolTaskQueue`), the first
 * worker there that has it all. `pin` (the input's `registry`) binds the tools' queue to that
 * fingerprint instead, waiting for a worker that has it. A worker without `GrovePlugin` does not
 * route: the run then keeps the queue as it is. Runs recorded before the patch bind nothing.
 *
 * `binds` is `registryBinds()`, asked when the run starts.
 *
 * @example
 * const binds = registryBinds(); // first thing in the workflow
 * await bindRegistry([{ tools: ['multiply'], evaluators: [] }], llm, undefined, binds);
 */
export async function bindRegistry(needs: RegistryNeeds[], llm: LlmSettings, pin: string | undefined, binds: boolean): Promise<void> {
  if (!binds) return;
  const own = workflowInfo().taskQueue;
  // What each task queue serves, merged: a binding per queue.
  const byQueue = new Map<string, RegistryReadInput>();
  for (const need of needs) {
    const queue = need.queue ?? own;
    const known = byQueue.get(queue) ?? { tools: [], evaluators: [] };
    byQueue.set(queue, { tools: [...known.tools, ...need.tools], evaluators: [...known.evaluators, ...need.evaluators] });
  }
  for (const [base, input] of byQueue) {
    if (input.tools.length + input.evaluators.length === 0) continue;
    const pinned = pin !== undefined && input.tools.length > 0;
    let read: RegistryRead | undefined;
    if (base === own && !pinned) {
      read = await local.groveRegistry.executeWithOptions({ ...localOptions, summary: 'read this worker\'s registry' }, [input]);
      if (!read.routed) continue; // not a GrovePlugin worker: nothing routes, the queue stays as it is
      if (read.missing.length > 0) {
        const lacking = read;
        read = await requireRegistry(base, input, llm);
        note(`worker ${lacking.worker} (registry ${lacking.fingerprint}) lacks ${lacking.missing.join(', ')}: the run uses the registry of worker ${read.worker} (${read.fingerprint})`);
      }
    } else {
      read = await requireRegistry(pinned ? registryQueue(base, pin) : base, input, llm);
    }
    bindings.set(base, { fingerprint: read.fingerprint, base, queue: registryQueue(base, read.fingerprint), worker: read.worker, entries: read.entries });
  }
  showRegistry();
}

/**
 * Whether this run binds to a registry (`grove-fleet-registry`): asked first thing, before the
 * run awaits anything. Asked after a local activity instead, a replay can meet the marker in
 * another workflow task than the one that asks (a local activity's result may land in the next
 * task), which Temporal reports as nondeterminism.
 */
export function registryBinds(): boolean {
  return patched(FLEET_REGISTRY);
}

/** A run continued as new keeps the registry it was bound to. */
export function restoreRegistry(carried: RunRegistry[] | undefined): void {
  for (const binding of carried ?? []) bindings.set(binding.base, binding);
}

/** What a run hands to its next generation (continue-as-new). */
export function carriedRegistry(): RunRegistry[] | undefined {
  return bindings.size > 0 ? [...bindings.values()] : undefined;
}

/**
 * The run's binding for tools or evaluators served on `queue` (undefined: the run's own), or
 * undefined when the run is not bound there.
 */
export function registryFor(queue: string | undefined): RunRegistry | undefined {
  return bindings.get(queue ?? workflowInfo().taskQueue);
}

/** Where to schedule a call bound for `queue`: its registry's queue when the run is bound there, else `queue` itself. */
export function routedQueue(queue: string | undefined): string | undefined {
  return registryFor(queue)?.queue ?? queue;
}

/**
 * Whether `err` is a worker refusing a call because its registry is not the run's (a fast step
 * as a local activity on a worker with another registry). Reports it once — naming both workers
 * and what differs — and returns true, so the caller sends the call to the run's registry instead.
 */
export function isRegistryMismatch(err: unknown, binding: RunRegistry): boolean {
  const failure = err instanceof ActivityFailure ? err.cause : err;
  if (!(failure instanceof ApplicationFailure) || failure.type !== RegistryFailure.Mismatch) return false;
  const other = failure.details?.[0] as RegistryRead | undefined;
  if (other) {
    const names = new Set(binding.entries.map((e) => `${e.kind} ${e.name}`));
    const diffs = formatDifferences(registryDifferences(binding.entries, other.entries, names), `worker ${binding.worker}`, `worker ${other.worker}`);
    note(
      `worker ${other.worker} (registry ${other.fingerprint}) holds the run but differs from its registry ${binding.fingerprint} (worker ${binding.worker})${diffs ? `: ${diffs}` : ''}; ` +
        'its fast steps run on workers with the run\'s registry instead',
    );
  }
  return true;
}

/** A fleet problem the run saw, reported once: in the worker's log and the run's memo (`groveRegistry`). */
function note(text: string): void {
  if (notes.includes(text)) return;
  notes.push(text);
  log.warn(`grove: ${text}`);
  showRegistry();
}

function showRegistry(): void {
  if (bindings.size === 0 && notes.length === 0) return;
  upsertMemo({
    groveRegistry: {
      bound: [...bindings.values()].map((b) => ({ queue: b.queue, worker: b.worker, tools: b.entries.map((e) => `${e.kind} ${e.name} ${e.hash.slice(0, 8)}`) })),
      ...(notes.length ? { notes } : {}),
    },
  });
}

const localOptions = { startToCloseTimeout: 10_000, retry: { maximumAttempts: 3 } };
const local = proxyLocalActivities<RegistryActivities>(localOptions);

/**
 * Asks `queue` until a worker that serves all of `input` (and routes) answers, paced by the run's
 * retry settings, for at most the run's retry window; then the run fails, naming the queue, what
 * it needed and the last worker that lacked it.
 */
async function requireRegistry(queue: string, input: RegistryReadInput, llm: LlmSettings): Promise<RegistryRead> {
  const options = {
    taskQueue: queue,
    startToCloseTimeout: 30_000,
    scheduleToCloseTimeout: llm.retryWindowMs,
    retry: { initialInterval: llm.initialRetryMs, backoffCoefficient: 2, maximumInterval: llm.maxRetryIntervalMs },
  };
  const names = [...entryKeys(input)].join(', ');
  try {
    return await proxyActivities<RegistryActivities>(options).groveRegistry.executeWithOptions({ ...options, summary: `find a worker that serves ${names}` }, [{ ...input, require: true }]);
  } catch (err) {
    if (!(err instanceof ActivityFailure) || !(err.cause instanceof TimeoutFailure)) throw err;
    const last = err.cause.cause instanceof ApplicationFailure ? ` (last: ${err.cause.cause.message})` : ' (no worker polled it)';
    throw ApplicationFailure.create({
      message: `no worker on task queue "${queue}" that serves ${names} answered within ${Math.round(llm.retryWindowMs / 1000)} s (llm.retryWindowMs)${last}`,
      type: RegistryFailure.Mismatch,
      nonRetryable: true,
    });
  }
}
