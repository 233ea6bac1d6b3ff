/**
 * grove's workflows with one deliberate change, for the replay tests: `generate` now waits a
 * second before it does anything — a timer where the recorded histories have other commands.
 */
import { sleep } from '@temporalio/workflow';
import type { GenerateInput, GenerateResult } from '../../core/generate/generate-input';
import { generate as recorded } from '../../workflows/generate';

export { airetry, agent } from '../../workflows';

export async function generate(raw: GenerateInput): Promise<GenerateResult> {
  await sleep(1000);
  return recorded(raw);
}
