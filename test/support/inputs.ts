import type { AiretryInput } from '../../core/airetry/airetry-input';

export const COLOR_PROMPT = 'Guess what color I am thinking. It could be: blue, red, black, white, yellow. Answer with 1 word only';

/**
 * The seeds' color game as ready-made airetry input: two samples a round, three checks, the
 * scripted color guesser. `over` replaces top-level fields.
 *
 * @example
 * await grove.run('airetry', colorGameInput({ seed: 3 }));
 */
export const colorGameInput = (over: Partial<AiretryInput> = {}): AiretryInput => ({
  prompt: COLOR_PROMPT,
  model: 'color-guesser',
  config: { nSamples: 2 },
  apiKwargs: { n: 2 },
  seed: 1,
  checks: [{ kind: 'maxWords', max: 1 }, { kind: 'lowercase' }, { kind: 'startsWith', value: 'y', feedback: 'It starts with "y"' }],
  ...over,
});
