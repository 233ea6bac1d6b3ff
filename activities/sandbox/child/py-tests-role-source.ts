/**
 * The Python harness's **tests** role (`grove_tests_run`), in a process of its own: a stand-in
 * for each function the code defined (a call goes over the channel to the code's process), a
 * copy of each plain value and the modules the code imported; `assert` statements rewritten so
 * every one counts and one failure does not stop the rest; `test_*` functions and
 * `unittest.TestCase` classes run. An exit of the code during a call, or of the tests themselves,
 * means the tests did not complete. The last part of `PY_HARNESS_SOURCE`.
 */
export const PY_TESTS_ROLE_SOURCE = String.raw`# ---- the tests' role -------------------------------------------------------------------------

class GroveCodeExited(BaseException):
    """The code under test ended (sys.exit, os._exit, a crash) while a test was calling it."""

class GroveCodeError(Exception):
    """An exception of the code under test that is not one of Python's own."""

_tally = {"passed": 0, "total": 0, "failures": []}
_current = [None]

def _grove_assert(cond, msg, line, source):
    _tally["total"] += 1
    try:
        ok = cond()
    except Exception as e:
        _tally["failures"].append({"message": "line " + str(line) + ": " + source + " raised " + type(e).__name__ + ": " + str(e), "test": _current[0]})
        return
    if ok:
        _tally["passed"] += 1
    else:
        m = msg() if msg is not None else None
        _tally["failures"].append({"message": "line " + str(line) + ": " + source + " failed" + (": " + str(m) if m is not None else ""), "test": _current[0]})

class _Asserts(ast.NodeTransformer):
    def __init__(self, text):
        self.text = text
    def visit_Assert(self, node):
        src = ast.get_source_segment(self.text, node) or "assert"
        lam = lambda e: ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]), body=e)
        call = ast.Call(func=ast.Name(id="_grove_assert", ctx=ast.Load()), args=[lam(node.test), lam(node.msg) if node.msg else ast.Constant(None), ast.Constant(node.lineno), ast.Constant(src[:300])], keywords=[])
        return ast.copy_location(ast.Expr(call), node)

def _raise_for(err):
    name = str(err.get("type", "Error"))
    message = str(err.get("message", ""))
    if err.get("line") is not None:
        message += " (solution.py, line " + str(err["line"]) + ")"
    cls = getattr(builtins, name, None)
    # Exceptions that steer iteration (StopIteration ends a loop or all() early) stay the code's own.
    if isinstance(cls, type) and issubclass(cls, Exception) and not issubclass(cls, (StopIteration, StopAsyncIteration)):
        try:
            return cls(message)
        except Exception:
            pass
    e = GroveCodeError(name + ": " + message)
    return e

def _apply(target, after):
    if type(target) is list and type(after) is list:
        target[:] = after
    elif type(target) is dict and type(after) is dict:
        target.clear(); target.update(after)
    elif type(target) is set and type(after) in (set, frozenset):
        target.clear(); target.update(after)
    elif type(target) is bytearray and type(after) is bytearray:
        target[:] = after

def _stub(name, host_call):
    def stub(*args, **kwargs):
        try:
            request = _dumps({"name": name, "args": [_enc(a) for a in args], "kwargs": {str(k): _enc(v) for k, v in kwargs.items()}})
        except _NotPlain as e:
            raise TypeError("the tests pass " + str(e) + " to " + name + "(): only plain data crosses from the tests to the code") from None
        r = json.loads(host_call(request))
        if "exit" in r:
            raise GroveCodeExited(r["exit"])
        if "error" in r:
            raise _raise_for(r["error"]) from None
        for i, after in (r.get("changed") or {}).items():
            _apply(args[int(i)], _dec(after))
        return _dec(r["value"])
    stub.__name__ = stub.__qualname__ = name
    return stub

class _Opaque:
    def __init__(self, name, kind):
        object.__setattr__(self, "_grove_why", "the tests use " + name + ", a " + kind + " of the code under test: grove runs the tests apart from the code, and only plain data crosses")
    def _refuse(self, *a, **k):
        raise TypeError(object.__getattribute__(self, "_grove_why"))
    __getattr__ = __call__ = __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __bool__ = __len__ = __iter__ = __getitem__ = __contains__ = __hash__ = __repr__ = __str__ = _refuse

def _used_names(tree):
    """The names the test code itself uses: only these get stand-ins."""
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}

def _bind(ns, names, used, host_call):
    """Stand-ins for the code's names the tests use. Returns a refusal when the code replaced a builtin the tests use."""
    for name, info in names.items():
        if type(name) is not str or not name.isidentifier() or name not in used or type(info) is not dict:
            continue
        if name.startswith("__") or name.startswith("_grove"):
            continue
        if hasattr(builtins, name):
            return "the code defines " + name + ", one of Python's builtins, and the tests use it: grove does not let the code under test replace what the tests rely on (rename it)"
        kind = info.get("kind")
        try:
            if kind == "function":
                ns[name] = _stub(name, host_call)
            elif kind == "module":
                module = info.get("module")
                top = module.split(".")[0] if type(module) is str else ""
                if top in sys.stdlib_module_names and all(p.isidentifier() for p in module.split(".")):
                    ns[name] = importlib.import_module(module)
            elif kind == "data":
                ns[name] = _dec(info["value"])
            else:
                ns[name] = _Opaque(name, str(info.get("type", "object")) + " object")
        except Exception:
            pass
    return None

def _run_test_function(name, fn):
    _current[0] = name
    try:
        r = fn()
        if isinstance(r, (types.CoroutineType, types.GeneratorType)):
            r.close()
            _tally["total"] += 1
            _tally["failures"].append({"message": name + ": an async or generator test function never runs its body here; write a plain function", "test": name})
    except Exception as e:
        _tally["total"] += 1
        _tally["failures"].append({"message": name + ": " + _error(e, "tests.py")["message"], "test": name})
    _current[0] = None

def _run_unittest_cases(ns):
    """unittest.TestCase classes the tests define: each test method counts as one assertion."""
    unittest = sys.modules.get("unittest")
    if unittest is None:
        return
    for name, cls in list(ns.items()):
        if not (isinstance(cls, type) and issubclass(cls, unittest.TestCase) and cls.__module__ == "__main__"):
            continue
        result = unittest.TestResult()
        unittest.TestLoader().loadTestsFromTestCase(cls).run(result)
        _tally["total"] += result.testsRun
        bad = result.failures + result.errors + [(t, "unexpected success") for t in result.unexpectedSuccesses]
        _tally["passed"] += result.testsRun - len(bad) - len(result.skipped)
        for test, text in bad:
            _tally["failures"].append({"message": str(test) + ": " + text.strip().splitlines()[-1][:500], "test": name})

def grove_tests_run(source, names_json, host_call):
    ns = {"__name__": "__main__", "__builtins__": builtins}
    try:
        tree = ast.parse(source, "tests.py")
        used = _used_names(tree)
        tree = ast.fix_missing_locations(_Asserts(source).visit(tree))
        code = compile(tree, "tests.py", "exec")
    except SyntaxError as e:
        err = _error(e, "tests.py")
        err["message"] = "in the tests: " + err["message"]
        err.pop("line", None)
        return _dumps({"tally": _tally, "completed": False, "error": err})
    try:
        names = json.loads(names_json)
    except Exception:
        names = {}
    refused = _bind(ns, names if type(names) is dict else {}, used, host_call)
    if refused:
        return _dumps({"tally": _tally, "completed": False, "error": {"kind": "runtime", "message": refused}})
    ns["_grove_assert"] = _grove_assert
    if "unittest" in source:
        # unittest.main() would exit: grove runs the TestCase classes itself.
        import unittest
        unittest.main = lambda *a, **k: None
    error = None
    completed = False
    try:
        exec(code, ns)
        for name, fn in list(ns.items()):
            if name.startswith("test_") and isinstance(fn, types.FunctionType) and fn.__code__.co_filename == "tests.py":
                _run_test_function(name, fn)
        _run_unittest_cases(ns)
        completed = True
    except GroveCodeExited as e:
        error = {"kind": "runtime", "message": "the code under test exited (status " + str(e.args[0]) + ") while the tests were calling it: the tests did not complete"}
    except SystemExit as e:
        error = {"kind": "runtime", "message": "the tests stopped early (sys.exit(" + str(e.code) + ")): they did not complete"}
    except BaseException as e:
        error = _error(e, "tests.py")
        error["message"] = "in the tests: " + error["message"]
        error.pop("line", None)
    out = {"tally": _tally, "completed": completed}
    if error is not None:
        out["error"] = error
    return _dumps(out)
`;
