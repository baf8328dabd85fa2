"""A batch child: one sandboxed process, forked by a fork server, that runs tame
jobs one after another, each in fresh globals with the harness's state, fakes and
dummies as a child of its own would find them, and after each verifies that
nothing the next job could see has changed.

The Go side sends one job at a time on the job socket, and the next only once the
child has reported the last one verified: a job's nonce is nowhere in the process
before the jobs before it are over. A job that is not tame (tame._wild) does not
run; the child reports it "wild" and the Go side runs it in a child of its own.
A tame job's every attribute and item store goes through a check as it runs
(_guard_stores): a store into a module, a class the code did not define or an
object every job shares marks the job, however the code reached it. After each
job the child puts back what the harness itself changed around the code (the
fakes in sys.modules and the standard modules, the environment, the logging and
warnings set-up, the random state, decimal's context) and compares with how it was
before the first job what the standard library changes when the code calls it and
the rest of what is shared: sys.modules (keys and identities), sys's
attributes, import machinery and limits, the namespace of every loaded module and
the attributes of the classes and objects at their top level, the fake modules, os.environ, the working directory, the scratch directory's contents, the
open descriptors, the threads, signal handlers and timers, atexit. A job that set
an attribute of a class it did not define, or asked for a descriptor or /proc
(which only batching forbids), is marked by an audit hook too. A mark or a
difference ends the batch: the child reports it and exits, and the Go side runs the
job again in a child of its own, and the rest in a fresh batch."""
import sys
import posix
import _signal
import time
import _ast
from itertools import chain as _chains
from itertools import compress as _compress
from operator import is_ as _is, ne as _ne, methodcaller as _methodcaller

from . import job
from . import report
from . import run
from . import stubs
from . import tame
from . import values
from .facts import _GUARD, _GUARD_CALL, _facts, _walk
from .guard import _abspath, _apply_limits, _arm, _armed_cpu, _refuse_dir_fd_open
from .recorders import _FAKES

_type, _len, _isinstance, _all, _getattr, _issubclass = type, len, isinstance, all, getattr, issubclass
# An object's identity, as id() tells it apart (its address, rotated), without
# the audit event id() raises: in a batch child every event runs two hooks,
# about a microsecond, and the checks ask hundreds of times a job.
_id = object.__hash__
_tuple, _list, _dict, _set, _str, _map, _range = tuple, list, dict, set, str, map, range
_chain, _values = _chains.from_iterable, _methodcaller("values")
from gc import collect as _gc_collect, freeze as _gc_freeze
_BaseException = BaseException
_exit = posix._exit

# What a batch child imports before its first job: the standard modules tame code
# imports (tame._ALLOW) and those they load lazily, so a job's import binds a name
# and changes nothing shared.
_PRELOAD = ("__future__", "json", "json.decoder", "json.encoder", "datetime", "_strptime", "time", "urllib", "urllib.parse",
            "base64", "hashlib", "hmac", "logging", "logging.handlers", "typing", "re", "random", "math", "uuid",
            "collections", "collections.abc", "functools", "itertools", "dataclasses", "enum", "string",
            "textwrap", "copy", "csv", "io", "pathlib", "traceback", "html", "html.parser", "http", "email",
            "email.utils", "email.message", "mimetypes", "secrets", "statistics", "fractions", "abc",
            "contextlib", "warnings", "argparse", "calendar", "binascii", "zlib", "gzip", "pprint", "numbers",
            "xml", "xml.etree", "xml.etree.ElementTree", "xml.dom", "xml.dom.minidom", "shlex", "ast", "bisect",
            "heapq", "configparser", "struct", "difflib", "unicodedata", "urllib.error", "zoneinfo", "atexit",
            "encodings.idna", "encodings.ascii", "encodings.latin_1", "encodings.unicode_escape", "ssl", "glob", "fnmatch",
            "decimal", "shutil", "email.parser", "email.feedparser", "email.mime", "email.mime.text",
            "email.mime.multipart", "email.mime.base", "email.headerregistry", "email._header_value_parser",
            "http.cookies", "xml.parsers", "xml.parsers.expat", "encodings.cp1252",
            "encodings.utf_16", "encodings.utf_8_sig",
            # not tame to use, but an unused import of a loaded module binds a name only
            "pickle")

# The harness's own per-job changes around the code: (module name, attribute).
_PATCHED = (("builtins", "input"), ("builtins", "open"), ("io", "open"), ("time", "sleep"), ("os", "environ"),
            ("os", "getenv"), ("sys", "argv"), ("sys", "stdin"), ("http", "client"), ("urllib", "request"), ("urllib.parse", "quote"),
            ("urllib.parse", "quote_plus"), ("urllib.parse", "unquote"), ("urllib.parse", "urljoin"))

# sys attributes that change without anyone asking (or that the harness puts back).
_SYS_VOLATILE = frozenset(("argv", "stdin", "last_type", "last_value", "last_traceback", "last_exc"))

_CODE_MODULE = "sccg_user.main"

# The size of the buffer a batch child takes its jobs into: more than the largest
# job the Go side sends it.
_JOB_BUFFER = 1 << 20

# What the standard library's class factories (namedtuple, dataclasses, enum) set
# on the class they just made; the only attributes of a class whose setting
# raises an audit event at all, with __bases__.
_NAMING = frozenset(("__module__", "__qualname__", "__name__", "__doc__"))

# Module attributes the import system sets on every import of a fake module.
_IMPORT_ATTRS = frozenset(("__spec__", "__loader__", "__package__", "__path__", "__file__", "__cached__"))

# The file of the scratch directory a run starts with (see stubs._prepare_stdlib):
# left in place between jobs, when it is still a plain file, so the next job
# truncates it instead of allocating an inode.
_KEEP = "input.txt"


