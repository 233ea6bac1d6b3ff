/**
 * What a grove worker should serve besides grove's own activities: the example tools (with
 * `save_note`, which needs a person's approval) and the example evaluator. Point a worker at
 * it with `grove worker --module examples/worker-module.ts` (or `GROVE_WORKER_MODULE`); write
 * your own module the same way.
 */
import { multiplicationChecker } from './evaluators/multiplication-checker';
import { exampleTools } from './tools';
import { saveNote } from './tools/save-note';

export const tools = [...exampleTools, saveNote];
export const evaluators = [multiplicationChecker];
