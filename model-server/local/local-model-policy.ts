import { availableParallelism } from 'node:os';
import { importEngine } from '../../runtime/optional-engine';
import type { AsyncChatPolicy, ChatRequest, LiveText, PolicyReply } from '../types';
import { grammarSchema } from './grammar-schema';
import { toLlamaHistory } from './llama-history';

/** The local model's context window, in tokens (workers using it fit conversations to it). */
export const LOCAL_CONTEXT_TOKENS = 2048;

/**
 * CPU threads for the local model: one core fewer than the machine has (at least 1, at most 4).
 * WHY: llama.cpp's threads wait for each other by spinning, so when another process wants a core
 * they hold — grove's own sandbox loading Pyodide beside a code fixer's next call, the Temporal
 * server, the worker — an answer takes 10–100× longer (measured on 2 cores with one busy process
 * beside it: 9–80 s per ~100-token answer with 2 threads, 3–5 s with 1; alone, 1.2 s and 2 s).
 *
 * @example
 * defaultLocalThreads(2); // 1
 * defaultLocalThreads(16); // 4
 */
export function defaultLocalThreads(cores = availableParallelism()): number {
  return Math.max(1, Math.min(4, cores - 1));
}

export interface LocalModelOptions {
  /** The GGUF file (see `ensureLocalModelFile`). */
  modelPath: string;
  /** The model name clients ask for (default `smollm2`). */
  name?: string;
  /** CPU threads (default {@link defaultLocalThreads}). On 2 cores node-llama-cpp's own default is ~80× slower (measured: 41 s vs 0.5 s per answer). */
  threads?: number;
  /** Context window in tokens (default 2048, SmolLM2's is 8192). */
  contextSize?: number;
  /** Default `max_tokens` when a request sets none (default 256: a tiny model rambles). */
  defaultMaxTokens?: number;
}

export interface LocalModelPolicy extends AsyncChatPolicy {
  close(): Promise<void>;
}


/** OpenAI's `stop`: one string or up to four; the answer ends before the first that appears (which is left out). */
function stopStrings(stop: unknown): string[] {
  const list = typeof stop === 'string' ? [stop] : Array.isArray(stop) ? stop : [];
  return list.filter((s): s is string => typeof s === 'string' && s !== '');
}

const TOOL_INSTRUCTIONS = (names: string[], required: boolean) =>
  `You can use these tools: ${names.join(', ')}. Reply with JSON only: ${required ? '' : '{"answer": "<your answer>"} to answer, or '}{"tool": "<tool name>", "arguments": {...}} to call a tool.`;

/**
 * A real model as a model-server policy: SmolLM2-135M-Instruct (or any GGUF) through
 * node-llama-cpp's prebuilt CPU binary, so grove's activities keep one code path — the `openai`
 * SDK over HTTP — whether the model is scripted, local or remote. Supports `n` (sequential
 * samples with distinct seeds), `temperature`, `seed`, `max_tokens`, `stop`, `response_format`
 * (`json_schema` and `json_object` enforced by a grammar) and tools (a grammar that allows only a
 * valid answer or a valid call of a declared tool, so even a tiny model makes well-formed calls).
 * A streamed request gets a plain-text answer as it is written (`onTextChunk`); tool calls and
 * JSON are sent when done. One request runs at a time (a 2-core machine has no room for two). node-llama-cpp is an
 * optional peer dependency, imported here: without it this throws `GroveEngineMissing`.
 *
 * @example
 * const local = await createLocalModelPolicy({ modelPath: await ensureLocalModelFile() });
 * const server = await startModelServer({ policies: [local] });   // model "smollm2"
 */