def _serve(rfd, jfd, scratch, limits, job_cpu=0):
    """Runs the batch: the jobs that arrive on socket jfd, reported on rfd, in
    directory scratch under limits (as the fork server got them), each job with
    job_cpu seconds of CPU time (0: no limit but the batch's). Never returns."""
    try:
        _batch(rfd, jfd, scratch, limits, job_cpu)
    except _BaseException as e:
        try:
            report._send("verify", {"clean": False, "why": "harness: " + _type(e).__name__ + ": " + report._safe(e)})
            report._flush()
        except _BaseException:
            pass
    _exit(0)


def _batch(rfd, jfd, scratch, limits, job_cpu):
    job.setup(rfd, scratch, limits, "")
    if not _PREPARED:  # else the fork server imported them (and the child's pages stay its server's)
        for m in _PRELOAD:
            try:
                __import__(m)
            except _BaseException:
                pass
    os = sys.modules["os"]
    import json
    import logging
    import warnings
    import random
    import atexit
    _apply_limits(job.cpu_seconds, job.address_space, job.file_size, job.open_files, job.processes)
    _refuse_dir_fd_open(os)
    pkg = __name__.rpartition(".")[0]
    harness = [m for n, m in _list(sys.modules.items()) if n == pkg or n.startswith(pkg + ".")]
    taint, active = [], [False]
    sock = _socket(jfd)  # before the guard, which refuses sockets
    sys.addaudithook(_make_taint(taint, active, jfd))
    stubs._auto_import[0] = tame._ALLOW
    if _MEMORY[0] is None and not _MEMORY[1]:  # the fork server made it (_prepare), or tried
        _memory()
    _arm()
    report._holding[0] = True  # each job's lines in one write, with its verification
    state = _HarnessState(harness)
    shared = _Shared(scratch, os, logging, warnings, random, atexit, json, harness, taint)
    # Before any job, so that the first job's time limit covers the job alone; with
    # why the namespaces are all compared after each job, when they are.
    report._send("ready", {"full_compare": "" if shared.tags is not None else _MEMORY[1] or "no namespaces to tag"})
    report._flush()
    # One buffer for every job: recv(n) allocates (and maps) n bytes for each
    # message, ~0.1 ms of CPU a job for a buffer this large.
    buf = bytearray(_JOB_BUFFER)
    view = memoryview(buf)
    while True:
        try:
            n = sock.recv_into(buf)
        except OSError:
            _exit(0)
        if not n:
            _exit(0)
        if n == _JOB_BUFFER:  # cut short: the Go side sends far less (batchJobMax)
            raise ValueError("a job of %d bytes or more" % n)
        text = _str(view[:n], "utf-8", "replace")
        state.reset()
        job.nonce, job.function, job.code = text.split("\n", 2) if text.count("\n") >= 2 else ("", "", "")
        _fresh_stderr()
        cpu0 = time.process_time()
        _armed_cpu[0] = cpu0
        # A job's own CPU limit: SIGPROF, whose default ends the batch child (the
        # Go side runs the job again in a child of its own, under its rlimit).
        if job_cpu > 0:
            _signal.setitimer(_signal.ITIMER_PROF, job_cpu)
        out = _one(shared, taint, active)
        if job_cpu > 0:
            _signal.setitimer(_signal.ITIMER_PROF, 0)
        why = out or shared.verify(taint)
        _flush_streams()
        ru = _rusage()
        report._send("verify", {"clean": not why, "why": why, "cpu_us": int((time.process_time() - cpu0) * 1e6),
                                "rss_kb": ru.ru_maxrss})
        report._flush()
        if why:
            _exit(0)


def _one(shared, taint, active, check=True):
    """Runs the current job; a reason when it must not count (the batch ends).
    check=False runs code that is not tame too (benchmarks, without isolation)."""
    tree = run._parse()
    if tree is None:
        return ""
    nodes = _walk(tree) if check else None  # before the store check changes the tree
    why = tame._wild(tree, job.code, nodes) if check else ""
    if why:
        report._send("wild", {"why": why})
        return ""
    facts = _facts(tree)
    report._send("facts", facts)
    if check:
        _guard_stores(tree, nodes)
    saved = shared.before()
    try:
        stubs._fake_environment()
        stubs._prepare_stdlib()
        shared.random.setstate(shared.rstate)
        del taint[:]
        active[0] = True
        try:
            out = run._execute(tree, facts, shared.extra if check else None)
        finally:
            active[0] = False
        report._send("end", out)
        if stubs._refused:
            report._send("wild", {"why": "uses %s without importing it" % stubs._refused[0]})
    except MemoryError:
        report._send("end", {"status": "oom", "error": "MemoryError"})
        return "out of memory"
    except _BaseException as e:
        report._send("end", {"status": "error", "error": "harness: " + _type(e).__name__ + ": " + report._safe(e)})
        return "harness error"
    finally:
        shared.after(saved)
    return ""


def _flush_streams():
    """Writes out what the job left in the standard streams' buffers: its stderr
    is read when the job is reported."""
    for f in (sys.__stdout__, sys.__stderr__):
        try:
            f.flush()
        except _BaseException:
            pass


def _fresh_stderr():
    """Writes the next job's stderr from the start of the memory file the batch
    shares, which the Go side empties before it sends the job (an armed child may
    not cut a descriptor)."""
    try:
        posix.lseek(2, 0, 0)
    except OSError:
        pass


def _rusage():
    import resource
    return resource.getrusage(resource.RUSAGE_SELF)


def _socket(fd):
    import socket
    return socket.socket(fileno=fd)


