/**
 * Every workflow a grove worker serves. The worker bundles this file; clients start the
 * workflows by these names.
 */
export { generate } from './generate';
export { airetry } from './airetry';
export { agent } from './agent';
export { session } from './session';
export { codeFixer } from './code-fixer';
