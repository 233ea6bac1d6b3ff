import type { CodeLanguage } from '../../core/code/code-outcome';
import { sandboxJail } from './sandbox-jail';

/**
 * The isolation layers a run in `language` gets on this machine, as its outcome lists them:
 * - `wasm` — the code runs in a WebAssembly engine (QuickJS: a wall, nothing of the host is
 *   reachable from it; Pyodide: not a wall, its FFI reaches JavaScript);
 * - `host-globals-removed` — the child's JavaScript global holds only the language's built-ins;
 * - `node-permissions` — Node's permission model: reads only the engine packages, no writes,
 *   no child processes, no worker threads;
 * - `empty-env` — no environment variables;
 * - `network-namespace`, `filesystem-jail`, `unprivileged-user` — the jail (see `sandboxJail`);
 * - `tests-apart` — when tests run, they run in another QuickJS runtime or another process and
 *   only plain data crosses.
 *
 * @example
 * sandboxLayers('python', true); // ['wasm', 'host-globals-removed', 'node-permissions', 'empty-env', 'network-namespace', 'filesystem-jail', 'unprivileged-user', 'tests-apart']
 */
export function sandboxLayers(_language: CodeLanguage, withTests: boolean): string[] {
  return ['wasm', 'host-globals-removed', 'node-permissions', 'empty-env', ...sandboxJail().layers, ...(withTests ? ['tests-apart'] : [])];
}

/**
 * One line for a worker's start-up log: which layers every sandbox run gets here, and what is
 * missing and why.
 *
 * @example
 * describeSandbox(); // 'sandbox: wasm, host-globals-removed, node-permissions, empty-env, network-namespace, filesystem-jail, unprivileged-user; tests apart'
 */
export function describeSandbox(): string {
  const jail = sandboxJail();
  const layers = sandboxLayers('python', false).join(', ');
  return jail.available
    ? `sandbox: ${layers}; tests run apart from the code`
    : `sandbox: ${layers}; tests run apart from the code; NO JAIL (${jail.reason}): Python code that breaks out of Pyodide could reach the network`;
}
