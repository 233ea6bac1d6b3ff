/**
 * `concierge` policy: a conversation partner for durable sessions that uses tools when asked
 * and can rewind its own messages. It reads only the conversation, like a real model:
 *
 * - The request is the last user message that is not pure feedback (feedback sections removed).
 * - If a tool message answers a call made after that request, it reports the outcome in text:
 *   `Done: <result>` for a result, `I could not do that: <text after "Error:">` for an error.
 * - Otherwise, when the request says `save a note: TEXT` (or `save the note TEXT`) and a
 *   `save_note` tool is offered, it calls `save_note({"text": TEXT})`.
 * - Otherwise, when it says `rewind to message N: TEXT` (or `... message N and say TEXT`) and a
 *   `rewind` tool is offered, it calls `rewind({"n": N, "content": TEXT})`.
 * - Otherwise, when it asks `what did you say?` / `what did you just say?`, it quotes its own
 *   latest message: `Before this, I said: "<text>"` (or `I have not said anything yet.`).
 * - Otherwise it answers like `assistant` (quoting the question, acknowledging feedback), with
 *   a closing sentence picked by the choice's rng.
 * JSON modes are not supported (text answers only).
 */
import type { ChatPolicy, ChatRequest, PolicyReply } from '../types';
import { pick } from '../rng';
import { assistantAnswer } from './assistant';
import { feedbackTexts, messageText, toolMode, withoutFeedback } from './conversation';

const CLOSINGS = ['Anything else?', 'Happy to help further.', 'Let me know what is next.'];

const SAVE = /\bsave (?:a|the) note[:\s]+(.+)$/is;
const REWIND = /\brewind to (?:your )?message (-?\d+)(?::|,| and say| saying)\s*(.+)$/is;
const RECALL = /\bwhat did you (?:just )?say\b/i;

/** The index of the last user message that is not pure feedback (-1 if none), and its text without feedback. */
function lastRequest(req: ChatRequest): { index: number; text: string } {
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const m = req.messages[i];
    if (m.role !== 'user') continue;
    const text = withoutFeedback(messageText(m));
    if (text) return { index: i, text };
  }
  return { index: -1, text: '' };
}

/** The text of the first tool message after `index` (the outcome of a call made for this request). */
function toolOutcome(req: ChatRequest, index: number): string | undefined {
  for (let i = index + 1; i < req.messages.length; i++) if (req.messages[i].role === 'tool') return messageText(req.messages[i]);
  return undefined;
}

function lastAssistantText(req: ChatRequest): string | undefined {
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const m = req.messages[i];
    if (m.role === 'assistant' && messageText(m)) return messageText(m);
  }
  return undefined;
}

/**
 * The concierge's reply to a conversation (one choice).
 *
 * @example
 * conciergeReply({ model: 'concierge', messages: [{ role: 'user', content: 'save a note: buy milk' }], tools: [saveNoteTool] }, rng)
 * // { toolCalls: [{ name: 'save_note', arguments: { text: 'buy milk' } }] }
 */
export function conciergeReply(req: ChatRequest, rng: () => number): PolicyReply {
  const { index, text } = lastRequest(req);
  const tools = toolMode(req);
  const offered = (name: string) => tools.choice !== 'none' && tools.names.includes(name);
  const outcome = toolOutcome(req, index);
  if (outcome !== undefined) {
    return { content: outcome.startsWith('Error:') ? `I could not do that: ${outcome.slice('Error:'.length).trim()}` : `Done: ${outcome}` };
  }
  const save = SAVE.exec(text);
  if (save && offered('save_note')) return { toolCalls: [{ name: 'save_note', arguments: { text: save[1].trim() } }] };
  const rewind = REWIND.exec(text);
  if (rewind && offered('rewind')) return { toolCalls: [{ name: 'rewind', arguments: { n: Number(rewind[1]), content: rewind[2].trim() } }] };
  if (RECALL.test(text)) {
    const said = lastAssistantText(req);
    return { content: said === undefined ? 'I have not said anything yet.' : `Before this, I said: "${said}"` };
  }
  // Feedback given since the model last spoke before this request (or after it: a failed check).
  let since = index;
  while (since > 0 && req.messages[since - 1].role !== 'assistant') since--;
  const feedback = feedbackTexts({ ...req, messages: req.messages.slice(Math.max(since, 0)) });
  return { content: assistantAnswer(text, pick(rng, CLOSINGS), feedback[feedback.length - 1]) };
}

export const conciergePolicy: ChatPolicy = {
  name: 'concierge',
  description: 'Session partner: answers, quotes what it said, saves notes (save_note) and rewinds (rewind) when asked.',
  respond(req, ctx) {
    return Array.from({ length: ctx.n }, (_, i) => conciergeReply(req, ctx.rng(i)));
  },
};
