import { agentAdapter } from './agent-adapter';
import { airetryAdapter } from './airetry-adapter';
import { codeFixerAdapter } from './code-fixer-adapter';
import { generateAdapter } from './generate-adapter';
import { sessionAdapter } from './session-adapter';
import type { RunAdapter } from './run-adapter';

/** Every kind of run the viewer can draw; the first adapter that matches a run's kind (its GroveKind, read by `canonicalKind`) draws it. */
export const ADAPTERS: readonly RunAdapter[] = [agentAdapter, airetryAdapter, codeFixerAdapter, sessionAdapter, generateAdapter];

/**
 * The adapter that draws runs of `kind`, if any.
 *
 * @example
 * adapterFor('agent:mcts'); // agentAdapter
 */
export function adapterFor(kind: string): RunAdapter | undefined {
  return ADAPTERS.find((a) => a.matches(kind));
}

export type { RunAdapter, RunReader, RunSnapshot, StoreReader } from './run-adapter';
