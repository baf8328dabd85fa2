"""What the code finds around it in place of the real thing: import hooks that
serve the recorders for the HTTP clients and a permissive stub for any other module
that is not installed, module globals in which an undefined name is a stub (or the
standard module it forgot to import, or a recording session), and an environment
that answers: environment variables (placeholders), input() (the answers the code
compares with), a sleep that returns at once, a dummy input file and a dummy for
any file the code reads that is not there, JSON, sqlite3 and urllib.parse that put
up with stubs."""
import sys
import posix
import builtins

from . import job
from .facts import _answers, _sub_keys
from .recorders import _FAKES
from .uses import _undefined_value
from .values import _Any, _Free, _module, _path, _StubModule

_str, _type, _len, _isinstance, _getattr = str, type, len, isinstance, getattr
_BaseException = BaseException

_bootstrap = sys.modules["_frozen_importlib"]
_ModuleSpec = _bootstrap.ModuleSpec


class _FakeLoader:
    """Loads the fake of a recorded library, or else a permissive stub module."""

    @staticmethod
    def create_module(spec):
        return _FAKES.get(spec.name) or _StubModule(spec.name)

    @staticmethod
    def exec_module(module):
        if not hasattr(module, "__path__"):
            module.__path__ = []


class _FakeFinder:
    """First on sys.meta_path: the HTTP clients are always the recorders."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name in _FAKES:
            return _ModuleSpec(name, _FakeLoader, is_package=hasattr(_FAKES[name], "__path__"))
        top = name.split(".", 1)[0]
        if top in ("requests", "httpx", "aiohttp", "urllib3"):
            return _ModuleSpec(name, _FakeLoader, is_package=True)
        return None

    @staticmethod
    def invalidate_caches():
        pass


# modules stubbed for the code, in the order it imported them
_stubbed = []
_STDLIB = _getattr(sys, "stdlib_module_names", frozenset())


class _StubFinder:
    """Last on sys.meta_path: whatever is not installed becomes a permissive stub."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name.split(".", 1)[0] in _STDLIB:
            return None  # a missing stdlib module (nt, _winapi) must stay missing
        f = sys._getframe(1)
        while f is not None and f.f_code.co_filename.startswith("<frozen"):
            f = f.f_back
        if f is None or f.f_code.co_filename != "<generation>":
            return None  # optional imports inside the standard library keep failing
        if _len(_stubbed) < 500:
            _stubbed.append(name)
        return _ModuleSpec(name, _FakeLoader, is_package=True)

    @staticmethod
    def invalidate_caches():
        pass


class _Globals(dict):
    """Module globals where an undefined name is a permissive stub, not a NameError."""

    def __missing__(self, k):
        try:
            return _getattr(builtins, k)
        except AttributeError:
            pass
        if k[:2] == "__" and k[-2:] == "__":
            raise KeyError(k)
        # Code that forgot an import: an HTTP client is its recorder, a standard
        # module the real one; anything else a stub.
        if k in _FAKES:
            return _FAKES[k]
        if k in _STDLIB and k[:1] != "_" and k not in _NO_AUTO_IMPORT:
            allowed = _auto_import[0]
            if allowed is not None and k not in allowed:
                # a batch: the module is not one tame code may use; the job runs
                # again in a child of its own, where it is imported (see batch)
                if k not in _refused:
                    _refused.append(k)
                raise NameError("name %r is not defined" % k, name=k)
            try:
                __import__(k)
                return sys.modules[k]
            except _BaseException:
                pass
        if k in _TYPING:
            import typing
            return _getattr(typing, k)
        if _len(_undefined) < 50 and k not in _undefined:
            _undefined.append(k)
        if k == "session":
            # as a parameter named so is: the session a module-level name the code
            # did not include would hold, one for the whole run
            s = self[k] = _FAKES["requests"].Session()
            return s
        # by what the code does with it (range(MAX_PAGES), BASE.rstrip("/")), else a
        # stub; bound, so that the whole run sees one value
        v = _undefined_value(k)
        if v is None:
            v = _Free()
        self[k] = v
        return v

    def bind(self, k):
        """Binds name k as a lookup of it that finds nothing would see it (a stub,
        the standard module, ...) where that lookup cannot reach __missing__ (a class
        body, eval); False when k is bound already."""
        if dict.__contains__(self, k):
            return False
        try:
            v = self.__missing__(k)
        except (NameError, KeyError):  # a name no lookup finds (a dunder; in a batch, see __missing__)
            return False
        if not dict.__contains__(self, k):
            self[k] = v
        return True


