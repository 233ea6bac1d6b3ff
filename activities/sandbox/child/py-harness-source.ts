/**
 * The Python side of grove's sandbox harness, loaded into every Pyodide child before it takes a
 * job (the child's role decides which half runs).
 *
 * The **code** role runs the submitted program in a fresh namespace, reports the names it
 * defined (functions, modules, plain values), then answers calls: plain data in, the function's
 * result as plain data out (or its exception, or its exit). Nothing here is trusted: the code
 * shares this interpreter and can change any of it — which can only change what the code itself
 * answers.
 *
 * The **tests** role runs in another process. Its namespace holds a stand-in for each function
 * the code defined (a call goes over the channel to the code's process and comes back as plain
 * data, rebuilt here: numbers, strings, lists, tuples, dicts, sets, bytes, None, Decimal,
 * Fraction — never an object of the code's own classes, whose `__eq__` the code would write), a
 * copy of each plain value and the modules the code imported. `assert` statements are rewritten
 * so that every one counts and one failure does not stop the rest; `test_*` functions the test
 * code defines are called. An exit of the code during a call, or of the tests themselves, means
 * the tests did not complete.
 */
export const PY_HARNESS_SOURCE = String.raw`
import ast, base64, builtins, importlib, json, math, sys, traceback, types
from decimal import Decimal
from fractions import Fraction

# Plain data of any size crosses (grove bounds the messages): no 4,300-digit limit on ints.
sys.set_int_max_str_digits(0)

class _NotPlain(Exception):
    pass

_BASES = (bool, int, float, str, bytes, bytearray, list, tuple, dict, set, frozenset, complex)

def _enc(v, depth=0):
    if depth > 200:
        raise _NotPlain("data nested more than 200 levels deep")
    t = type(v)
    if v is None or t is bool or t is int or t is str:
        return v
    if t is float:
        return v if math.isfinite(v) else {"$float": repr(v)}
    if t is list:
        return [_enc(x, depth + 1) for x in v]
    if t is tuple:
        return {"$tuple": [_enc(x, depth + 1) for x in v]}
    if t is dict:
        return {"$dict": [[_enc(k, depth + 1), _enc(x, depth + 1)] for k, x in v.items()]}
    if t is set or t is frozenset:
        return {"$" + t.__name__: [_enc(x, depth + 1) for x in v]}
    if t is bytes or t is bytearray:
        return {"$" + t.__name__: base64.b64encode(v).decode()}
    if t is complex:
        return {"$complex": [_enc(v.real, depth + 1), _enc(v.imag, depth + 1)]}
    if t is Decimal:
        return {"$decimal": str(v)}
    if t is Fraction:
        return {"$fraction": [v.numerator, v.denominator]}
    for base in _BASES:
        if isinstance(v, base):
            # A subclass of a plain type crosses as that type: its own methods stay behind.
            return _enc(base(v), depth)
    raise _NotPlain("a " + t.__qualname__ + " object, which is not plain data")

def _dec(j):
    if j is None or type(j) in (bool, int, float, str):
        return j
    if type(j) is list:
        return [_dec(x) for x in j]
    if type(j) is not dict or len(j) != 1:
        raise TypeError("not grove plain data")
    (tag, v), = j.items()
    if tag == "$float": return float(v)
    if tag == "$tuple": return tuple(_dec(x) for x in v)
    if tag == "$dict": return {_dec(k): _dec(x) for k, x in v}
    if tag == "$set": return set(_dec(x) for x in v)
    if tag == "$frozenset": return frozenset(_dec(x) for x in v)
    if tag == "$bytes": return base64.b64decode(v)
    if tag == "$bytearray": return bytearray(base64.b64decode(v))
    if tag == "$complex": return complex(_dec(v[0]), _dec(v[1]))
    if tag == "$decimal": return Decimal(v)
    if tag == "$fraction": return Fraction(int(v[0]), int(v[1]))
    raise TypeError("not grove plain data")

def _dumps(value):
    return json.dumps(value, allow_nan=False, separators=(",", ":"))

def _exit_status(e):
    code = e.code
    return 0 if code is None else code if type(code) is int else 1

def _error(e, filename):
    if isinstance(e, SyntaxError) and e.filename == filename:
        return {"kind": "syntax", "message": type(e).__name__ + ": " + str(e.msg), "line": e.lineno}
    kind = "memory" if isinstance(e, MemoryError) else "runtime"
    frames = traceback.extract_tb(e.__traceback__)
    out = {"kind": kind, "message": "".join(traceback.format_exception_only(type(e), e)).strip(), "type": type(e).__name__}
    line = next((f.lineno for f in reversed(frames) if f.filename == "solution.py"), None)
    if line is not None:
        out["line"] = line
    tb = [f for f in frames if f.filename in ("solution.py", "tests.py")]
    if tb:
        out["trace"] = "".join(traceback.format_list(tb)).rstrip()[-2000:]
    return out

# ---- the code's role -------------------------------------------------------------------------

_code_ns = {"__name__": "__main__", "__builtins__": builtins}

def _names():
    out = {}
    for k, v in list(_code_ns.items()):
        if k.startswith("__") and k.endswith("__"):
            continue
        if isinstance(v, types.ModuleType):
            out[k] = {"kind": "module", "module": v.__name__}
        elif callable(v):
            out[k] = {"kind": "function"}
        else:
            try:
                out[k] = {"kind": "data", "value": _enc(v)}
            except Exception:
                out[k] = {"kind": "object", "type": type(v).__qualname__}
    return out

def grove_code_run(source):
    try:
        code = compile(source, "solution.py", "exec")
    except SyntaxError as e:
        return _dumps({"error": _error(e, "solution.py")})
    try:
        exec(code, _code_ns)
    except SystemExit as e:
        return _dumps({"exit": _exit_status(e), "names": _dumps(_names())})
    except BaseException as e:
        return _dumps({"error": _error(e, "solution.py")})
    return _dumps({"names": _dumps(_names())})

def grove_code_call(request):
    try:
        r = json.loads(request)
        name = r["name"]
        args = [_dec(a) for a in r["args"]]
        kwargs = {k: _dec(v) for k, v in r["kwargs"].items()}
    except Exception as e:
        return _dumps({"error": {"type": "TypeError", "message": "grove could not pass the arguments: " + str(e)}})
    fn = _code_ns.get(name)
    if fn is None:
        return _dumps({"error": {"type": "NameError", "message": "name '" + str(name) + "' is not defined"}})
    try:
        value = fn(*args, **kwargs)
    except SystemExit as e:
        return _dumps({"exit": _exit_status(e)})
    except BaseException as e:
        return _dumps({"error": _error(e, None)})
    try:
        reply = {"value": _enc(value)}
    except _NotPlain as e:
        return _dumps({"error": {"type": "TypeError", "message": str(name) + "() returned " + str(e) + ": only plain data crosses from the code to the tests", "notPlain": True}})
    changed = {}
    for i, (before, a) in enumerate(zip(r["args"], args)):
        if type(a) in (list, dict, set, bytearray):
            try:
                after = _enc(a)
            except Exception:
                continue
            if after != before:
                changed[str(i)] = after
    if changed:
        reply["changed"] = changed
    return _dumps(reply)

# ---- the tests' role -------------------------------------------------------------------------

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
