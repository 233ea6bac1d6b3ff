import { z } from 'zod';
import { defineTool } from '../../activities/tools/define-tool';

/**
 * A terminal tool: calling it ends the trajectory with an answer for the user (Saplings,
 * "Termination conditions"). It returns the answer unchanged, so the tool message (and its
 * `rawOutput`) holds exactly what the model answered, for the evaluator to check.
 *
 * Not strict: `answer` is a number or a string (`"type": ["number", "string"]`), which not
 * every endpoint's strict mode accepts.
 *
 * @example
 * await finalAnswer.run({ answer: 42 }, { trajectory: [] }) // 42
 */
export const finalAnswer = defineTool({
  name: 'final_answer',
  description: 'Gives the final answer to the user. Call it once you know the answer; it ends the task.',
  parameters: z.object({
    answer: z.union([z.number(), z.string()]).describe('The final answer: a number or a short text.'),
  }),
  isTerminal: true,
  fast: true,
  run: ({ answer }) => answer,
});
