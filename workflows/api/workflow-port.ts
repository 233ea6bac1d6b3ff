import { getRandomStream, log, sleep } from '@temporalio/workflow';
import type { AICallPort } from '../../core/airetry/ports';
import { seededRandom, type SeededRandom } from '../../core/random';
import { LlmSettingsSchema, type LlmSettingsInput } from '../../core/schemas/llm-settings';
import { parseInput } from '../../core/schemas/parse-input';
import { llmPort } from '../lib/llm-port';
import { afterResult } from '../lib/resume-point';

/**
 * The port AI calls use inside a workflow: model calls are activities (with the given
 * timeouts and retry policy), delays are durable timers, logs go to the workflow logger
 * (which stays quiet during replay).
 */
export function workflowPort(settings: LlmSettingsInput = {}): AICallPort {
  const llm = llmPort(parseInput(LlmSettingsSchema, settings, 'llm settings'));
  return {
    chat: llm.chat,
    sleep: (ms) => afterResult(sleep(ms)),
    log: (message) => log.info(message),
  };
}

/**
 * Randomness for a call: a user seed reproduces the run exactly across executions; without one
 * the seed is drawn from the workflow's named random stream (replay-stable, but different per
 * run).
 */
export function workflowRng(seed?: number): SeededRandom {
  return seededRandom(seed ?? Math.floor(getRandomStream('grove').random() * 0x100000000));
}