def _make_taint(taint, active, jfd):
    """An audit hook that, while a job's code runs, marks what a child of its own
    would allow but a batch must not share: setting an attribute of a class the
    code did not define; and refuses (marking it too) what only a batch has to
    hide, a descriptor opened as a file (the job socket) and /proc or /dev/fd."""
    module_of = _type.__dict__["__module__"].__get__

    def hook(event, args, _taint=taint, _active=active, _type=_type, _int=int, _str=_str, _bytes=bytes,
             _module_of=module_of, _code=_CODE_MODULE, _abspath=_abspath, _err=PermissionError,
             _isinstance=_isinstance, _len=_len, _naming=_NAMING, _swaps=frozenset(("__code__", "__class__"))):
        if not _active[0]:
            return
        if event == "object.__setattr__":
            if _len(args) > 1 and _isinstance(args[0], _type):
                try:
                    m = _module_of(args[0], _type)
                except _BaseException:
                    m = None
                if m != _code and args[1] not in _naming:
                    _taint.append("sets %s of a class it did not define" % (args[1],))
            elif _len(args) > 1 and args[1] in _swaps:
                # a function's code swapped, an object's class changed: what the
                # store check and the comparison cannot see (the namespaces hold
                # the same objects)
                _taint.append("sets %s of a %s" % (args[1], _type(args[0]).__name__))
            return
        if event == "open":
            p = args[0] if args else None
            if _type(p) is _int:
                _taint.append("opens descriptor %d" % p)
                raise _err("sandbox: opening a descriptor is not allowed in a batch")
            a = _abspath(p) if _type(p) is _str or _type(p) is _bytes else None
            if a is not None and (a.startswith("/proc/") or a.startswith("/dev/fd") or a.startswith("/dev/std")):
                _taint.append("opens " + a)
                raise _err("sandbox: no access to %s in a batch" % a)
            return
        if event == "socket.__new__" or event == "os.chdir" or event == "sys.setrecursionlimit":
            _taint.append(event)

    return hook


class _HarnessState:
    """The harness modules' globals as they were before the first job: bindings and
    the contents of the lists, dicts and sets among them (the recorders' counts,
    the facts' tables, the stubbed and undefined names, ...), put back before
    every job: the dicts where their version tag moved (all of them without
    tags), the lists and sets always."""

    def __init__(self, modules):
        dicts, others = [], []
        for m in modules:
            d = m.__dict__
            dicts.append((d, _dict(d)))
            for v in d.values():
                t = _type(v)
                if t is _dict:
                    dicts.append((v, _dict(v)))
                elif t is _list:
                    others.append((v, _list(v)))
                elif t is _set:
                    others.append((v, _set(v)))
        self.dicts, self.others = dicts, others
        self.tags = _tag_reader([d for d, _ in dicts])
        self.tagged = self.tags(_MEMORY[0]) if self.tags is not None else None

    def reset(self):
        dicts = self.dicts
        if self.tags is not None:
            now = self.tags(_MEMORY[0])
            if now != self.tagged:
                for d, saved in _moved(dicts, now, self.tagged):
                    d.clear()
                    d.update(saved)
                self.tagged = self.tags(_MEMORY[0])
        else:
            for d, saved in dicts:
                d.clear()
                d.update(saved)
        for c, v in self.others:
            if _type(c) is _list:
                c[:] = v
            else:
                c.clear()
                c.update(v)