# names the code used without defining or importing them
_undefined = []

# In a batch child, the standard modules an undefined name may stand for (tame's
# allow-list; None elsewhere: any), and the names refused this job.
_auto_import = [None]
_refused = []
# names of the typing module that annotations use without importing them
_TYPING = frozenset(("List", "Dict", "Optional", "Union", "Tuple", "Set", "FrozenSet", "Any", "Callable", "Iterable",
                     "Iterator", "Generator", "Sequence", "Mapping", "MutableMapping", "Type", "TypedDict", "Literal",
                     "NamedTuple", "Awaitable", "Coroutine", "AsyncIterator", "AsyncGenerator", "Text", "Final",
                     "ClassVar", "cast", "TypeVar", "Generic", "Protocol", "NoReturn"))
# standard modules an undefined name never imports
_NO_AUTO_IMPORT = frozenset(("this", "antigravity", "idlelib", "tkinter", "turtle", "test", "site"))


class _Env(dict):
    """os.environ: to the code under test a variable that is not set reads as set, to
    a placeholder (see _env_value), so its "is the key configured?" check passes and
    the request is built; a default other than None or "" is what it says. The
    standard library looking a variable up for itself gets the real answer."""

    def __missing__(self, k):
        if _from_code(sys._getframe(1)):
            return _env_value(k)
        raise KeyError(k)

    def get(self, k, d=None):
        return self.lookup(k, d, sys._getframe(1))

    def lookup(self, k, d, caller):
        """get(k, d) as the code running in frame caller sees it."""
        if dict.__contains__(self, k):
            return dict.__getitem__(self, k)
        if (d is None or d == "") and _from_code(caller):
            return _env_value(k)
        return d

    def copy(self):
        return _Env(self)


# words of a variable's name that say it holds a number (MAX_RESULTS, PORT,
# REQUEST_TIMEOUT): its placeholder is "1", which int() and float() take
_NUMERIC_ENV = frozenset(("port", "timeout", "limit", "max", "min", "retries", "retry", "size", "count", "interval",
                          "delay", "seconds", "secs", "minutes", "hours", "days", "page", "pages", "workers",
                          "threads", "year", "num", "number", "ttl", "offset", "top", "batch"))


def _env_value(k):
    """The placeholder an unset environment variable reads as."""
    words = _str(k).lower().replace("-", "_").split("_")
    return "1" if any(w in _NUMERIC_ENV for w in words) else "test-value"


# how many times input() answers before it reads the end of its input (EOFError),
# as a menu loop that never quits would otherwise run to the time limit
_MAX_ANSWERS = 100
_answered = [0]
_answer_list = []


def _input(prompt="", *a, **k):
    """input(): each call the next of the answers the code compares with (a free
    answer between them), round and round, so successive calls (and the harness's
    successive calls of a function) take each branch; then the end of input."""
    if _answered[0] >= _MAX_ANSWERS:
        raise EOFError("EOF when reading a line")
    if not _answer_list:
        _answer_list.extend(_answers() or ["test"])
    v = _answer_list[_answered[0] % _len(_answer_list)]
    _answered[0] += 1
    return v


def _fake_environment():
    """Puts the import hooks in place and the fakes around the code: no sleeping,
    input and environment variables that answer, a package for the code to be
    part of, no arguments and no stdin. Returns the os module."""
    sys.meta_path.insert(0, _FakeFinder)
    sys.meta_path.append(_StubFinder)
    import os
    import time
    time.sleep = lambda *a, **k: None
    builtins.input = _input
    env = _Env(os.environ)
    env.setdefault("HOME", job.scratch)
    os.environ = env

    def getenv(key, default=None):
        return env.lookup(key, default, sys._getframe(1))
    os.getenv = getenv
    sys.modules.setdefault("sccg_user", _module("sccg_user", {}, package=True))
    sys.argv = ["main.py"]
    sys.stdin = None
    return os