export async function createLocalModelPolicy(opts: LocalModelOptions): Promise<LocalModelPolicy> {
  const { getLlama, LlamaChatSession } = await importEngine<any>('node-llama-cpp');
  const llama = await getLlama({ gpu: false, build: 'never', logLevel: 'error' });
  const model = await llama.loadModel({ modelPath: opts.modelPath });
  const context = await model.createContext({ contextSize: opts.contextSize ?? LOCAL_CONTEXT_TOKENS, threads: opts.threads ?? defaultLocalThreads(), sequences: 1 });
  const session = new LlamaChatSession({ contextSequence: context.getSequence() });
  const defaultMaxTokens = opts.defaultMaxTokens ?? 256;
  let queue: Promise<unknown> = Promise.resolve();

  async function answer(req: ChatRequest, index: number, live: LiveText | undefined): Promise<PolicyReply> {
    const toolNames = (req.tools ?? []).map((t) => t.function.name);
    const choice = req.tool_choice;
    const useTools = toolNames.length > 0 && choice !== 'none';
    const requiredTool = typeof choice === 'object' && choice ? (choice as { function?: { name?: string } }).function?.name : undefined;
    const toolsRequired = useTools && (choice === 'required' || requiredTool !== undefined);
    const { history, prompt } = toLlamaHistory(req, useTools ? TOOL_INSTRUCTIONS(requiredTool ? [requiredTool] : toolNames, toolsRequired) : undefined);
    session.setChatHistory(history);
    let grammar;
    const format = req.response_format as { type?: string; json_schema?: { schema?: unknown } } | undefined;
    if (useTools) {
      const calls = (req.tools ?? [])
        .filter((t) => !requiredTool || t.function.name === requiredTool)
        .map((t) => ({ type: 'object', properties: { tool: { const: t.function.name }, arguments: grammarSchema(t.function.parameters ?? { type: 'object', properties: {} }) }, required: ['tool', 'arguments'] }));
      const variants = toolsRequired ? calls : [{ type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] }, ...calls];
      grammar = await llama.createGrammarForJsonSchema(variants.length === 1 ? variants[0] : { oneOf: variants });
    } else if (format?.type === 'json_schema') {
      grammar = await llama.createGrammarForJsonSchema(grammarSchema(format.json_schema?.schema ?? {}));
    } else if (format?.type === 'json_object') {
      grammar = await llama.getGrammarFor('json');
    }
    const maxTokens = req.max_completion_tokens ?? req.max_tokens ?? defaultMaxTokens;
    const stop = stopStrings(req.stop);
    const meta = await session.promptWithMeta(prompt, {
      maxTokens,
      temperature: req.temperature ?? 0.7,
      topP: req.top_p ?? undefined,
      seed: (req.seed ?? 0) + index,
      grammar,
      ...(stop.length > 0 ? { customStopTriggers: stop } : {}),
      // A plain-text answer streams as it is written; a tool-call answer is JSON parsed afterwards, sent whole.
      ...(live && !useTools ? { onTextChunk: (text: string) => live.text(index, text) } : {}),
    });
    const text: string = meta.responseText;
    const finishReason = meta.stopReason === 'maxTokens' ? ('length' as const) : undefined;
    if (!useTools) return { content: text, finishReason };
    try {
      const parsed = JSON.parse(text) as { tool?: string; arguments?: unknown; answer?: string };
      if (parsed.tool) return { toolCalls: [{ name: parsed.tool, arguments: parsed.arguments ?? {} }], finishReason };
      return { content: parsed.answer ?? text, finishReason };
    } catch {
      return { content: text, finishReason: 'length' };
    }
  }

  return {
    name: opts.name ?? 'smollm2',
    description: 'A real local model (SmolLM2-135M-Instruct via node-llama-cpp on the CPU): chat, n, tools and JSON schemas by grammar.',
    respond(req, ctx, live) {
      const run = queue.then(async () => {
        const replies: PolicyReply[] = [];
        for (let i = 0; i < ctx.n; i++) replies.push(await answer(req, i, live));
        return replies;
      });
      queue = run.catch(() => {});
      return run;
    },
    async close() {
      await context.dispose();
      await model.dispose();
      await llama.dispose();
    },
  };
}