class _Shared:
    """What every job of a batch shares, as it was before the first job, and the
    checks that it still is; what a job's store check finds goes to taint."""

    def __init__(self, scratch, os, logging, warnings, random, atexit, json, harness, taint):
        self.scratch, self.os, self.logging, self.warnings = scratch, os, logging, warnings
        self.random, self.atexit, self.json = random, atexit, json
        self.rstate = random.getstate()
        self.environ = os.environ
        self.env_data = _dict(os.environ._data)
        self.modules = _dict(sys.modules)
        self.sys = {k: v for k, v in sys.__dict__.items() if k not in _SYS_VOLATILE}
        self.lists = self._lists()
        self.limits = self._limits()
        self.cwd = posix.getcwd()
        self.emptied = True  # what after says of the scratch directory
        self.process = self._process()
        self.fds = self._fds()
        self.tasks = _len(posix.listdir("/proc/self/task"))
        self.signals = self._signals()
        self.atexits = atexit._ncallbacks()
        self.fake_dicts = [(m.__dict__, _dict(m.__dict__)) for m in _FAKES.values()]
        # What the code's own stores could reach (an alias of a module, a class or
        # an object of the standard library, or of the harness) the store check
        # sees as they happen (see _guard_stores); what the standard library's own
        # functions change when the code calls them, the comparison after each
        # job: every module's namespace and the attributes of the classes and
        # objects at their top level (an assignment to a class attribute raises no
        # audit event). The check sees a shared container changed by item, which
        # the comparison does not.
        self.ids, watched = _static(self.modules, harness)
        self.extra = {_GUARD: self._store_check(taint), _GUARD_CALL: self._call_check(taint)}
        # the namespaces as they are now, and their version tags, read in one
        # call (see _memory; None: compare all)
        self.spaces, self.tags, self.tagged, seen = _snapshot(watched)
        # the fakes' attributes and their stubs', where neither after (which puts
        # the fake modules back) nor the comparison of the namespaces sees them
        seen = seen | {_id(d) for d, _ in self.fake_dicts}
        self.fakes = [(d, attrs) for d, attrs in self._fakes() if _id(d) not in seen]
        self.flat = None  # the same, flat (see _flat)
        self.patched = [(sys.modules[m], a) for m, a in _PATCHED if m in sys.modules]
        root = logging.getLogger()
        self.log = (root, _list(root.handlers), root.level, root.disabled, root.propagate, _list(root.filters),
                    root.manager, _dict(root.manager.loggerDict), root.manager.disable, _list(logging._handlerList),
                    _dict(logging._handlers), _dict(logging._levelToName), _dict(logging._nameToLevel),
                    logging.getLoggerClass(), logging.getLogRecordFactory())
        self.warn = (_list(warnings.filters), warnings.defaultaction, warnings.showwarning)
        self.encoder_default = json.JSONEncoder.__dict__.get("default")
        # decimal's contexts: the thread's own, put back after each job, and the
        # templates every new context copies, compared
        import decimal
        self.decimal = decimal
        self.dec_context = decimal.getcontext().copy()
        self.dec_templates = self._dec_templates()

    def _dec_templates(self):
        d = self.decimal
        return [repr(c) for c in (d.DefaultContext, d.BasicContext, d.ExtendedContext)]

    @staticmethod
    def _lists():
        return (_tuple(sys.path), _tuple(sys.meta_path), _tuple(sys.path_hooks), _dict(sys.path_importer_cache))

    @staticmethod
    def _limits():
        return (sys.getrecursionlimit(), sys.getswitchinterval(), sys.gettrace(), sys.getprofile(),
                sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0,
                sys.get_asyncgen_hooks(), sys.get_coroutine_origin_tracking_depth())

    @staticmethod
    def _fds():
        return sorted(posix.listdir("/proc/self/fd"))

    @staticmethod
    def _signals():
        out = []
        for n in range(1, _signal.NSIG):
            try:
                out.append(_signal.getsignal(n))
            except (ValueError, OSError):
                out.append(None)
        for w in (_signal.ITIMER_REAL, _signal.ITIMER_VIRTUAL, _signal.ITIMER_PROF):
            out.append(_signal.getitimer(w))
        return out

    @staticmethod
    def _attrs(d):
        """A module's (or stub's) attributes, by identity; those the import system
        sets afresh whenever the harness serves a fake again aside."""
        keys = [k for k in d if k not in _IMPORT_ATTRS]
        return _tuple(keys), _tuple(_id(d[k]) for k in keys)

    def _fakes(self):
        """The fake modules' attributes, and theirs of the stubs among them."""
        out = []
        for m in _FAKES.values():
            d = m.__dict__
            out.append((d, self._attrs(d)))
            for v in _list(d.values()):
                vd = getattr(v, "__dict__", None) if _isinstance(v, values._Lenient) else None
                if _type(vd) is _dict:
                    out.append((vd, self._attrs(vd)))
        return out

    def _call_check(self, taint):
        """The function the object of a tame job's call of a method that changes
        it in place goes through (see _guard_stores): it marks a call on anything
        shared but a module, whose functions (os.remove, os.close) change no
        module of theirs that the comparison after the job does not see."""
        ids, ModuleType = self.ids, _type(sys)
        name_of = _type.__dict__["__name__"].__get__

        def check(x, *of, _id=_id, _issubclass=_issubclass, _type=_type, _ids=ids, _taint=taint):
            # check(v, x): x augmented in place by v; the value v goes on
            o = of[0] if of else x
            if _id(o) in _ids and not _issubclass(_type(o), ModuleType):
                _taint.append("changes a shared " + name_of(_type(o), _type))
            return x

        return check

    def _store_check(self, taint):
        """The function a tame job's every attribute or item store and delete goes
        through (see _guard_stores): it marks a store into anything shared (a
        module, a class the code did not define, an object of ids) and hands back
        the object, so the code runs on as it would alone."""
        ids, ModuleType = self.ids, _type(sys)
        module_of = _type.__dict__["__module__"].__get__
        name_of = _type.__dict__["__name__"].__get__

        # by the object's type alone: nothing of the code's (its __class__, its
        # __getattribute__) runs in the check
        def what(x):
            t = _type(x)
            if _issubclass(t, ModuleType):
                return "module " + report._safe(ModuleType.__dict__["__dict__"].__get__(x).get("__name__"))[:80]
            if _issubclass(t, _type):
                return "class " + name_of(x, _type)
            return "a shared " + name_of(t, _type)

        def check(x, _id=_id, _issubclass=_issubclass, _type=_type, _ids=ids, _taint=taint):
            t = _type(x)
            if _id(x) in _ids or _issubclass(t, ModuleType):
                _taint.append("stores into " + what(x))
            elif _issubclass(t, _type):
                try:
                    m = module_of(x, _type)
                except _BaseException:
                    m = None
                if m != _CODE_MODULE:
                    _taint.append("stores into " + what(x) + ", which it did not define")
            return x

        return check

    def before(self):
        """The harness's patch points as they are before a job."""
        return [(o, a, o.__dict__.get(a, _MISSING)) for o, a in self.patched] + \
            [(o, a, o.__dict__.get(a, _MISSING)) for o, a in ((self.json.JSONEncoder, "default"),)]

    def after(self, saved):
        """Puts back what the harness changed around the last job: its patches, the
        fakes and stubs it put in sys.modules, the import hooks, logging and warnings.
        First the job's garbage goes, so its finalizers (a __del__, a generator's
        finally) run now, not in the next job; what is left is frozen, so the next
        job's collection walks only what that job made (the batch child's life
        bounds what frozen garbage could hold)."""
        _gc_collect()
        _gc_freeze()
        for o, a, v in saved:
            if v is _MISSING:
                if a in o.__dict__:
                    delattr(o, a)
            elif o.__dict__.get(a, _MISSING) is not v:
                setattr(o, a, v)
        for d, saved in self.fake_dicts:  # fresh recorders: as they were before the first job
            if _len(d) != _len(saved) or not _all(_map(_is, d.values(), saved.values())) or \
                    not _all(_map(_is, d, saved)):
                d.clear()
                d.update(saved)
        self.emptied = _empty(self.scratch)
        mods = sys.modules
        for k in [k for k in mods if k not in self.modules]:
            v = mods[k]
            if k == "sccg_user" or k.startswith("sccg_user.") or _isinstance(v, values._StubModule) \
                    or any(v is f for f in _FAKES.values()):
                del mods[k]
        path, meta, hooks, cache = self.lists
        if _tuple(sys.meta_path) != meta and all(f in (stubs._FakeFinder, stubs._StubFinder) or f in meta
                                                 for f in sys.meta_path):
            sys.meta_path[:] = meta
        self._reset_logging()
        self.decimal.setcontext(self.dec_context.copy())
        _clear_caches()
        filters, action, show = self.warn
        w = self.warnings
        if w.filters != filters or w.defaultaction != action:
            w.filters[:] = filters
            w.defaultaction = action
            w._filters_mutated()
        w.showwarning = show

    def _reset_logging(self):
        lg = self.logging
        root, handlers, level, disabled, propagate, filters, manager, loggers, disable, hlist, hs, l2n, n2l, \
            lcls, factory = self.log
        if lg.root is root and root.handlers == handlers and root.level == level and \
                root.filters == filters and _len(manager.loggerDict) == _len(loggers) and \
                manager.disable == disable and lg._levelToName == l2n and lg._nameToLevel == n2l and \
                lg.getLoggerClass() is lcls and lg.getLogRecordFactory() is factory:
            return
        for h in root.handlers:
            if h not in handlers:
                try:
                    h.close()
                except _BaseException:
                    pass
        root.handlers[:] = handlers
        root.setLevel(level)
        root.disabled, root.propagate = disabled, propagate
        root.filters[:] = filters
        manager.loggerDict.clear()
        manager.loggerDict.update(loggers)
        manager.disable = disable
        lg._handlerList[:] = hlist
        lg._handlers.clear()
        lg._handlers.update(hs)
        lg._levelToName.clear()
        lg._levelToName.update(l2n)
        lg._nameToLevel.clear()
        lg._nameToLevel.update(n2l)
        lg.setLoggerClass(lcls)
        lg.setLogRecordFactory(factory)
        manager._clear_cache()

    def verify(self, taint):
        """What changed of what the next job shares; "" when nothing did."""
        if taint:
            return taint[0]
        mods = sys.modules
        if _len(mods) != _len(self.modules):
            new = [k for k in mods if k not in self.modules]
            return "sys.modules: %s" % (", ".join(_str(k) for k in new[:3]) or "entries removed")
        for k, v in self.modules.items():
            if mods.get(k) is not v:
                return "sys.modules[%s] replaced" % k
        cur = {k: v for k, v in sys.__dict__.items() if k not in _SYS_VOLATILE}
        if self._changed(cur, self.sys):
            return "sys changed"
        path, meta, hooks, cache = self.lists
        if _tuple(sys.path) != path or _tuple(sys.meta_path) != meta or _tuple(sys.path_hooks) != hooks:
            return "sys.path or import hooks changed"
        if self._limits() != self.limits:
            return "interpreter limits or hooks changed"
        if self.os.environ is not self.environ or self.environ._data != self.env_data:
            return "os.environ changed"
        if self._process() != self.process:
            return "the umask, the signal mask or a standard stream changed"
        if posix.getcwd() != self.cwd:
            return "working directory changed"
        # what after found in the scratch directory it emptied: the dummy input
        # file (a plain file) and nothing else, or what it could not remove
        if not self.emptied:
            return self._scratch() or "scratch directory: could not be emptied"
        if self._fds() != self.fds:
            return "open descriptors changed"
        if _len(posix.listdir("/proc/self/task")) != self.tasks:
            return "a thread was left running"
        if self._signals() != self.signals:
            return "signal handlers or timers changed"
        if self.atexit._ncallbacks() != self.atexits:
            return "atexit callbacks registered"
        if self.json.JSONEncoder.__dict__.get("default") is not self.encoder_default:
            return "json.JSONEncoder changed"
        if self._dec_templates() != self.dec_templates:
            return "decimal's default contexts changed"
        for d, attrs in self.fakes:
            if self._attrs(d) != attrs:
                return "a recorder module changed"
        return self._namespaces()

    def _namespaces(self):
        """Why the namespaces compared after each job are not as they were: those
        whose version tag moved (every dict the job changed, and those the harness
        changed and put back), or all of them without tags, compared by identity
        in C (no __eq__ of a value the code put there runs)."""
        sp = self.spaces
        if self.tags is not None:
            now = self.tags(_MEMORY[0])
            if now == self.tagged:
                return ""
            for space in _moved(sp, now, self.tagged):
                why = self._space(*space)
                if why:
                    return why
            self.tagged = now
            return ""
        dicts, lens, keys, vals = self.flat or self._flat()
        if _list(map(_len, dicts)) == lens and _all(map(_is, _chain(map(_values, dicts)), vals)) and \
                _all(map(_is, _chain(dicts), keys)):
            return ""
        for space in sp:
            why = self._space(*space)
            if why:
                return why
        return "attributes of a module or class changed"

    @staticmethod
    def _space(d, n, keys, vals):
        if _len(d) != n or not _all(_map(_is, d.values(), vals)) or not _all(_map(_is, d, keys)):
            name = _dict(zip(keys, vals)).get("__name__", "an object")  # as it was: the job may have renamed it
            return "attributes of %s changed" % report._safe(name)[:80]
        return ""

    @staticmethod
    def _process():
        """The umask, the blocked signals and how the standard streams write."""
        m = posix.umask(0o77)
        posix.umask(m)
        streams = [(f, _getattr(f, "encoding", None), _getattr(f, "errors", None), _getattr(f, "closed", None))
                   for f in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__)]
        return m, _signal.pthread_sigmask(_signal.SIG_BLOCK, []), streams

    def _flat(self):
        """The namespaces compared after each job, their sizes, keys and values,
        each in one list: what verify compares in one pass."""
        sp = self.spaces
        self.flat = ([d for d, _, _, _ in sp], [n for _, n, _, _ in sp], [k for _, _, ks, _ in sp for k in ks],
                     [v for _, _, _, vs in sp for v in vs])
        return self.flat

    @staticmethod
    def _changed(cur, saved):
        if _len(cur) != _len(saved):
            return True
        for k, v in saved.items():
            if cur.get(k, _MISSING) is not v:
                return True
        return False

    def _scratch(self):
        """Why the scratch directory is not as a job left it: the dummy input file
        (a plain file) and nothing else."""
        with posix.scandir(self.scratch) as it:
            for e in it:
                if e.name != _KEEP or not e.is_file(follow_symlinks=False) or \
                        e.stat(follow_symlinks=False).st_nlink != 1:
                    return "scratch directory: %s left behind" % e.name
        return ""


