import { AiretryInputSchema, type AiretryResult } from '../../core/airetry/airetry-input';
import { facts, type RunAdapter, type RunReader, type RunSnapshot } from './run-adapter';
import { readSampleRun, sampleSnapshot } from './sample-snapshot';
import { shorten } from '../../core/conversation/preview';

/**
 * airetry runs (and workflows that `exposeCall` an AI call): the sample tree from the `tree`
 * query (live) or the result. Each sample holds the messages it added (feedback and answer), so
 * conversations come from the tree itself; a sample that failed a check carries its feedback.
 */
export const airetryAdapter: RunAdapter = {
  matches: (kind) => kind === 'airetry',

  async snapshot(reader: RunReader): Promise<RunSnapshot> {
    const run = await readSampleRun<AiretryResult>(reader);
    const { result, progress } = run;
    const input = AiretryInputSchema.safeParse(reader.input);
    const checks = input.success ? input.data.checks.map((c, i) => c.name ?? `${c.kind}#${i}`) : [];
    const outcomes = new Map((result?.checks ?? []).map((c) => [c.name, c.passed]));
    const abandoned = run.tree.all().filter((n) => n.abandoned).length;
    return sampleSnapshot(run, {
      prompt: input.success ? input.data.prompt : undefined,
      facts: facts([
        ['prompt', input.success && input.data.prompt ? shorten(input.data.prompt, 200) : undefined],
        ['samples', run.tree.size - 1],
        ['abandoned by rewinds', abandoned || undefined],
        // The figures' names (docs/runs.md): samples drawn, and the model calls that drew them.
        ['model calls', (result as { modelCalls?: number } | undefined)?.modelCalls ?? progress?.modelCalls],
        ['samples', result?.calls ?? progress?.calls],
        ['retries', result?.retries ?? progress?.retries],
        ['active sample', run.activeId],
        ...checks.map((name): [string, string] => [`check ${name}`, outcomes.has(name) ? (outcomes.get(name) ? 'passed' : 'failed') : reader.live ? 'pending' : 'not reached']),
        ['output', result ? shorten(typeof result.output === 'string' ? result.output : JSON.stringify(result.output), 200) : undefined],
        ['error', progress?.error?.message],
      ]),
    });
  },
};
