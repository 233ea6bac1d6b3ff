import { condition, defineQuery, defineSignal, setHandler } from '@temporalio/workflow';
import type { AgentNode } from '../../core/agents/agent-node';
import type { AgentInput } from '../../core/agents/agent-options';
import { seededRandom, type RandomSource } from '../../core/random';
import { SampleTree } from '../../core/tree/sample-tree';
import { reportRun } from '../../workflows/lib/run-status';

export const growSignal = defineSignal<[number]>('grow');
export const finishSignal = defineSignal('finish');

/**
 * Benchmark-only: a run that looks like a search agent to the viewer (GroveKind `agent:mcts`,
 * the `tree` and `progress` queries) and holds a search-shaped tree of `nodes` nodes — refs,
 * previews, evaluator reasoning, scores, visits — grown by `grow` signals, so the viewer's load
 * and update times can be measured at 1,000 and 10,000 nodes without running a search that
 * long. It ends on `finish`. Like a real long search, which hands over (continue-as-new) every
 * few hundred nodes and drops the reasoning and previews of older nodes off the best path,
 * only the latest {@link FULL_NODES} nodes keep them.
 */
export async function viewerTree(input: AgentInput, opts: { nodes: number; seed: number }): Promise<{ nodes: number }> {
  reportRun({ kind: 'agent:mcts', status: 'running' });
  const rng = seededRandom(opts.seed);
  const tree = SampleTree.create<AgentNode>({ ref: hex(rng), preview: 'prompt' });
  grow(tree, opts.nodes - 1, rng);
  let finished = false;
  setHandler(growSignal, (count) => grow(tree, count, rng));
  setHandler(finishSignal, () => void (finished = true));
  setHandler(defineQuery('tree'), () => tree.toJSON());
  setHandler(defineQuery('progress'), () => ({ algorithm: input.algorithm, nodes: tree.size, counters: { llmCalls: tree.size }, reflections: [] }));
  await condition(() => finished);
  return { nodes: tree.size };
}

/** Nodes that keep their preview and reasoning (a real 10,000-node search hands over about every 500). */
export const FULL_NODES = 500;

/** Adds nodes under random earlier nodes (half the time a recent one, so branches go deep), with backpropagated rewards. */
function grow(tree: SampleTree<AgentNode>, count: number, rng: RandomSource): void {
  for (let i = 0; i < count; i++) {
    const size = tree.nextId;
    const span = rng.random() < 0.5 ? Math.min(size, 20) : size;
    const parent = size - 1 - Math.floor(rng.random() * span);
    const a = (rng.random() * 10000).toFixed(3);
    const node = tree.expand(parent, {
      ref: hex(rng),
      preview: rng.random() < 0.2 ? `final_answer({"answer":"${a}"})` : `multiply({"a":${a},"b":8.11})`,
      reasoning: `Correct so far: ${a}. Missing: y, xy, x2, result, final answer. The next step multiplies again.`,
      output: rng.random() < 0.2 || undefined,
    });
    const score = Math.round(rng.random() * 1e4) / 1e4;
    tree.setScore(node.id, score);
    tree.backpropagate(node.id, { value: score });
    const old = tree.findNode(node.id - FULL_NODES);
    if (old && old.parent !== null) {
      const { reasoning: _r, preview: _p, ref, ...rest } = old.data;
      tree.setData(old.id, old.data.output ? rest : { ...rest, ref });
    }
  }
}

function hex(rng: RandomSource): string {
  let out = '';
  while (out.length < 32) out += Math.floor(rng.random() * 0x100000000).toString(16).padStart(8, '0');
  return out.slice(0, 32);
}
