import type { ChatParams } from '../../../../core/schemas/chat-params';
import { CANDIDATE_MAX_TOKENS } from '../../../../core/agents/search/search-prompts';
import { inProcessAgent, quickstartInput, searchInProcess } from '../../../../bench/lib/in-process-agent';

/** The params of every chat call a short search makes, candidates and reflections apart. */
async function paramsSeen(apiKwargs?: ChatParams) {
  const env = inProcessAgent({ seed: 1 });
  const seen: Array<{ runId?: string; params?: ChatParams }> = [];
  const chat = env.port.chat;
  env.port.chat = (input, summary) => {
    seen.push({ runId: input.runId, params: input.params });
    return chat(input, summary);
  };
  await searchInProcess(quickstartInput({ budget: { maxCalls: 30 }, model: 'multiplier?p=0.5&guess=0.5', apiKwargs, seed: 1 }), { env });
  return { candidates: seen.filter((s) => !s.runId?.startsWith('reflect')), reflections: seen.filter((s) => s.runId?.startsWith('reflect')) };
}

test('candidate steps get a default max_tokens ceiling; apiKwargs overrides it', async () => {
  const byDefault = await paramsSeen();
  expect(byDefault.candidates.length).toBeGreaterThan(0);
  expect(byDefault.reflections.length).toBeGreaterThan(0);
  for (const c of byDefault.candidates) expect(c.params?.max_tokens).toBe(CANDIDATE_MAX_TOKENS);
  for (const r of byDefault.reflections) expect(r.params?.max_tokens).toBe(300);

  const own = await paramsSeen({ max_tokens: 2000 });
  for (const c of own.candidates) expect(c.params?.max_tokens).toBe(2000);
  const completion = await paramsSeen({ max_completion_tokens: 900 });
  for (const c of completion.candidates) expect(c.params).toMatchObject({ max_completion_tokens: 900 });
  for (const c of completion.candidates) expect(c.params?.max_tokens).toBeUndefined();
});
