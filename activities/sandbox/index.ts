/** grove's sandbox for generated code: QuickJS (JS/TS) and Pyodide (Python), each run in a fresh locked-down child process. */
export { execCode, type ExecOptions } from './exec-code';
export { createSandboxActivities, type SandboxActivities } from './sandbox-activities';
export { transpileTs } from './transpile-ts';
export { runCodeTool, formatRunOutcome } from './run-code-tool';
export { codeTestsEvaluator } from './code-tests-evaluator';
export { sandboxLayers, describeSandbox } from './sandbox-layers';
export { sandboxJail, type Jail } from './sandbox-jail';
