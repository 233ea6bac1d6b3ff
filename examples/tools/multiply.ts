import { z } from 'zod';
import { defineTool } from '../../activities/tools/define-tool';

/**
 * The Saplings quickstart tool (seed 004, "Creating a tool"): the same name, description and
 * argument schema, so the `multiplier` model-server policy and prompts written for Saplings
 * work unchanged. Strict, as Saplings sends every tool; fast (pure arithmetic, safe to repeat).
 *
 * @example
 * await multiply.run({ a: 9418.343, b: 8.11 }, { trajectory: [] }) // 76382.76173...
 */
export const multiply = defineTool({
  name: 'multiply',
  description: 'Multiplies two numbers and returns the result number.',
  parameters: z.object({
    a: z.number().describe('The number to multiply.'),
    b: z.number().describe('The number to multiply by.'),
  }),
  strict: true,
  fast: true, // arithmetic: a local activity, no task-queue round trip
  run: ({ a, b }) => a * b,
});