_MISSING = object()


# Methods that change their object in place: a call of one goes through the call
# check (a shared list, dict or set changed by a method; a shared stream
# closed). tame refuses holding one, and register outright.
_MUTATORS = tame._MUTATORS

# Functions that change the object given first (a shared list turned into a heap).
_ARG_MUTATORS = frozenset(("heappush", "heappop", "heapify", "heapreplace", "heappushpop", "insort",
                           "insort_left", "insort_right", "shuffle"))

# Modules whose objects no function a tame job can call changes (the import
# system's specs and loaders, typing's special forms).
_FIXED = frozenset(("_frozen_importlib", "_frozen_importlib_external", "typing"))


def _guard_stores(tree, nodes=None):
    """Routes every attribute and item store or delete of the code in tree, and
    every call of a method that changes its object in place (_MUTATORS), through
    the store check: the target x.a (x[k]) becomes __sccg_store__(x).a, and
    x.append(v) __sccg_store__(x).append(v), evaluated where x was (after the
    value of a store, as before), so a change of what the next job shares is seen
    even through an alias, an argument or a container. nodes: the tree's nodes
    as facts._walk lists them (before this changes the tree), when the caller has
    them."""
    Attribute, Subscript, Load = _ast.Attribute, _ast.Subscript, _ast.Load
    Call, Name, AugAssign = _ast.Call, _ast.Name, _ast.AugAssign

    def wrap(v, name, extra=()):
        f = Name(id=name, ctx=Load())
        c = Call(func=f, args=[v] + _list(extra), keywords=[])
        for node in (f, c) + _tuple(extra):
            node.lineno, node.col_offset = v.lineno, v.col_offset
            node.end_lineno, node.end_col_offset = v.end_lineno, v.end_col_offset
        return c

    for n in _walk(tree) if nodes is None else nodes:
        t = _type(n)
        if t is Call:
            f = n.func
            fname = f.attr if _type(f) is Attribute else f.id if _type(f) is Name else ""
            if fname in _ARG_MUTATORS and n.args:  # heapq.heappush(x, v): x changes
                n.args[0] = wrap(n.args[0], _GUARD_CALL)
            if _type(f) is Attribute and fname in _MUTATORS:
                f.value = wrap(f.value, _GUARD_CALL)
        elif t is AugAssign:
            # x += v changes x's object in place when it can (a list, a set):
            # x += __sccg_call__(v, x), the value first, then a second read of
            # the target (names, attributes and subscripts alone: see tame)
            n.value = wrap(n.value, _GUARD_CALL, (_loaded(n.target),))
        elif (t is Attribute or t is Subscript) and _type(n.ctx) is not Load:
            n.value = wrap(n.value, _GUARD)


