/**
 * The program a sandbox child process runs, as plain JavaScript source: the parent starts
 * `node --experimental-permission -e <this>` so the child needs no TypeScript loader and reads
 * nothing but the engine packages it is allowed to. It receives one job on its IPC channel,
 * runs it in QuickJS (js/ts) or Pyodide (python), and prints protocol lines
 * (`<nonce> {json}`) on stdout — synchronous on Linux pipes, so a result written just before
 * `process.exit` always arrives.
 *
 * Before any user code runs it cuts every bridge to the host it can reach: `require`, `module`,
 * `process.mainModule`, `process.binding`, `process.dlopen`, `getBuiltinModule`, `fetch` and
 * friends are removed from the child's globals (Pyodide's `js` module *is* that global object), and
 * Python's `js`/`pyodide_js`/`pyodide.*` modules are unloaded and blocked from import. The
 * permission model (no file reads outside the engines, no writes, no child processes, no worker
 * threads) and an empty environment stand behind that, in case a bridge is ever found.
 */
export const SANDBOX_CHILD_SOURCE = String.raw`
'use strict';
const hostRequire = require;
const nodeFs = hostRequire('fs');
const nodeOs = hostRequire('os');
// The engine is chosen at start (argv) and loaded before any job arrives, so a spare child can
// wait ready; the job (code, limits) comes later on the IPC channel, exactly once.
const boot = JSON.parse(process.argv[process.argv.length - 1]);
let job;
let nonce = boot.nonce;
let stdout = '';
let stderr = '';
let overflow = false;
function send(msg) { process.stdout.write(nonce + ' ' + JSON.stringify(msg) + '\n'); }
function finish(outcome) {
  outcome.stdout = stdout;
  outcome.stderr = stderr;
  send({ type: 'done', outcome });
  process.exit(0);
}
function write(stream, text) {
  if (overflow) return;
  const room = job.maxOutputChars - (stream === 'out' ? stdout.length : stderr.length);
  if (text.length > room) {
    if (stream === 'out') stdout += text.slice(0, Math.max(0, room)); else stderr += text.slice(0, Math.max(0, room));
    overflow = true;
    finish({ ok: false, error: { kind: 'output', message: 'the program printed more than ' + job.maxOutputChars + ' characters to std' + stream + '; output truncated and the run stopped' }, durationMs: Date.now() - started });
    return;
  }
  if (stream === 'out') stdout += text; else stderr += text;
}
function cutHostBridges() {
  for (const name of ['require', 'module', 'exports', '__filename', '__dirname', 'fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest', 'Request', 'Response', 'Headers', 'FormData', 'BroadcastChannel', 'MessageChannel', 'Worker', 'SharedArrayBuffer']) {
    try { delete globalThis[name]; } catch (e) {}
    try { if (name in globalThis) globalThis[name] = undefined; } catch (e) {}
  }
  const denied = () => { throw new Error('not available in the grove sandbox'); };
  for (const name of ['mainModule', 'dlopen', 'binding', '_linkedBinding', 'getBuiltinModule', 'kill', 'chdir', 'setuid', 'setgid', 'abort', 'openStdin']) {
    try { Object.defineProperty(process, name, { value: name === 'mainModule' ? undefined : denied, configurable: false, writable: false }); } catch (e) {}
  }
  for (const key of Object.keys(process.env)) delete process.env[key];
}
let started = Date.now();

async function loadJs() {
  const { getQuickJS } = hostRequire(boot.paths.quickjs);
  const QuickJS = await getQuickJS();
  cutHostBridges();
  send({ type: 'ready', rss: process.memoryUsage().rss });
  return () => runJs(QuickJS);
}

async function runJs(QuickJS) {
  started = Date.now();
  const rt = QuickJS.newRuntime();
  rt.setMemoryLimit(job.memoryMb * 1024 * 1024);
  rt.setMaxStackSize(256 * 1024);
  const deadline = started + job.timeoutMs;
  let timedOut = false;
  rt.setInterruptHandler(() => { if (overflow) return true; if (Date.now() > deadline) { timedOut = true; return true; } return false; });
  const vm = rt.newContext();
  const consoleObj = vm.newObject();
  for (const [name, stream] of [['log', 'out'], ['info', 'out'], ['debug', 'out'], ['warn', 'err'], ['error', 'err']]) {
    const fn = vm.newFunction(name, (...args) => {
      const parts = args.map((h) => { const v = vm.dump(h); return typeof v === 'string' ? v : JSON.stringify(v); });
      write(stream, parts.join(' ') + '\n');
    });
    vm.setProp(consoleObj, name, fn);
    fn.dispose();
  }
  vm.setProp(vm.global, 'console', consoleObj);
  consoleObj.dispose();
  const prelude = [
    'globalThis.__grove = { passed: 0, total: 0, failures: [], current: undefined };',
    'globalThis.assert = function assert(cond, message) {',
    '  __grove.total++;',
    '  if (cond) { __grove.passed++; return; }',
    '  const at = /tests\\.js:(\\d+)/.exec(new Error().stack || "");',
    '  __grove.failures.push({ message: (__grove.current ? __grove.current + ": " : "") + (message || "assertion failed"), line: at ? Number(at[1]) : undefined, test: __grove.current });',
    '};',
    'assert.equal = (a, b, m) => assert(JSON.stringify(a) === JSON.stringify(b), m || ("expected " + JSON.stringify(b) + ", got " + JSON.stringify(a)));',
    'assert.deepEqual = assert.equal;',
    'globalThis.test = function test(name, fn) {',
    '  __grove.current = name;',
    '  try { fn(); } catch (e) { __grove.total++; __grove.failures.push({ message: name + ": " + e, test: name }); }',
    '  __grove.current = undefined;',
    '};',
  ].join('\n');
  vm.unwrapResult(vm.evalCode(prelude, 'prelude.js')).dispose();

  function describe(handle, file) {
    let e;
    try { e = vm.dump(handle); } catch (err) { e = { name: 'Error', message: String(err && err.message || err) }; }
    if (handle.alive) handle.dispose();
    const name = e && e.name ? String(e.name) : 'Error';
    const message = e && e.message !== undefined ? name + ': ' + e.message : String(e);
    const stack = e && e.stack ? String(e.stack) : '';
    const at = /solution\.js:(\d+)/.exec(stack) || (file === 'solution.js' ? null : new RegExp(file.replace('.', '\\.') + ':(\\d+)').exec(stack));
    let kind = 'runtime';
    if (timedOut) kind = 'timeout';
    else if (name === 'SyntaxError') kind = 'syntax';
    else if (/out of memory|string too long|array too long|invalid array length/i.test(message)) kind = 'memory';
    else if (/stack overflow/i.test(message)) kind = 'runtime';
    const error = { kind, message: kind === 'timeout' ? 'the program ran longer than ' + job.timeoutMs + ' ms' : message };
    if (at && /solution\.js/.test(at[0])) error.line = Number(at[1]);
    return error;
  }
  function run(source, file) {
    const r = vm.evalCode(source, file);
    if (r.error) return { error: describe(r.error, file) };
    let value;
    const handle = r.value;
    try { value = vm.dump(handle); } catch (e) { value = undefined; }
    if (handle.alive) handle.dispose();
    const jobs = rt.executePendingJobs();
    if (jobs.error) return { error: describe(jobs.error, file) };
    return { value };
  }
  const main = run(job.code, 'solution.js');
  if (main.error) return finish({ ok: false, error: main.error, durationMs: Date.now() - started });
  if (job.testCode === undefined) return finish({ ok: true, result: safe(main.value), durationMs: Date.now() - started });
  const tests = run(job.testCode, 'tests.js');
  const tally = JSON.parse(vm.dump(vm.unwrapResult(vm.evalCode('JSON.stringify(__grove)'))));
  const counts = { passed: tally.passed, total: tally.total };
  if (tests.error) return finish({ ok: false, error: tests.error, durationMs: Date.now() - started, tests: counts });
  if (tally.failures.length > 0) {
    const f = tally.failures[0];
    const error = { kind: 'test', message: f.message + (tally.failures.length > 1 ? ' (and ' + (tally.failures.length - 1) + ' more failing)' : '') };
    if (f.test) error.test = f.test;
    return finish({ ok: false, error, durationMs: Date.now() - started, tests: counts });
  }
  finish({ ok: true, result: safe(main.value), durationMs: Date.now() - started, tests: counts });
}

function safe(value) {
  if (value === undefined) return undefined;
  try { return JSON.parse(JSON.stringify(value)); } catch (e) { return String(value); }
}

const PY_PRELUDE = [
  'import sys, json, ast, traceback',
  'for _m in [m for m in list(sys.modules) if m.split(".")[0] in ("js", "pyodide_js", "pyodide", "_pyodide", "micropip")]:',
  '    del sys.modules[_m]',
  'class _GroveBlock:',
  '    BLOCKED = ("js", "pyodide_js", "pyodide", "_pyodide", "_pyodide_core", "micropip", "pyodide_http", "ctypes", "_ctypes")',
  '    def find_spec(self, name, path=None, target=None):',
  '        if name.split(".")[0] in self.BLOCKED:',
  '            raise ImportError("module " + name + " is not available in the grove sandbox")',
  '        return None',
  'sys.meta_path.insert(0, _GroveBlock())',
  '_grove_tally = {"passed": 0, "total": 0, "failures": []}',
  '_grove_current = [None]',
  'def _grove_assert(cond, msg, line, source):',
  '    _grove_tally["total"] += 1',
  '    try:',
  '        ok = cond()',
  '    except Exception as e:',
  '        _grove_tally["failures"].append({"message": "line " + str(line) + ": " + source + " raised " + type(e).__name__ + ": " + str(e), "test": _grove_current[0]})',
  '        return',
  '    if ok:',
  '        _grove_tally["passed"] += 1',
  '    else:',
  '        m = msg() if msg is not None else None',
  '        _grove_tally["failures"].append({"message": "line " + str(line) + ": " + source + " failed" + (": " + str(m) if m is not None else ""), "test": _grove_current[0]})',
  'class _GroveAsserts(ast.NodeTransformer):',
  '    def __init__(self, text):',
  '        self.text = text',
  '    def visit_Assert(self, node):',
  '        src = ast.get_source_segment(self.text, node) or "assert"',
  '        lam = lambda e: ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]), body=e)',
  '        call = ast.Call(func=ast.Name(id="_grove_assert", ctx=ast.Load()), args=[lam(node.test), lam(node.msg) if node.msg else ast.Constant(None), ast.Constant(node.lineno), ast.Constant(src[:300])], keywords=[])',
  '        return ast.copy_location(ast.Expr(call), node)',
  'def _grove_error(e, filename):',
  '    if isinstance(e, SyntaxError) and e.filename == filename:',
  '        return {"kind": "syntax", "message": type(e).__name__ + ": " + str(e.msg), "line": e.lineno}',
  '    kind = "memory" if isinstance(e, MemoryError) else "runtime"',
  '    frames = traceback.extract_tb(e.__traceback__)',
  '    line = next((f.lineno for f in reversed(frames) if f.filename == "solution.py"), None)',
  '    out = {"kind": kind, "message": "".join(traceback.format_exception_only(type(e), e)).strip()}',
  '    if line is not None: out["line"] = line',
  '    tb = [f for f in frames if f.filename in ("solution.py", "tests.py")]',
  '    if tb: out["message"] += "\\n" + "".join(traceback.format_list(tb)).rstrip()',
  '    return out',
  '_grove_ns = {"__name__": "__main__"}',
  'def _grove_run(source, filename, tests):',
  '    try:',
  '        tree = ast.parse(source, filename)',
  '        if tests:',
  '            tree = ast.fix_missing_locations(_GroveAsserts(source).visit(tree))',
  '        code = compile(tree, filename, "exec")',
  '    except SyntaxError as e:',
  '        return json.dumps({"error": _grove_error(e, filename)})',
  '    _grove_ns["_grove_assert"] = _grove_assert',
  '    try:',
  '        exec(code, _grove_ns)',
  '        if tests:',
  '            for name, fn in list(_grove_ns.items()):',
  '                if name.startswith("test_") and callable(fn):',
  '                    _grove_current[0] = name',
  '                    before = len(_grove_tally["failures"])',
  '                    try:',
  '                        fn()',
  '                    except Exception as e:',
  '                        _grove_tally["total"] += 1',
  '                        _grove_tally["failures"].append({"message": name + ": " + _grove_error(e, filename)["message"], "test": name})',
  '                    _grove_current[0] = None',
  '    except BaseException as e:',
  '        if isinstance(e, SystemExit) and not tests:',
  '            return json.dumps({})',
  '        return json.dumps({"error": _grove_error(e, filename)})',
  '    return json.dumps({})',
].join('\n');

async function loadPython() {
  // Pyodide asks process.binding for the fs constants; the permission model refuses the real one.
  process.binding = (name) => { if (name === 'constants') return { fs: nodeFs.constants, os: nodeOs.constants }; throw new Error('not available in the grove sandbox'); };
  const { loadPyodide } = hostRequire(boot.paths.pyodide + '/pyodide.js');
  const py = await loadPyodide({ indexURL: boot.paths.pyodide + '/', env: { HOME: '/home/pyodide' }, stdout: () => {}, stderr: () => {}, checkAPIVersion: true });
  py.setStdout({ batched: (s) => write('out', s + '\n') });
  py.setStderr({ batched: (s) => write('err', s + '\n') });
  py.runPython(PY_PRELUDE);
  const runner = py.globals.get('_grove_run');
  cutHostBridges();
  send({ type: 'ready', rss: process.memoryUsage().rss });
  return () => runPython(py, runner);
}

async function runPython(py, runner) {
  started = Date.now();
  for (const [path, content] of Object.entries(job.files || {})) {
    const full = path.startsWith('/') ? path : '/home/pyodide/' + path;
    const dir = full.slice(0, full.lastIndexOf('/'));
    if (dir) py.FS.mkdirTree(dir);
    py.FS.writeFile(full, content);
  }
  const main = JSON.parse(runner(job.code, 'solution.py', false));
  if (main.error) return finish({ ok: false, error: main.error, durationMs: Date.now() - started });
  if (job.testCode === undefined) return finish({ ok: true, durationMs: Date.now() - started });
  const tests = JSON.parse(runner(job.testCode, 'tests.py', true));
  const tally = JSON.parse(py.runPython('json.dumps(_grove_tally)'));
  const counts = { passed: tally.passed, total: tally.total };
  if (tests.error) return finish({ ok: false, error: tests.error, durationMs: Date.now() - started, tests: counts });
  if (tally.failures.length > 0) {
    const f = tally.failures[0];
    const error = { kind: 'test', message: f.message + (tally.failures.length > 1 ? ' (and ' + (tally.failures.length - 1) + ' more failing)' : '') };
    if (f.test) error.test = f.test;
    return finish({ ok: false, error, durationMs: Date.now() - started, tests: counts });
  }
  finish({ ok: true, durationMs: Date.now() - started, tests: counts });
}

const engine = boot.engine === 'python' ? loadPython() : loadJs();
engine.catch(() => {}); // reported when the job arrives
process.on('message', (message) => {
  job = message;
  process.removeAllListeners('message');
  process.disconnect && process.disconnect();
  engine.then((run) => run()).catch((e) => {
    const text = String(e && e.message || e).slice(0, 500);
    // What the code provoked in the host is the code's error, not a broken sandbox.
    if (/Maximum call stack/i.test(text)) return finish({ ok: false, error: { kind: 'runtime', message: 'RangeError: stack overflow (too deep recursion)' }, durationMs: Date.now() - started });
    if (/memory|Allocation failed/i.test(text)) return finish({ ok: false, error: { kind: 'memory', message: 'the program ran out of memory: ' + text }, durationMs: Date.now() - started });
    if (/Access to this API has been restricted|not available in the grove sandbox|ERR_ACCESS_DENIED/.test(text)) return finish({ ok: false, error: { kind: 'runtime', message: 'the sandbox refused an operation: ' + text }, durationMs: Date.now() - started });
    finish({ ok: false, error: { kind: 'sandbox', message: 'the sandbox failed: ' + text }, durationMs: Date.now() - started });
  });
});
`;
