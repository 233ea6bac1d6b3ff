import { ConversationRefs } from '../core/hash/conversation-refs';
import { GenerateInputSchema, type GenerateInput, type GenerateResult } from '../core/generate/generate-input';
import { LlmSettingsSchema } from '../core/schemas/llm-settings';
import { promptConversation } from '../core/schemas/prompt-conversation';
import { llmPort } from './lib/llm-port';
import { onResume, resumePoint } from './lib/resume-point';
import { failRun, preview, reportRun } from './lib/run-status';
import { startRun } from './lib/run-lifecycle';
import { fitResult } from './lib/result-size';

/**
 * One model call as a durable workflow: the seeds' `AIGenerate(prompt) |> run!`. A crashed
 * worker resumes it; a finished call is never paid for twice.
 *
 * @example
 * await client.workflow.execute('generate', { taskQueue: 'grove', workflowId: 'hi-1', args: [{ prompt: 'Say hi!' }] });
 */
export async function generate(raw: GenerateInput): Promise<GenerateResult> {
  const { input } = await startRun(GenerateInputSchema, raw, { what: 'generate input', kind: 'generate' });
  const conversation = promptConversation(input);
  const refs = new ConversationRefs();
  const path = refs.addPath(null, undefined, conversation);
  const settings = LlmSettingsSchema.parse(input.llm ?? {});
  const llm = llmPort(settings);
  let model = input.model;
  onResume((overrides) => {
    if (overrides.model !== undefined) model = overrides.model;
  });
  try {
    const resuming = resumePoint();
    if (resuming) await resuming;
    const result = await llm.chat(refs, path, {
      model,
      params: input.apiKwargs,
      summary: `generate: ${preview(input.prompt ?? 'conversation')}`,
    });
    const message = result.choices[0].message;
    const final = { calls: 1, tokens: result.usage.totalTokens };
    const finishReason = result.choices[0].finishReason;
    const out = fitResult('generate', { output: message.content, message, conversation: [...conversation, message], usage: result.usage, model: result.model, finishReason });
    reportRun({ status: 'succeeded', ...final });
    return out;
  } catch (err) {
    failRun(err, {}, settings);
  }
}
