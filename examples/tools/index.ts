import { finalAnswer } from './final-answer';
import { multiply } from './multiply';

export { finalAnswer, multiply };

/**
 * The tools of the Saplings quickstart, ready to register on a worker.
 *
 * @example
 * createToolActivities({ tools: exampleTools, store })
 */
export const exampleTools = [multiply, finalAnswer];