def _loaded(e):
    """A copy of target expression e that loads it."""
    T = _type(e)
    if T is _ast.Name:
        c = _ast.Name(id=e.id, ctx=_ast.Load())
    elif T is _ast.Attribute:
        c = _ast.Attribute(value=_loaded(e.value), attr=e.attr, ctx=_ast.Load())
    elif T is _ast.Subscript:
        c = _ast.Subscript(value=_loaded(e.value), slice=_loaded(e.slice), ctx=_ast.Load())
    elif T is _ast.Constant:
        c = _ast.Constant(value=e.value)
    else:
        return e
    c.lineno, c.col_offset = e.lineno, e.col_offset
    c.end_lineno, c.end_col_offset = e.end_lineno, e.end_col_offset
    return c


# The process's memory as 8-byte words, read-only, when this interpreter's dicts
# carry a version tag where _memory found it; and why not, else.
_MEMORY = [None, ""]

# Where the view of memory starts: the second page, as no object lives in the first.
_BASE = 4096

# Where a dict keeps its version tag (CPython 3.11 to 3.13: after the object
# header and ma_used), in bytes; _memory checks it before anything relies on it.
_TAG_OFFSET = 24


def _memory():
    """Sets _MEMORY: a read-only view of this process's memory as 8-byte words,
    through which _tag_reader reads the version tag of many dicts in one call. A
    dict's tag takes a new value, unique in the process, whenever the dict
    changes, so an unchanged tag proves an unchanged dict. The layout is checked
    on dicts of its own first: a changed value, a key added and removed, and a
    dict left alone must move, move and keep the tag. Needs ctypes, so the fork
    server of batches calls it (or else a batch child, before the guard is
    armed); ctypes leaves sys.modules again."""
    before = _set(sys.modules)
    try:
        import ctypes
        # A view with no exporter (mem.obj is None), read-only in C: nothing
        # reached through it writes memory. From the second page (not from NULL)
        # to the top of the address space.
        view = ctypes.pythonapi.PyMemoryView_FromMemory
        view.restype, view.argtypes = ctypes.py_object, (ctypes.c_void_p, ctypes.c_ssize_t, ctypes.c_int)
        mem = view(_BASE, (1 << 47) - _BASE, 0x100).cast("Q")  # 0x100: PyBUF_READ
        at = lambda d: mem[_word(id(d) + _TAG_OFFSET)]
        used = lambda d: mem[_word(id(d) + _TAG_OFFSET - 8)]
        a, b = {"k": 1}, {"k": 1}
        p = _PROXY(b)
        t, u = at(a), at(b)
        a["k"] = 2
        t2 = at(a)
        a["x"] = 0
        del a["x"]
        if _len(a) != used(a) or used({}) != 0 or t2 == t or at(a) == t2 or at(b) != u or at(a) == at(b) or \
                mem[_word(id(p) + _PROXIED)] != id(b):
            _MEMORY[:] = [None, "dict version tags not where CPython 3.11 keeps them"]
        else:
            _MEMORY[:] = [mem, ""]
    except _BaseException as e:
        _MEMORY[:] = [None, "no dict version tags: " + _type(e).__name__]
    for k in [k for k in sys.modules if k not in before]:
        del sys.modules[k]


