"""The driver of one job: compiles the code and reports its facts, puts the fakes,
limits and audit hook in place, runs the code's top-level statements one by one,
then calls the functions and methods that reach a request (or the one the job
names) with dummy arguments, drives what they return (coroutines, generators) and
reports how it all ended. _run is the whole job; it never returns."""
import sys
import posix
import _ast
import builtins

from . import job
from .capture import _Enough, _MAXREQ, _nreq
from .dummies import _call_with_dummies, _NoMode
from .facts import _facts, _setup_hooks
from .guard import _apply_limits, _arm, _refuse_dir_fd_open
from .recorders import _FAKES
from .report import _flush, _safe, _send
from .stubs import _fake_environment, _Globals, _prepare_stdlib, _stubbed, _undefined
from .values import _Any, _MISS, _shape

_type, _len, _isinstance, _getattr = type, len, isinstance, getattr
_exit = posix._exit
_BaseException = BaseException


def _drive(res):
    """Runs a coroutine, async generator or generator the code returned."""
    tn = _type(res).__name__
    if tn == "coroutine":
        return _run_coro(res)
    if tn == "async_generator":
        async def consume():
            i = 0
            async for _ in res:
                i += 1
                if i > 50:
                    break
        return _run_coro(consume())
    if tn == "generator":
        i = 0
        for _ in res:
            i += 1
            if i > 50:
                break
    return res


def _run_coro(coro):
    """Runs a coroutine to its end: by hand when nothing it awaits suspends, else
    (and whenever the code names asyncio) on an event loop where sleeps are instant.
    Whether asyncio is loaded does not decide it: a fork server may have loaded it
    for its children (server._OWN), and a run scores the same whoever forked it."""
    if "asyncio" in job.code:
        import asyncio

        async def _no_sleep(delay=0, result=None):
            return result

        asyncio.sleep = _no_sleep
        return asyncio.run(coro)
    # No event loop needed when nothing awaited suspends: drive it by hand.
    try:
        while True:
            y = coro.send(None)
            if y is not None:
                coro.close()
                import asyncio
                raise RuntimeError("coroutine awaited a real future; needs an event loop")
    except StopIteration as e:
        return e.value


def _run():
    """Runs the job and exits; a failure of the harness itself is reported too."""
    try:
        _main()
    except MemoryError:
        _send("end", {"status": "oom", "error": "MemoryError"})
    except _BaseException as e:
        _send("end", {"status": "error", "error": "harness: " + _type(e).__name__ + ": " + _safe(e)})
    _exit(0)


def _main():
    tree = _parse()
    if tree is None:
        _exit(0)
    facts = _facts(tree)
    _send("facts", facts)

    os = _fake_environment()
    _apply_limits(job.cpu_seconds, job.address_space, job.file_size, job.open_files, job.processes)
    _refuse_dir_fd_open(os)
    _prepare_stdlib()
    _arm()
    _send("end", _execute(tree, facts))
    for f in (sys.__stdout__, sys.__stderr__):  # what the code printed, for diagnostics
        try:
            f.flush()
        except _BaseException:
            pass
    _exit(0)


def _parse():
    """The job's code as a syntax tree; None when it does not compile (reported)."""
    try:
        return compile(job.code, "<generation>", "exec", 0x400, dont_inherit=True)
    except _BaseException as e:
        _send("facts", {"syntax": False, "error": _type(e).__name__ + ": " + _safe(e)})
        _send("end", {"status": "error", "error": "syntax"})
        return None


def _execute(tree, facts, extra=None):
    """Runs the code of tree (with its facts) in fresh globals (and the names of
    extra, which the code cannot name), fakes and guard in place, and returns the
    end report."""
    g = _Globals({"__name__": "sccg_user.main", "__package__": "sccg_user", "__builtins__": builtins,
                  "__file__": job.scratch + "/main.py"})
    if extra:
        g.update(extra)
    errors = []

    def note(where, e):
        if _isinstance(e, MemoryError):
            _send("end", {"status": "oom", "error": where + ": MemoryError"})
            _flush()
            _exit(0)
        if _len(errors) < 20:
            errors.append(where + ": " + _type(e).__name__ + ": " + _safe(e)[:300])

    enough = _exec_statements(tree, g, note)
    if "http" in sys.modules and "http.client" not in sys.modules:
        # `import http` alone: the real http.client would have been loaded by now
        sys.modules["http.client"] = _FAKES["http.client"]
        sys.modules["http"].client = _FAKES["http.client"]

    targets = [] if enough else _targets(facts)
    if not enough:
        enough = _run_setup_hooks(g, targets)
    called = _call_targets(targets, g, note)

    out = {"status": "error" if errors else "ok", "called": called, "stubbed": _stubbed[:50], "undefined": _undefined}
    if errors:
        out["error"] = errors[0]
        out["errors"] = errors
    elif _stopped:
        out["error"] = _stopped[0]
    return out


# How many names a run binds to repair a NameError (see _repaired).
_MAX_REPAIRS = 50
_repairs = [0]


def _repaired(g, e):
    """Whether error e was a NameError on a module-level name that a lookup did not
    take to g's __missing__ (a class body, eval, a function with other globals), now
    bound as __missing__ would answer it, so that the failed step can run again."""
    if _type(e) is not NameError or _repairs[0] >= _MAX_REPAIRS:
        return False
    name = _getattr(e, "name", None)
    if _type(name) is not str or not g.bind(name):
        return False
    _repairs[0] += 1
    return True


