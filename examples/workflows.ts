/**
 * The seeds' examples, written as grove workflows with the workflow-side API. A worker serves
 * them when it bundles this file (see examples/run.ts); the scripted model server plays the
 * models offline, and any real model works with `model` set.
 */
export { colorGame } from './color-game';
export { llmGuesser } from './llm-guesser';
export { foodExtraction } from './food-extraction';