def _prepare_stdlib():
    """Before the hook: the dummy input file a path argument names, and permissive
    edges of the standard modules the code uses."""
    cols = _sub_keys or ["test"]
    _path[0] = job.scratch + "/input.txt"
    data = (",".join(cols) + "\n" + ",".join("test" for _ in cols) + "\n").encode()
    # Cut to its new length after writing, not emptied on open: on ext4, a file
    # truncated to nothing waits for its old blocks on close (1–2 ms, in a batch
    # child at every job). By path: the guard refuses a descriptor.
    fd = posix.open(_path[0], posix.O_WRONLY | posix.O_CREAT, 0o600)
    try:
        posix.write(fd, data)
    finally:
        posix.close(fd)
    posix.truncate(_path[0], _len(data))
    if "dump" in job.code:  # json.dumps / json.dump: only then is json worth importing here
        import json
        orig = json.JSONEncoder.default

        def default(self, o):  # a stub in a JSON body serializes as a string
            if _isinstance(o, _Any):
                return _str(o)
            return orig(self, o)
        json.JSONEncoder.default = default
    real_open = builtins.open

    def open(file, mode="r", *a, **k):
        # a file the code reads that is not there, or whose name is a stub, is a dummy
        try:
            if not _isinstance(file, _Any):
                return real_open(file, mode, *a, **k)
        except (FileNotFoundError, NotADirectoryError):
            pass
        if _type(mode) is not _str or any(c in mode for c in "wax+") or not _from_code(sys._getframe(1)):
            return real_open(file, mode, *a, **k)
        return _dummy_file(file, mode)
    builtins.open = open
    import io
    io.open = open
    if "quote" in job.code or "urljoin" in job.code:
        import urllib.parse as up
        for name in ("quote", "quote_plus", "unquote", "urljoin"):
            setattr(up, name, _stub_as_str(_getattr(up, name)))
    if "sqlite3" in job.code:
        import sqlite3
        real = sqlite3.connect

        def connect(database, *a, **k):
            # a database the code cannot open (outside the scratch directory, or a
            # directory that is not there) is a permissive stub, as a missing module is
            try:
                return real(database, *a, **k)
            except (sqlite3.Error, PermissionError):
                return _Any()
        sqlite3.connect = connect


def _stub_as_str(f):
    """f, taking a stub argument as its string ("stub") instead of failing on it."""
    def g(*a, **k):
        return f(*[_str(x) if _isinstance(x, _Any) else x for x in a], **k)
    g.__name__ = f.__name__
    g.__doc__ = f.__doc__
    return g


# modules whose functions open a file on the caller's behalf (Path.read_text,
# codecs.open): the frame that asked is further up
_PASS_THROUGH = ("/pathlib.py", "/codecs.py")


def _from_code(f):
    """Whether frame f is the code under test, or a pass-through module it called."""
    for _ in range(4):
        if f is None:
            return False
        fn = f.f_code.co_filename
        if fn == "<generation>":
            return True
        if not fn.endswith(_PASS_THROUGH):
            return False
        f = f.f_back
    return False


def _dummy_file(file, mode):
    """A file the code reads that is not there: in memory, with what a file of its
    kind holds, made of the keys the code indexes with (a JSON object, a CSV header
    and row, YAML lines); any other file reads as one line of text."""
    import io
    if _isinstance(file, bytes):
        name = file.decode("utf-8", "replace")
    else:
        try:
            name = posix.fspath(file)
        except TypeError:
            name = _str(file)
        if _isinstance(name, bytes):
            name = name.decode("utf-8", "replace")
    ext = name.rsplit(".", 1)[-1].lower() if "." in name.rsplit("/", 1)[-1] else ""
    keys = _sub_keys or ["test"]
    if ext in ("json", "jsonl", "ndjson", "geojson"):
        text = "{" + ", ".join('"%s": "test"' % k for k in keys) + "}\n"
    elif ext in ("csv", "tsv"):
        sep = "\t" if ext == "tsv" else ","
        text = sep.join(keys) + "\n" + sep.join("test" for _ in keys) + "\n"
    elif ext in ("yaml", "yml"):
        text = "".join("%s: test\n" % k for k in keys)
    else:
        text = "test\n"
    f = io.BytesIO(text.encode()) if "b" in mode else io.StringIO(text)
    f.name = name
    f.mode = mode
    return f