def _tag_reader(spaces):
    """A function of _MEMORY[0] that gives the version tags of spaces (two or
    more dicts, or a class's mapping proxy, standing for its dict), as a tuple;
    None without _MEMORY."""
    mem = _MEMORY[0]
    if mem is None or _len(spaces) < 2:
        return None
    from operator import itemgetter
    at = []
    for d in spaces:
        a = id(d)
        if _type(d) is _PROXY:
            a = mem[_word(a + _PROXIED)]
        elif _type(d) is not _dict:
            return None  # a mapping of another kind: no tag where a dict has one
        i = _word(a + _TAG_OFFSET)
        if not 0 <= i < _len(mem):
            return None  # beyond the view (an address space larger than 47 bits)
        at.append(i)
    return itemgetter(*at)


def _word(address):
    """The index in _MEMORY's view of the 8-byte word at address."""
    return (address - _BASE) >> 3


_PROXY = _type(_type.__dict__)

# Where a mapping proxy keeps its mapping, in bytes (after the object header);
# _memory checks it too.
_PROXIED = 16


def _moved(items, now, then):
    """The items (one for each tag) whose version tag moved from then to now."""
    return _compress(items, _map(_ne, now, then))


def _space_of(d):
    """Namespace d as it is: itself, its size, its keys and its values."""
    return d, _len(d), _list(d), _list(d.values())


def _snapshot(watched):
    """The namespaces watched as they are now (each dict with its size, keys and
    values), their tag reader and tags (None, None without _MEMORY), and the set
    of their identities. From the fork server's snapshot (_prepare) where it was
    taken of these namespaces, with only those whose tag moved since taken
    again: a batch child starts without touching (and so copying) the pages of
    every value of every namespace."""
    mem = _MEMORY[0]
    if _len(_PREPARED) > 3 and _PREPARED[2] is watched and mem is not None and _PREPARED[4] is not None:
        spaces, tags, tagged, seen = _PREPARED[3:]
        spaces = _list(spaces)
        now = tags(mem)
        for i in _moved(_range(_len(now)), now, tagged):
            spaces[i] = _space_of(spaces[i][0])
        return spaces, tags, now, seen
    spaces = [_space_of(d) for d in watched]
    tags = _tag_reader(watched)
    return spaces, tags, tags(mem) if tags is not None else None, frozenset(_id(d) for d in watched)


def _static(modules, harness):
    """What a batch child's checks need of the modules loaded (modules, a copy of
    sys.modules) and the harness's: the identities no store of a job may reach
    (see _Shared._store_check) and the namespaces to compare after each job.
    Worked out once in the fork server (see _prepare) when the child has loaded
    nothing since."""
    key = frozenset((k, _id(m)) for k, m in modules.items())
    if _PREPARED and _PREPARED[0] == key:
        return _PREPARED[1], _PREPARED[2]
    own = {_id(m) for m in harness}
    stdlib = [m.__dict__ for m in modules.values()
              if _id(m) not in own and _type(getattr(m, "__dict__", None)) is _dict]
    spaces = stdlib + [m.__dict__ for m in harness] + [m.__dict__ for m in _FAKES.values()]
    return _ids(modules, harness), stdlib + _objects(spaces)


def _prepare(harness):
    """Works out _static for the modules the fork server has loaded, and the view
    of memory (_memory) and snapshot of the namespaces (_snapshot), so that every
    batch child it forks finds them done. A batch child loads _ctypes anyway, so
    its server may (tame code names no type's __subclasses__); a server of
    children of their own never does."""
    _memory()
    _warm_up()
    own = {_id(m) for m in harness}
    # a batch child's sys.modules holds no harness module (guard._arm takes them out)
    modules = {k: m for k, m in sys.modules.items() if _id(m) not in own}
    ids, watched = _static(modules, harness)
    _PREPARED[:] = [frozenset((k, _id(m)) for k, m in modules.items()), ids, watched]
    _PREPARED[3:] = _snapshot(watched)


def _clear_caches():
    """Empties the standard library's caches a job fills with keys of its own
    making (a key whose __hash__ and __eq__ pose as another's would hand the next
    job its entry: re, struct, _strptime, ElementPath, typing's aliases and
    forward references, typing.overload's registry) or with what it did once
    (warnings' once registry)."""
    m = sys.modules
    for name, clear in _CACHES:
        mod = m.get(name)
        if mod is not None:
            try:
                clear(mod)
            except _BaseException:
                pass


def _clear_typing(t):
    for f in _list(t._cleanups):
        f()
    t._overload_registry.clear()


_CACHES = (("re", lambda m: m.purge()), ("struct", lambda m: m._clearcache()),
           ("warnings", lambda m: m.onceregistry.clear()),
           ("_strptime", lambda m: m._regex_cache.clear()), ("xml.etree.ElementPath", lambda m: m._cache.clear()),
           ("typing", _clear_typing), ("fnmatch", lambda m: m._compile_pattern.cache_clear()))


