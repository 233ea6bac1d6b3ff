/**
 * `echo` policy: repeats the last user message.
 *
 * - text: `"Echo: <last user text>"` (the whole last user message, feedback included);
 * - response_format json_object: `{"echo":"<last user text>"}`;
 * - response_format json_schema: a minimal valid instance of the schema whose string fields
 *   hold the last user text (see `schemaExample`);
 * - tools with tool_choice 'required' or a named function: one call to that function (or the
 *   first tool) with a minimal instance of its parameters; tool_choice 'auto': text.
 *
 * Option `pad=N` adds N characters of filler to a text answer (benchmarks use it to make
 * conversations grow realistically; tests, to send an answer of several megabytes). Option
 * `calls=N`, when tools are offered (and tool_choice is not 'none'), answers with N calls to the
 * named or first tool, each with a minimal instance of its parameters — the runaway answer that
 * makes thousands of tool calls at once. Every choice is the same: echo never draws from the rng.
 */
import type { ChatPolicy, PolicyReply } from '../types';
import { lastUserText, responseMode, responseSchema, toolMode, toolParameters } from './conversation';
import { schemaExample } from './json-schema-example';

export const echoPolicy: ChatPolicy = {
  name: 'echo',
  description: 'Repeats the last user message ("Echo: ..."); JSON modes give a minimal valid instance.',
  respond(req, ctx) {
    const text = lastUserText(req);
    const tools = toolMode(req);
    let reply: PolicyReply;
    const calls = Math.max(0, Math.floor(Number(ctx.options.calls ?? 0)) || 0);
    if (calls > 0 && tools.names.length > 0 && tools.choice !== 'none') {
      const name = typeof tools.choice === 'object' ? tools.choice.name : tools.names[0];
      const args = schemaExample(toolParameters(req, name) ?? {}, { '*': text });
      reply = { toolCalls: Array.from({ length: calls }, () => ({ name, arguments: args })) };
    } else if (tools.choice === 'required' || typeof tools.choice === 'object') {
      const name = typeof tools.choice === 'object' ? tools.choice.name : tools.names[0];
      reply = { toolCalls: [{ name, arguments: schemaExample(toolParameters(req, name) ?? {}, { '*': text }) }] };
    } else if (responseMode(req) === 'json_object') {
      reply = { content: JSON.stringify({ echo: text }) };
    } else if (responseMode(req) === 'json_schema') {
      reply = { content: JSON.stringify(schemaExample(responseSchema(req) ?? {}, { '*': text })) };
    } else {
      const pad = Math.max(0, Math.floor(Number(ctx.options.pad ?? 0)) || 0);
      reply = { content: `Echo: ${text}${pad > 0 ? ` ${filler(pad)}` : ''}` };
    }
    return Array.from({ length: ctx.n }, () => reply);
  },
};

const LOREM = 'The quick brown fox jumps over the lazy dog. ';

/** `n` characters of plain filler text. */
function filler(n: number): string {
  return LOREM.repeat(Math.ceil(n / LOREM.length)).slice(0, n);
}
