import { GenerateInputSchema, type GenerateResult } from '../../core/generate/generate-input';
import { promptConversation } from '../../core/schemas/prompt-conversation';
import type { NodeParts, ViewNode } from '../model/view-tree';
import { messageLabel, promptLabel } from './labels';
import { facts, type RunAdapter, type RunReader, type RunSnapshot } from './run-adapter';
import { shorten } from '../../core/conversation/preview';

/**
 * `generate` runs: one model call, drawn as the smallest tree — the prompt and, once it came,
 * the answer — so a call looks like every other run (its conversation a click away). The run
 * keeps no tree of its own: the prompt comes from its input, the answer from its result.
 */
export const generateAdapter: RunAdapter = {
  matches: (kind) => kind === 'generate',

  async snapshot(reader: RunReader): Promise<RunSnapshot> {
    const result = reader.live ? undefined : ((await reader.result()) as GenerateResult | undefined);
    const input = GenerateInputSchema.safeParse(reader.input);
    const prompt = result ? result.conversation.slice(0, -1) : input.success ? promptConversation(input.data) : [];
    const nodes: ViewNode[] = [{ id: 0, parent: null, label: promptLabel(input.success ? input.data.prompt : undefined), status: 'root', visits: 0 }];
    if (result) nodes.push({ id: 1, parent: 0, label: messageLabel(result.message), status: 'solution', visits: 0 });
    const parts = new Map<number, NodeParts>([
      [0, { facts: facts([['node', 'the prompt']]), delta: { add: prompt } }],
      [1, { facts: facts([['node', 'the answer'], ['model', result?.model], ['tokens', result?.usage.totalTokens]]), delta: { add: result ? [result.message] : [] } }],
    ]);
    return {
      tree: { nodes, bestPath: nodes.map((n) => n.id) },
      note: result ? undefined : reader.live ? 'waiting for the model’s answer' : 'the call did not complete: it has no answer',
      facts: facts([
        ['prompt', input.success && input.data.prompt ? shorten(input.data.prompt, 200) : undefined],
        ['model', result?.model ?? (input.success ? input.data.model : undefined)],
        ['tokens', result?.usage.totalTokens],
        ['answer', result?.output ? shorten(result.output, 200) : undefined],
      ]),
      parts: async (ids) => new Map(ids.filter((id) => parts.has(id)).map((id) => [id, parts.get(id)!])),
    };
  },
};
