/**
 * The built-in scripted policies, by name. WHY a list: the server serves these unless the
 * caller overrides one by name, and GET /v1/models lists them.
 */
import type { ChatPolicy } from '../types';
import { assistantPolicy } from './assistant';
import { classifierPolicy } from './classifier';
import { codeWriterPolicy } from './code-writer';
import { colorGuesserPolicy } from './color-guesser';
import { conciergePolicy } from './concierge';
import { echoPolicy } from './echo';
import { foodExtractorPolicy } from './food-extractor';
import { multiplierJudgePolicy } from './multiplier-judge';
import { multiplierPolicy } from './multiplier';
import { noisyJudgePolicy } from './noisy-judge';
import { numberGuesserPolicy } from './number-guesser';

export const BUILT_IN_POLICIES: readonly ChatPolicy[] = [
  echoPolicy,
  assistantPolicy,
  colorGuesserPolicy,
  numberGuesserPolicy,
  foodExtractorPolicy,
  classifierPolicy,
  multiplierPolicy,
  multiplierJudgePolicy,
  conciergePolicy,
  codeWriterPolicy,
  noisyJudgePolicy,
];

export {
  assistantPolicy,
  classifierPolicy,
  codeWriterPolicy,
  colorGuesserPolicy,
  conciergePolicy,
  echoPolicy,
  foodExtractorPolicy,
  multiplierJudgePolicy,
  multiplierPolicy,
  noisyJudgePolicy,
  numberGuesserPolicy,
};
