import { ApplicationFailure } from '@temporalio/common';
import { entryKeys } from '../../core/fleet/registry';
import type { RegistryRead, RegistryReadInput } from '../../core/schemas/fleet';
import { RegistryFailure } from '../../core/failures';
import type { FleetState, Peer } from './worker-registry';
import type { RegistryEntry } from '../../core/fleet/registry';
import { ToolFailure } from '../../core/failures';
import { EvaluatorFailure } from '../../core/failures';

/**
 * The activities a run asks about its workers' registries.
 *
 * - `groveRegistry` reads this worker's registry for the names a run uses: its fingerprint, the
 *   entries of those names, and what it lacks. A run asks it first as a local activity (the
 *   worker that starts the run); when that worker lacks a name, it asks again as a regular
 *   activity with `require`, which fails *retryably* (`GroveRegistryMismatch`) on every worker
 *   that lacks one, so Temporal hands it on to the next worker until one that has them all
 *   answers — the run waits meanwhile, and its pending activity says which worker lacks what.
 * - `guardRegistry` wraps the tool and evaluator activities: an input that names the run's
 *   registry (`registry: <fingerprint>`) and lands on a worker with another one fails at once,
 *   non-retryably, before any code runs — carrying this worker's registry, so the run can say
 *   what differs and send the call to its own registry's queue instead (a fast step runs as a
 *   local activity on whichever worker holds the run).
 *
 * @example
 * const activities = { ...createRegistryActivities(fleet), ...guardRegistry(fleet, createToolActivities(...)) };
 */
export function createRegistryActivities(fleet: FleetState) {
  async function groveRegistry(input: RegistryReadInput): Promise<RegistryRead> {
    await fleet.settle();
    const wanted = entryKeys(input);
    const have = new Set(fleet.registry.entries.map((e) => `${e.kind} ${e.name}`));
    const missing = [...wanted].filter((k) => !have.has(k));
    const read: RegistryRead = {
      fingerprint: fleet.registry.fingerprint,
      worker: fleet.worker(),
      routed: fleet.routed,
      entries: fleet.registry.entries.filter((e) => wanted.has(`${e.kind} ${e.name}`)),
      missing,
    };
    if (missing.length > 0) await failUnlessServed(fleet, read);
    if (input.require && (missing.length > 0 || !fleet.routed)) {
      const why =
        missing.length > 0
          ? `lacks ${missing.join(', ')} (it serves ${fleet.registry.entries.map((e) => e.name).join(', ') || 'nothing'})`
          : 'serves them but polls no registry queue (it runs without GrovePlugin)';
      throw ApplicationFailure.create({
        message: `worker ${read.worker} (registry ${read.fingerprint}) ${why}: waiting for a worker on this task queue that serves them all`,
        type: RegistryFailure.Mismatch,
        details: [read],
      });
    }
    return read;
  }

  return { groveRegistry };
}

/**
 * Fails at once (non-retryably) when no worker on the queue can serve what this one lacks: every
 * other worker seen lately has a registry the store describes, and none serves all of it — a
 * misspelt tool, or one no worker registers. When some worker does, or might (one that polls
 * without a description, or that stopped within the last 90 s and may be restarting), the run
 * waits for it instead.
 */
async function failUnlessServed(fleet: FleetState, read: RegistryRead): Promise<void> {
  if (!fleet.peers) return;
  const peers = await fleet.peers().catch(() => undefined);
  if (!peers) return;
  const serves = (p: Peer) => !p.description || read.missing.every((k) => p.description!.entries.some((e) => `${e.kind} ${e.name}` === k));
  if (peers.some(serves)) return;
  const names = (entries: RegistryEntry[], kind: RegistryEntry['kind']) => entries.filter((e) => e.kind === kind).map((e) => e.name).join(', ') || 'none';
  const has = (worker: string, entries: RegistryEntry[]) => `worker ${worker} has tools ${names(entries, 'tool')}; evaluators ${names(entries, 'evaluator')}`;
  const tool = read.missing.find((k) => k.startsWith('tool '));
  throw ApplicationFailure.create({
    message: `unknown ${read.missing.join(', ')}: no worker on this task queue serves ${read.missing.length === 1 ? 'it' : 'them'} (${[has(read.worker, fleet.registry.entries), ...peers.map((p) => has(p.worker, p.description!.entries))].join(' · ')})`,
    type: tool ? ToolFailure.UnknownTool : EvaluatorFailure.Unknown,
    nonRetryable: true,
  });
}

/**
 * Each activity of `activities`, refusing — before it runs anything — an input whose `registry`
 * is not this worker's (see `createRegistryActivities`).
 */
export function guardRegistry<A extends Record<string, (input: any) => Promise<unknown>>>(fleet: FleetState, activities: A): A {
  const guarded: Record<string, (input: any) => Promise<unknown>> = {};
  for (const [name, fn] of Object.entries(activities)) {
    guarded[name] = async (input: { registry?: string } | undefined) => {
      const expected = input?.registry;
      if (expected !== undefined && expected !== (await fleet.settle()).fingerprint) {
        throw ApplicationFailure.create({
          message: `worker ${fleet.worker()} has registry ${fleet.registry.fingerprint}, not the run's ${expected}: ${name} did not run here`,
          type: RegistryFailure.Mismatch,
          nonRetryable: true,
          details: [{ fingerprint: fleet.registry.fingerprint, worker: fleet.worker(), routed: fleet.routed, entries: fleet.registry.entries, missing: [] } satisfies RegistryRead],
        });
      }
      return fn(input);
    };
  }
  return guarded as A;
}
