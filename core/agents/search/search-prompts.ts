import { shorten } from '../../conversation/preview';
import type { ChatParams, ToolDefinition } from '../../schemas/chat-params';
import { messageText, type AssistantMessage } from '../../schemas/messages';
import type { SearchEnv } from './search-ops';

/**
 * Default `max_tokens` of a candidate step (override with `apiKwargs.max_tokens`). Without a
 * ceiling a small model answered one step with ~1,000 words, paid for in every expansion.
 */
export const CANDIDATE_MAX_TOKENS = 512;

/**
 * The system prompt for expanding `nodeId`: with the latest reflections on failed attempts
 * (LATS), and the feedback people gave on the node and the steps before it (`feedback` and
 * `rewind` updates), which every later expansion below those steps sees.
 *
 * @example
 * const system = searchSystemPrompt(env, 4); // options.system, then reflections and feedback
 */
export function searchSystemPrompt({ state, options }: SearchEnv, nodeId?: number): string {
  let system = options.system;
  if (state.reflections.length > 0) {
    system += `\n\nReflections on earlier failed attempts (avoid repeating these mistakes):\n${state.reflections.map((r) => `- ${r}`).join('\n')}`;
  }
  const feedback = nodeId === undefined ? [] : state.tree.pathFromRoot(nodeId).filter((n) => n.feedback !== '');
  if (feedback.length > 0) {
    system += `\n\nFeedback from a person on the steps so far (follow it):\n${feedback.map((n) => `- ${n.feedback.replace(/\n/g, '\n- ')}`).join('\n')}`;
  }
  return system;
}

/**
 * The chat parameters of one expansion asking for `n` candidates, offering the tools in
 * `offered`: the run's `apiKwargs`, temperature 1 unless set, a step-sized `max_tokens`.
 *
 * @example
 * const params = candidateParams(env, ['multiply'], 3); // { n: 3, temperature: 1, max_tokens: 512, tools: [...] }
 */
export function candidateParams({ state, options }: SearchEnv, offered: string[], n: number): ChatParams {
  const tools: ToolDefinition[] = state.specs
    .filter((s) => offered.includes(s.name))
    .map((s) => ({ type: 'function', function: { name: s.name, description: s.description, parameters: s.parameters, ...(s.strict ? { strict: true } : {}) } }));
  const params: ChatParams = { ...(options.apiKwargs ?? {}), n };
  params.temperature = options.apiKwargs?.temperature ?? 1;
  // One step of a trajectory, not an essay: a default ceiling unless apiKwargs sets its own.
  if (params.max_tokens === undefined && params.max_completion_tokens === undefined) params.max_tokens = CANDIDATE_MAX_TOKENS;
  if (options.seed !== undefined) params.seed = options.seed;
  if (tools.length > 0) {
    params.tools = tools;
    params.tool_choice = options.toolChoice;
    if (options.parallelToolCalls) params.parallel_tool_calls = true;
  }
  return params;
}

/**
 * A short label of a step: `multiply({"a":2,"b":3})`, or the text answer quoted.
 *
 * @example
 * previewOf(assistantMessage('42')); // '"42"'
 */
export function previewOf(message: AssistantMessage): string {
  const calls = message.tool_calls ?? [];
  const text = calls.length > 0 ? calls.map((c) => `${c.function.name}(${c.function.arguments.replace(/\s+/g, '')})`).join(', ') : JSON.stringify(messageText(message));
  return shorten(text, 40);
}
