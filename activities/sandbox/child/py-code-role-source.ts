/**
 * The Python harness's **code** role: runs the submitted program in a fresh namespace
 * (`grove_code_run`), reports the names it defined (functions, modules, plain values), then
 * answers calls (`grove_code_call`): plain data in, the function's result as plain data out (or
 * its exception, or its exit), and the changes it made to the arguments it was given. Nothing
 * here is trusted: the code shares this interpreter and can change any of it — which can only
 * change what the code itself answers. Part of `PY_HARNESS_SOURCE`, after the plain data.
 */
export const PY_CODE_ROLE_SOURCE = String.raw`# ---- the code's role -------------------------------------------------------------------------

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

`;
