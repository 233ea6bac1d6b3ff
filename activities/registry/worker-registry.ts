import { hostname } from 'node:os';
import { definitionHash, describeRegistry, type RegistryDescription, type RegistryEntry } from '../../core/fleet/registry';
import { defineEvaluator, type EvaluatorDefinition } from '../evaluators/define-evaluator';
import { type AnyToolDefinition, checkToolDefinition, toolSpec } from '../tools/define-tool';

/**
 * A worker's registry: every tool and evaluator it serves, as a run sees them. Computed from the
 * definitions the worker registers — whatever their source (`defineTool` in a module, grove's
 * built-ins, tools another source adds to the worker's list) — so two workers agree exactly when
 * the runs' models and searches cannot tell their tools apart and their authors say the code is
 * the same version. Code is not hashed: the same tool compiled twice (tsx and tsc) would differ.
 *
 * @example
 * describeWorkerRegistry([multiply, finalAnswer], [multiplicationChecker]).fingerprint // '3fa9c2d1e0b4a7f2'
 */
export function describeWorkerRegistry(tools: AnyToolDefinition[], evaluators: EvaluatorDefinition[]): RegistryDescription {
  // A definition that can never work fails here with its own message, before anything is hashed.
  tools.forEach(checkToolDefinition);
  evaluators.forEach(defineEvaluator);
  const entries: RegistryEntry[] = [
    ...tools.map((def): RegistryEntry => ({ kind: 'tool', name: def.name, hash: definitionHash({ spec: toolSpec(def), version: def.version ?? null }) })),
    ...evaluators.map((def): RegistryEntry => ({ kind: 'evaluator', name: def.name, hash: definitionHash({ fast: def.fast === true, version: def.version ?? null }) })),
  ];
  return describeRegistry(entries);
}

/**
 * What a worker knows of its place in a fleet: its registry, and — once a `GrovePlugin` worker
 * runs — its identity and whether it also polls its registry's task queue (`<queue>@<fingerprint>`).
 * Activities read it to answer a run's registry questions; a worker built without the plugin
 * (activities registered by hand) does not route, and runs it starts keep the task queue as is.
 */
export class FleetState {
  /** Set when the worker runs. */
  identity?: string;
  /** True once the worker polls its registry's task queue. */
  routed = false;
  /** The other workers on its task queue (seen lately), with their registries where the store has them; set when the worker runs. */
  peers?: () => Promise<Peer[]>;

  /** True once `registry` names every tool the worker serves (its MCP servers' too, once listed). */
  settled: boolean;

  /**
   * @param registry what the worker serves as far as is known without asking anything.
   * @param complete the whole registry, when part of it is known only once listed (a worker's
   *   MCP servers list their tools when they start); `settle()` asks it.
   */
  constructor(
    public registry: RegistryDescription,
    private readonly complete?: () => Promise<RegistryDescription>,
  ) {
    this.settled = complete === undefined;
  }

  /** Makes `registry` whole (lists what must be listed; a failed listing is tried again next time). */
  async settle(): Promise<RegistryDescription> {
    if (!this.settled && this.complete) {
      this.registry = await this.complete();
      this.settled = true;
    }
    return this.registry;
  }

  /** The worker's name as Temporal lists its pollers (without the registry mark). */
  worker(): string {
    return this.identity ?? `${process.pid}@${hostname()}`;
  }
}

/** Another worker on the same task queue, as a worker sees it. */
export interface Peer {
  worker: string;
  fingerprint?: string;
  description?: RegistryDescription;
}
