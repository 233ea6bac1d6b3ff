/**
 * `assistant` policy: a friendly, deterministic helper for demos.
 *
 * It answers the last user question (feedback sections removed) in one or two short canned
 * sentences that quote the question:
 * - a greeting ("Say hi!", "hello") gets `"Hi! I'm grove's scripted assistant. <closing>"`;
 * - a question (ends with "?") gets `Good question: "<q>" <closing>`;
 * - anything else gets `Sure. About "<q>": <closing>`.
 * The closing sentence is picked with the choice's rng, so the `n` choices differ. When the
 * conversation holds evaluator feedback, the answer starts with
 * `Thanks for the feedback ("<last feedback>").`. Questions longer than 80 characters are
 * quoted shortened with "...".
 * JSON modes answer `{"answer": "<text>"}` (json_object) or a minimal schema instance whose
 * string fields hold the text (json_schema). Tools are never called.
 */
import type { ChatPolicy } from '../types';
import { pick } from '../rng';
import { feedbackTexts, lastQuestion, responseMode, responseSchema } from './conversation';
import { schemaExample } from './json-schema-example';

const CLOSINGS = [
  'I am a scripted model, so this answer is short and always the same for the same request.',
  'In short: start simple, check each step, and keep what works.',
  'Here is the gist: break it into small steps and verify each one.',
  'Happy to help further if you tell me more.',
];

function shorten(text: string, max = 80): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 3)}...`;
}

/**
 * The assistant's text answer for a question, given a closing sentence.
 *
 * @example
 * assistantAnswer('Say hi!', 'Bye.') // "Hi! I'm grove's scripted assistant. Bye."
 */
export function assistantAnswer(question: string, closing: string, lastFeedback?: string): string {
  const q = shorten(question);
  let body: string;
  if (/\b(hi|hello|hey|greetings)\b/i.test(q)) body = `Hi! I'm grove's scripted assistant. ${closing}`;
  else if (q.endsWith('?')) body = `Good question: "${q}" ${closing}`;
  else if (q) body = `Sure. About "${q}": ${closing}`;
  else body = `Hi! ${closing}`;
  return lastFeedback ? `Thanks for the feedback ("${shorten(lastFeedback)}"). ${body}` : body;
}

export const assistantPolicy: ChatPolicy = {
  name: 'assistant',
  description: 'Friendly canned helper for demos: short answers that quote the question.',
  respond(req, ctx) {
    const question = lastQuestion(req);
    const fb = feedbackTexts(req);
    return Array.from({ length: ctx.n }, (_, i) => {
      const text = assistantAnswer(question, pick(ctx.rng(i), CLOSINGS), fb[fb.length - 1]);
      const mode = responseMode(req);
      if (mode === 'json_object') return { content: JSON.stringify({ answer: text }) };
      if (mode === 'json_schema') return { content: JSON.stringify(schemaExample(responseSchema(req) ?? {}, { '*': text })) };
      return { content: text };
    });
  },
};
