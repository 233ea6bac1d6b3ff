/**
 * The Python harness's shared half: how values cross between the code under test and its tests
 * as *plain data* (`_enc` writes tagged JSON, `_dec` rebuilds it: numbers, strings, lists,
 * tuples, dicts, sets, bytes, None, Decimal, Fraction — never an object of the code's own
 * classes), and how an exception or an exit is reported (`_error`, `_exit_status`). The first
 * part of `PY_HARNESS_SOURCE`.
 */
export const PY_PLAIN_DATA_SOURCE = String.raw`
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

`;