def _exec_statements(tree, g, note):
    """Runs the code's top-level statements one by one in g, noting the errors (a
    statement that fails on a module-level name runs again with the name bound);
    True when the code sent the most requests a run keeps."""
    Module = _ast.Module
    for node in tree.body:
        code = compile(Module(body=[node], type_ignores=[]), "<generation>", "exec", dont_inherit=True)
        while True:
            try:
                exec(code, g)
            except _Enough:
                return True
            except _BaseException as e:
                if _repaired(g, e):
                    continue
                note("line %d" % _getattr(node, "lineno", 0), e)
            break
    return False


def _targets(facts):
    """The definitions to call: those the job names, else those that reach a request."""
    want = job.function.strip()
    chosen = [d for d in facts["defs"] if d == want or d.endswith("." + want)] if want else []
    return (chosen or facts["reach"])[:40]


def _run_setup_hooks(g, targets):
    """Runs what the application does before it serves (fill a dict of clients) before
    the targets run; a hook that fails is no fault of the target. True when the code
    sent the most requests a run keeps."""
    for d in _setup_hooks:
        if d in targets:
            continue
        try:
            cm = _call_with_dummies(g.get(d), False)
            if _getattr(_type(cm), "__aenter__", None) is not None:
                async def enter(cm=cm):
                    return await cm.__aenter__()
                _drive(enter())
            else:
                _drive(cm)
        except _Enough:
            return True
        except _BaseException:
            pass
    return False


def _call_targets(targets, g, note):
    """Calls each target with dummy arguments, until the code has sent the most
    requests a run keeps; returns how many were called."""
    called = 0
    instances = {}
    for d in targets:
        try:
            if "." in d:
                method = _method(d, g, instances, note)
                if method is None:
                    continue
                fn, bound = method
            else:
                fn = g.get(d)
                if fn is None or not callable(fn):
                    continue
                bound = _type(fn).__name__ == "method"
            called += 1
            _attempts(fn, bound, g)
        except _Enough:
            break
        except _BaseException as e:
            note(d, e)
        if _nreq[0] >= _MAXREQ:
            break
    return called


def _method(d, g, instances, note):
    """The function to call for target Class.method, and whether it is bound (to one
    instance per class, built with dummy arguments); None when there is none."""
    cname, mname = d.split(".", 1)
    cls = g.get(cname)
    if not _isinstance(cls, _type):
        return None
    if cname not in instances:
        if "__getattr__" not in cls.__dict__:
            try:
                cls.__getattr__ = lambda self, n: _Any() if n[:2] != "__" else (_ for _ in ()).throw(AttributeError(n))
            except _BaseException:
                pass
        try:
            init = cls.__init__
            if _getattr(init, "__code__", None) is not None:
                inst = cls.__new__(cls)
                _drive(_call_with_dummies(init.__get__(inst, cls), True))
            else:
                inst = cls()
        except _BaseException as e:
            note(cname + ".__init__", e)
            try:
                inst = object.__new__(cls)
            except _BaseException:
                inst = None
        instances[cname] = inst
    inst = instances[cname]
    raw = cls.__dict__.get(mname)
    if _isinstance(raw, staticmethod):
        fn, bound = raw.__func__, False
    elif _isinstance(raw, classmethod):
        fn, bound = raw.__func__.__get__(cls, _type(cls)), True
    elif inst is not None:
        fn, bound = _getattr(inst, mname), True
    else:
        return None
    if _type(fn).__name__ == "method" and not bound:
        bound = True
    return fn, bound


# The attempts at calling a function, in order, until one sends a request: the
# dummy-argument mode (see dummies._call_with_dummies) and how many items a stub
# holds (values._shape; _MISS: none, and lookups find None). The same for every
# completion: nothing here reads the label.
_ATTEMPTS = ((0, 1), (1, 1), (5, 1), (3, 1), (4, 1), (2, 1), (1, 0), (1, 2), (1, _MISS))


# The error that ended a call after it had sent a request (the run still counts as
# a success): what stopped the code before any later request, for the report.
_stopped = []


def _attempts(fn, bound, g):
    """Calls fn; when a call sends nothing, tries again with other dummies (a call
    that fails on a module-level name runs again with the name bound)."""
    first = None
    try:
        for mode, shape in _ATTEMPTS:
            _shape[0] = shape
            before = _nreq[0]
            err = None
            while True:
                try:
                    _drive(_call_with_dummies(fn, bound, mode))
                except (_NoMode, _Enough):
                    if _nreq[0] >= _MAXREQ:
                        raise _Enough()
                except _BaseException as e:
                    if _isinstance(e, MemoryError):
                        raise
                    if _nreq[0] == before and _repaired(g, e):
                        continue
                    err = e
                    if first is None and shape != _MISS:  # None there is the harness's, not the code's
                        first = e
                break
            if _nreq[0] > before:
                if err is not None and not _stopped:
                    _stopped.append(_getattr(fn, "__name__", "?") + ": " + _type(err).__name__ + ": " + _safe(err)[:300])
                return
    finally:
        _shape[0] = 1
    if first is not None:
        raise first
