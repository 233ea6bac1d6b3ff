import { defineEvaluator } from '../../activities/evaluators';
import { sha256Hex } from '../../core/hash/sha256';
import { messageText } from '../../core/schemas/messages';
import type { ChatPolicy } from '../../model-server';

/**
 * Benchmark-only scripted pieces. `explorer` is an agent that always answers with `n`
 * different `multiply` calls (random operands), so a search tree grows `bFactor` children per
 * expansion without deduplication merging them; `hash-score` scores a trajectory by a hash of
 * its text (deterministic, never a solution), so growing a big tree costs no model calls.
 */
export const explorerPolicy: ChatPolicy = {
  name: 'explorer',
  description: 'Benchmark agent: n distinct multiply calls with random operands.',
  respond(_req, ctx) {
    return Array.from({ length: ctx.n }, (_, i) => {
      const rng = ctx.rng(i);
      const a = Math.round(rng() * 1e6) / 100;
      const b = Math.round(rng() * 1e6) / 100;
      return { toolCalls: [{ name: 'multiply', arguments: { a, b } }] };
    });
  },
};

export const hashScore = defineEvaluator({
  name: 'hash-score',
  run(trajectory) {
    const digest = sha256Hex(trajectory.map(messageText).join('\n'));
    return { score: (parseInt(digest.slice(0, 8), 16) / 0x100000000) * 0.95, reasoning: 'hash' };
  },
});

export const benchPolicies = [explorerPolicy];
export const benchEvaluators = [hashScore];