def _warm_up():
    """Uses once what the standard library sets up lazily, on first use, in its
    modules' globals (mimetypes' tables, urllib.parse's patterns, _strptime's
    cache), so that a job's first use changes nothing the comparison sees. Only
    the harness's own calls: no generated code runs here."""
    steps = (("mimetypes", lambda m: m.guess_type("a.json")), ("urllib.parse", lambda m: m.urlparse("http://a/b?c")),
             ("base64", lambda m: (m.b85encode(b""), m.a85encode(b""), m.b85decode(b""), m.a85decode(b""))),
             ("xml.dom.minidom", lambda m: m.parseString("<a/>")),
             ("urllib.parse", lambda m: m.unquote("a%20b")), ("_strptime", lambda m: m._strptime_time("2020", "%Y")),
             ("urllib.request", lambda m: m.parse_http_list("a, b")))
    for name, step in steps:
        m = sys.modules.get(name)
        if m is not None:
            try:
                step(m)
            except _BaseException:
                pass


# The fork server's _static: the modules it was worked out for, and its result.
_PREPARED = []


_ModuleType = _type(sys)


def _ids(modules, harness):
    """The identities of what every job shares and no store of a job's code may
    change: the loaded modules and their namespaces, the harness's and the fakes',
    what is at their top level and in its classes, and the loggers."""
    ids = set()
    proxy = _type.__dict__["__dict__"].__get__
    spaces = [m.__dict__ for m in modules.values() if _type(getattr(m, "__dict__", None)) is _dict]
    spaces += [m.__dict__ for m in harness] + [m.__dict__ for m in _FAKES.values()]
    def inner(v, depth=0):
        # what a shared container holds, and a shared object's attributes (and
        # theirs: email.policy.default.header_factory.registry)
        t = _type(v)
        if t is _dict:
            items = _list(v.values())
        elif t is _list or t is _set or t is _tuple:
            items = _list(v)
        else:
            try:
                d = object.__getattribute__(v, "__dict__")
            except _BaseException:
                return
            if _type(d) is not _dict:
                return
            items = _list(d.values())
        for w in items:
            if _type(w) not in _PLAIN and _id(w) not in ids:
                ids.add(_id(w))
                if depth == 0 and _type(w) is not _ModuleType and not _isinstance(w, _type):
                    inner(w, 1)

    for md in spaces:
        ids.add(_id(md))
        for v in _list(md.values()):
            if _type(v) in _PLAIN or _type(v) is _ModuleType:
                continue
            ids.add(_id(v))
            if _isinstance(v, _type):
                for w in _list(proxy(v).values()):
                    if _type(w) not in _PLAIN:
                        ids.add(_id(w))
                        if _type(w) in (_dict, _list, _set):
                            inner(w)
            else:
                inner(v)
    logging = modules.get("logging")
    if logging is not None:
        ids.update(_id(v) for v in _list(logging.root.manager.loggerDict.values()))
        # the root logger's handlers and filters: put back after every job
        ids.discard(_id(logging.root.handlers))
        ids.discard(_id(logging.root.filters))
    ids.update(_id(m) for m in modules.values())
    return frozenset(ids)


def _objects(spaces):
    """The attribute dicts of the classes and objects at the top level of the
    namespaces spaces, and of the objects their classes hold (an enum's members, a
    class's shared instance such as logging.Logger.manager): what the standard
    library may change for the code (argparse parsing into any object,
    functools.update_wrapper onto one). Not the import system's specs and loaders
    or typing's forms, which no function a tame job can call changes."""
    seen, out = set(), []
    ModuleType, FunctionType = _type(sys), _type(_fresh_stderr)
    module_of = _type.__dict__["__module__"].__get__
    proxy = _type.__dict__["__dict__"].__get__

    def add(v, depth):
        t = _type(v)
        if _id(v) in seen or t is ModuleType or t is FunctionType or t in _PLAIN:
            return
        seen.add(_id(v))
        if _isinstance(v, _type):
            if v.__flags__ & _IMMUTABLE:
                return  # a static or immutable type: nothing to set
            d = proxy(v)
            out.append(d)
            if depth == 0:
                for w in _list(d.values()):
                    add(w, 1)
                members = d.get("_member_map_")
                if _type(members) is _dict:
                    for w in _list(members.values()):
                        add(w, 1)
            return
        if module_of(t, _type) in _FIXED:
            return
        try:
            d = object.__getattribute__(v, "__dict__")
        except _BaseException:
            return
        if _type(d) is _dict:
            out.append(d)

    for md in spaces:
        for v in _list(md.values()):
            add(v, 0)
    return out



# Py_TPFLAGS_IMMUTABLETYPE: a type whose attributes cannot be set.
_IMMUTABLE = 1 << 8

# Types whose values hold no attributes of their own.
_PLAIN = frozenset((str, bytes, int, float, bool, type(None), tuple, frozenset, complex))


def _empty(d):
    """Removes what a job left in directory d (all but a plain _KEEP) and gives d
    back its mode; False when d is no longer a plain directory or something could
    not be removed."""
    try:
        mode = posix.lstat(d).st_mode
        if (mode & 0o170000) != 0o040000:
            return False
        if mode & 0o7777 != 0o700:
            posix.chmod(d, 0o700)
        with posix.scandir(d) as it:
            names = [e.name for e in it]
        for n in names:
            p = d + "/" + n
            st = posix.lstat(p)
            if n == _KEEP and (st.st_mode & 0o170000) == 0o100000 and st.st_nlink == 1:
                if st.st_mode & 0o7777 != 0o600:
                    posix.chmod(p, 0o600)  # as the harness creates it: a job may have changed its mode
                continue
            if (st.st_mode & 0o170000) == 0o040000:
                _rmtree(p)
            else:
                posix.unlink(p)
        return True
    except _BaseException:
        return False


def _rmtree(p):
    """Removes directory p and everything in it by path, never following a
    symbolic link (shutil.rmtree opens relative to directory descriptors, which the
    guard refuses in an armed batch child)."""
    with posix.scandir(p) as it:
        entries = [(e.path, e.is_dir(follow_symlinks=False)) for e in it]
    for q, is_dir in entries:
        if is_dir:
            _rmtree(q)
        else:
            posix.unlink(q)
    posix.rmdir(p)
