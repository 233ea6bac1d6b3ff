import { aiGenerate, airetry } from '../../workflows/api';

export interface HistoryChainInput {
  /** Retries after the first call: the conversation's depth. */
  depth: number;
  /** Send the whole conversation into every model activity (the design grove avoids). */
  naive: boolean;
  /** Characters of each model answer. */
  answerChars: number;
}

/**
 * Benchmark-only: an airetry chain of `depth` retries whose check never passes, so each round
 * adds an answer and a feedback message. With `naive`, the message-store bookkeeping is reset
 * before every call, so every activity input carries the whole conversation — what history
 * looks like when conversations are passed by value.
 */
export async function historyChain(input: HistoryChainInput): Promise<{ calls: number; conversationChars: number }> {
  const prompt = `Write a detailed report. ${'Context line for the report. '.repeat(40)}`;
  const out = aiGenerate(prompt, { model: `echo?pad=${input.answerChars}`, config: { maxRetries: input.depth, maxCalls: input.depth + 1 } });
  if (input.naive) {
    const port = out.port!;
    out.port = {
      ...port,
      chat: (refs, path, request) => {
        refs.forgetStored();
        return port.chat(refs, path, request);
      },
    };
  }
  await out.run();
  await airetry(() => false, out, 'Not yet. Add more detail and try again.', { verbose: false });
  return { calls: out.config.calls, conversationChars: JSON.stringify(out.conversation).length };
}
