import type { ConversationDelta } from '../../core/conversation/delta';
import { AiretryInputSchema, type AiretryResult } from '../../core/schemas/airetry-input';
import { messageText, type Message } from '../../core/schemas/messages';
import { SampleTree } from '../../core/tree/sample-tree';
import type { TreeNode } from '../../core/tree/tree-node';
import type { CallProgress } from '../../workflows/api/expose-call';
import type { NodeParts, NodeStatus, ViewNode } from '../model/view-tree';
import { facts, fixed, oneLine, type RunAdapter, type RunReader, type RunSnapshot } from './run-adapter';

/**
 * airetry runs (and workflows that `exposeCall` an AI call): the sample tree from the `tree`
 * query (live) or the result. Each sample holds the messages it added (feedback and answer), so
 * conversations come from the tree itself; a sample that failed a check carries its feedback.
 */
export const airetryAdapter: RunAdapter = {
  matches: (kind) => kind === 'airetry',

  async snapshot(reader: RunReader): Promise<RunSnapshot> {
    let result: AiretryResult | undefined;
    let progress: CallProgress | undefined;
    let raw: unknown;
    if (!reader.live) result = (await reader.result()) as AiretryResult | undefined;
    if (result?.tree) raw = result.tree;
    else [raw, progress] = (await Promise.all([reader.query('tree'), reader.query('progress')])) as [unknown, CallProgress];
    const tree = SampleTree.fromJSON<ConversationDelta>(raw);
    const activeId = result?.activeSampleId ?? progress?.activeSampleId ?? tree.rootId;
    const passed = result?.success ?? progress?.success;
    const status = (node: TreeNode<ConversationDelta>): NodeStatus => {
      if (node.parent === null) return 'root';
      if (node.success === false) return 'failed';
      if (node.id === activeId && passed === true && !reader.live) return 'solution';
      if (node.children.length > 0) return 'expanded';
      return reader.live ? 'open' : 'pruned';
    };
    const nodes: ViewNode[] = tree.preorder().sort((a, b) => a.id - b.id).map((node) => ({
      id: node.id,
      parent: node.parent,
      label: node.parent === null ? 'prompt' : sampleLabel(node.data),
      status: status(node),
      value: node.visits > 0 ? node.wins / node.visits : undefined,
      visits: node.visits,
    }));
    const input = AiretryInputSchema.safeParse(reader.input);
    const checks = input.success ? input.data.checks.map((c, i) => c.name ?? `${c.kind}#${i}`) : [];
    const outcomes = new Map((result?.checks ?? []).map((c) => [c.name, c.passed]));
    return {
      tree: { nodes, bestPath: tree.pathFromRoot(tree.has(activeId) ? activeId : tree.rootId).map((n) => n.id) },
      facts: facts([
        ['prompt', input.success && input.data.prompt ? oneLine(input.data.prompt, 200) : undefined],
        ['samples', tree.size - 1],
        ['calls', result?.calls ?? progress?.calls],
        ['retries', result?.retries ?? progress?.retries],
        ['active sample', activeId],
        ...checks.map((name): [string, string] => [`check ${name}`, outcomes.has(name) ? (outcomes.get(name) ? 'passed' : 'failed') : reader.live ? 'pending' : 'not reached']),
        ['output', result ? oneLine(typeof result.output === 'string' ? result.output : JSON.stringify(result.output), 200) : undefined],
        ['error', progress?.error?.message],
      ]),
      parts: async (ids) =>
        new Map(
          ids.map((id): [number, NodeParts] => {
            const node = tree.node(id);
            return [
              id,
              {
                facts: facts([
                  ['sample', id],
                  ['status', status(node)],
                  ['depth', node.depth],
                  ['passed / checked', node.visits > 0 ? `${node.wins}/${node.visits}` : undefined],
                  ['pass rate', node.visits > 0 ? fixed(node.wins / node.visits) : undefined],
                  ['active', id === activeId ? 'yes' : undefined],
                ]),
                feedback: node.feedback.trim() || undefined,
                delta: node.data,
              },
            ];
          }),
        ),
    };
  },
};

function sampleLabel(delta: ConversationDelta): string {
  const last: Message | undefined = delta.add[delta.add.length - 1];
  if (!last) return '(no answer)';
  const text = messageText(last) || (last.role === 'assistant' && last.tool_calls ? last.tool_calls.map((c) => `${c.function.name}(${c.function.arguments})`).join(', ') : '');
  return oneLine(JSON.stringify(oneLine(text, 60)), 62);
}
