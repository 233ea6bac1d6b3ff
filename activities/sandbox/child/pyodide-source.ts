/**
 * The Python engine of a sandbox child (plain JavaScript; uses the prelude's channel and
 * `PY_HARNESS` — see child-source.ts). Pyodide is CPython in WebAssembly, but unlike QuickJS it
 * is *not* a wall: its FFI (`_pyodide_core`, ctypes into Emscripten's own functions) reaches
 * JavaScript, and JavaScript in Node reaches Node's modules (`import()`). So this side only
 * makes the way longer — the `js`/`pyodide_js` modules are unregistered, the bridge modules
 * unloaded and refused by name, the global object emptied (see the prelude), `eval` gone — and
 * the walls are the process's own: the jail (no network, no host files, an unprivileged user),
 * Node's permission model, and the tests in another process that only plain data reaches.
 *
 * Roles: `code` runs the program, reports its names and answers calls until told to end;
 * `tests` runs the test code with stand-ins that call the code over the channel (a blocking
 * round trip through grove), and reports the tally.
 */
export const PYODIDE_SOURCE = String.raw`
const PY_CLEANUP = [
  'import sys, gc',
  'for _m in [m for m in list(sys.modules) if m.split(".")[0] in ("js", "pyodide_js", "pyodide", "_pyodide", "_pyodide_core", "micropip", "pyodide_http")]:',
  '    del sys.modules[_m]',
  'sys.meta_path[:] = [f for f in sys.meta_path if type(f).__module__.split(".")[0] not in ("_pyodide", "pyodide")]',
  'class _GroveRefuse:',
  '    NAMES = ("js", "pyodide_js", "pyodide", "_pyodide", "_pyodide_core", "micropip", "pyodide_http", "ctypes", "_ctypes")',
  '    def find_spec(self, name, path=None, target=None):',
  '        if name.split(".")[0] in self.NAMES:',
  '            raise ImportError("module " + name + " is not available in the grove sandbox")',
  '        return None',
  'sys.meta_path.insert(0, _GroveRefuse())',
  'del _m, _GroveRefuse',
  '# The import hook objects keep the JavaScript modules they served: they forget them.',
  'for _o in gc.get_objects():',
  '    if type(_o).__name__ in ("JsFinder", "JsLoader"):',
  '        try:',
  '            _o.__dict__.clear()',
  '        except Exception:',
  '            pass',
  'del _o',
  'gc.collect()',
].join('\n');

async function bootPython() {
  // Pyodide asks process.binding for the fs constants; the permission model refuses the real one.
  hostProcess.binding = (name) => { if (name === 'constants') return { fs: fs.constants, os: hostRequire('os').constants }; throw new Error('not available in the grove sandbox'); };
  const { loadPyodide } = hostRequire(boot.paths.pyodide + '/pyodide.js');
  const options = { indexURL: boot.paths.pyodide + '/', env: { HOME: '/home/pyodide' }, stdout: () => {}, stderr: () => {}, checkAPIVersion: true };
  let py;
  // A snapshot of a fresh interpreter (made by grove before any code ran) starts ~10x faster.
  if (boot.paths.snapshot) { try { py = await loadPyodide({ ...options, _loadSnapshot: fs.readFileSync(boot.paths.snapshot) }); } catch (e) { py = undefined; } }
  py = py || await loadPyodide(options);
  py.setStdout({ write: (bytes) => { writeAll(1, bytes); return bytes.length; } });
  py.setStderr({ write: (bytes) => { writeAll(2, bytes); return bytes.length; } });
  const ns = py.runPython('dict()');
  py.runPython(PY_HARNESS_SOURCE, { globals: ns, filename: 'grove-harness.py' });
  const harness = { run: ns.get('grove_code_run'), call: ns.get('grove_code_call'), tests: ns.get('grove_tests_run') };
  for (const name of ['js', 'pyodide_js']) { try { py.unregisterJsModule(name); } catch (e) {} }
  py.runPython(PY_CLEANUP, { globals: py.runPython('dict()') });
  return (job) => runPython(py, harness, job);
}

function runPython(py, harness, job) {
  for (const [path, content] of Object.entries(job.files || {})) {
    const full = path.startsWith('/') ? path : '/home/pyodide/' + path;
    const dir = full.slice(0, full.lastIndexOf('/'));
    if (dir) py.FS.mkdirTree(dir);
    py.FS.writeFile(full, content);
  }
  if (job.role === 'tests') {
    const call = (request) => {
      send({ t: 'call', data: request });
      for (;;) {
        const m = readMessage();
        if (m.t === 'reply') return m.data;
      }
    };
    send({ t: 'done', data: harness.tests(job.testCode, job.names, call) });
    exitNow(0);
  }
  send({ t: 'loaded', data: harness.run(job.code) });
  for (;;) {
    const m = readMessage();
    if (m.t === 'call') send({ t: 'reply', data: harness.call(m.data) });
    else exitNow(0);
  }
}
`;
