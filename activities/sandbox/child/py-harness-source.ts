import { PY_CODE_ROLE_SOURCE } from './py-code-role-source';
import { PY_PLAIN_DATA_SOURCE } from './py-plain-data-source';
import { PY_TESTS_ROLE_SOURCE } from './py-tests-role-source';

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
export const PY_HARNESS_SOURCE = PY_PLAIN_DATA_SOURCE + PY_CODE_ROLE_SOURCE + PY_TESTS_ROLE_SOURCE;
