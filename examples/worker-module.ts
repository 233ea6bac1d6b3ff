/**
 * What a grove worker should serve besides grove's own activities: the example tools and the
 * example evaluator. Point a worker at it with `grove worker --module examples/worker-module.ts`
 * (or `GROVE_WORKER_MODULE`); write your own module the same way.
 */
import { multiplicationChecker } from './evaluators/multiplication-checker';
import { exampleTools } from './tools';

export const tools = exampleTools;
export const evaluators = [multiplicationChecker];
