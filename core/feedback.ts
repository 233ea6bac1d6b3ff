import { renderTemplate } from './conversation/template';
import { NoUserMessageError } from './errors';
import type { Message, UserMessage } from './schemas/messages';
import type { SampleTree } from './tree/sample-tree';

/** The seeds' `:FeedbackFromEvaluator` template. */
export const FEEDBACK_TEMPLATE = '### Feedback from Evaluator\n{{feedback}}\n';

/** Ten ASCII hyphens between feedback entries, as in the seeds. */
export const FEEDBACK_SEPARATOR = '\n----------\n';

/**
 * The non-empty feedback of the node and its ancestors, root first, joined by `separator`.
 *
 * @example
 * collectAllFeedback(tree, leaf.id); // 'Feedback 3\n----------\nFeedback 2\n----------\nFeedback 0'
 */
export function collectAllFeedback<D>(tree: SampleTree<D>, id: number, separator = FEEDBACK_SEPARATOR): string {
  return tree
    .pathFromRoot(id)
    .map((n) => n.feedback)
    .filter((f) => f !== '')
    .join(separator);
}

export interface AddFeedbackOptions {
  /**
   * false (default): append a new user message with the node's own feedback.
   * true: drop the tail back to (and including) the last user message and re-send that message
   * extended with ALL feedback from the root to the node.
   */
  inplace?: boolean;
  /** Must contain `{{feedback}}`; default {@link FEEDBACK_TEMPLATE}. */
  template?: string;
}

/**
 * The conversation to retry with, given node `id`'s feedback. Returns a NEW array and never
 * mutates the messages or the node's data.
 *
 * Departure from the seeds (DESIGN.md "Departures"): the original pushes into the very array
 * stored as the node's data, so the selected node grows (the trees in the docs show it), a
 * re-selected node gets its feedback twice, and in-place mode even pops the node's own answer.
 * Here the tree is untouched; the caller stores the result as a new child's delta.
 * Also a departure: with no user message to extend, in-place mode throws a
 * {@link NoUserMessageError} (the original threw a bare string).
 *
 * @example
 * const retryConv = addFeedback(materialize(tree, s.id), tree, s.id, { inplace: config.feedbackInplace });
 */
export function addFeedback<D>(conv: Message[], tree: SampleTree<D>, id: number, opts: AddFeedbackOptions = {}): Message[] {
  const { inplace = false, template = FEEDBACK_TEMPLATE } = opts;
  const text = inplace ? collectAllFeedback(tree, id) : tree.node(id).feedback;
  const out = conv.slice();
  if (text.trim() === '') return out;
  const rendered = renderTemplate(template, { feedback: text });
  if (!inplace) {
    const last = out[out.length - 1];
    if (last?.role === 'assistant' && last.tool_calls?.length) {
      // A function-calling answer (e.g. aiExtract in tool mode) must be followed by the tools'
      // results: the feedback answers each call, as OpenAI-style APIs require.
      for (const call of last.tool_calls) out.push({ role: 'tool', tool_call_id: call.id, content: rendered });
      return out;
    }
    out.push({ role: 'user', content: rendered });
    return out;
  }
  let popped: Message | undefined;
  while (out.length > 0) {
    popped = out.pop();
    if (popped?.role === 'user') break;
    popped = undefined;
  }
  if (!popped || popped.role !== 'user') {
    throw new NoUserMessageError(`in-place feedback for node ${id} needs a user message in the conversation, found none`);
  }
  out.push(extendUserMessage(popped, `\n\n${rendered}`));
  return out;
}

/** A copy of the user message with `suffix` appended (as a new text part for multi-part content). */
function extendUserMessage(message: UserMessage, suffix: string): UserMessage {
  if (typeof message.content === 'string') return { ...message, content: message.content + suffix };
  return { ...message, content: [...message.content, { type: 'text', text: suffix }] };
}
