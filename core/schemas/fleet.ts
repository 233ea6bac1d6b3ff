import { z } from 'zod';
import type { RegistryEntry } from '../fleet/registry';

/** `groveRegistry`: a worker's registry, for the tools and evaluators a run names. */
export interface RegistryReadInput {
  tools: string[];
  evaluators: string[];
  /** Fail retryably (`GroveRegistryMismatch`) unless this worker serves them all and polls its registry queue. */
  require?: boolean;
}

export interface RegistryRead {
  fingerprint: string;
  /** The worker that answered (its identity without the registry mark). */
  worker: string;
  /** Whether the worker polls its registry's task queue (a `GrovePlugin` worker that runs). */
  routed: boolean;
  /** Its entries for the names asked (all of them when it answers a mismatch). */
  entries: RegistryEntry[];
  /** `tool multiply`, `evaluator checker`: names it lacks. */
  missing: string[];
}

/**
 * The registry a run is bound to (on one task queue): its tools and evaluators run only on
 * workers with this fingerprint, on `queue` (`<base queue>@<fingerprint>`).
 */
export interface RunRegistry {
  fingerprint: string;
  /** The task queue the run would otherwise use for them. */
  base: string;
  /** Where they run: `<base>@<fingerprint>`. */
  queue: string;
  /** The worker whose registry the run took. */
  worker: string;
  /** Its entries for the names the run uses. */
  entries: RegistryEntry[];
}

/**
 * A run's `registry` field: the fingerprint of the registry its tools must come from (`grove
 * workers` lists them). Without it, a run uses the registry of the worker that starts it.
 */
export const RegistryPinSchema = z
  .string()
  .regex(/^[0-9a-f]{16}$/, 'a registry fingerprint is 16 hex characters, as `grove workers` prints it')
  .describe("Run the tools (and the evaluator served beside them) only on workers with this registry fingerprint (`grove workers` lists them); default: the registry of the worker that starts the run.");
