import { JS_CALLER_SOURCE, JS_STUBS_SOURCE, JS_TEST_PRELUDE_SOURCE } from './js-harness-source';
import { PLAIN_DATA_SOURCE } from './plain-data-source';
import { PRELUDE_SOURCE } from './prelude-source';
import { PY_HARNESS_SOURCE } from './py-harness-source';
import { PYODIDE_SOURCE } from './pyodide-source';
import { QUICKJS_SOURCE } from './quickjs-source';

/**
 * The program every sandbox child runs, as plain JavaScript source: grove starts
 * `node --experimental-permission -e <this> <boot>` (in the jail when it can), so the child
 * needs no TypeScript loader and reads nothing but the engine packages. It loads its engine,
 * empties its global object, says `ready` on its channel (fd 3), then takes exactly one job.
 */
export const SANDBOX_CHILD_SOURCE = [
  PRELUDE_SOURCE,
  `const PLAIN_DATA_SOURCE = ${JSON.stringify(PLAIN_DATA_SOURCE)};`,
  `const JS_TEST_PRELUDE_SOURCE = ${JSON.stringify(JS_TEST_PRELUDE_SOURCE)};`,
  `const JS_CALLER_SOURCE = ${JSON.stringify(JS_CALLER_SOURCE)};`,
  `const JS_STUBS_SOURCE = ${JSON.stringify(JS_STUBS_SOURCE)};`,
  `const PY_HARNESS_SOURCE = ${JSON.stringify(PY_HARNESS_SOURCE)};`,
  QUICKJS_SOURCE,
  PYODIDE_SOURCE,
  String.raw`
(boot.engine === 'python' ? bootPython() : bootJs()).then((run) => {
  reduceGlobals();
  send({ t: 'ready' });
  run(readMessage());
}, (e) => {
  writeAll(2, 'the sandbox engine could not load: ' + String(e && e.stack || e) + '\n');
  exitNow(70);
});
`,
].join('\n');
