"""What the code finds around it in place of the real thing: import hooks that
serve the recorders for the HTTP clients and a permissive stub for any other module
that is not installed, module globals in which an undefined name is a stub (or the
standard module it forgot to import), and an environment that answers: environment
variables, input(), a sleep that returns at once, a dummy input file, JSON and
sqlite3 that put up with stubs."""
import sys
import posix
import builtins

from . import job
from .facts import _sub_keys
from .recorders import _FAKES
from .values import _Any, _module, _StubModule

_str, _len, _isinstance, _getattr = str, len, isinstance, getattr
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
            try:
                __import__(k)
                return sys.modules[k]
            except _BaseException:
                pass
        if _len(_undefined) < 50 and k not in _undefined:
            _undefined.append(k)
        return _Any()


# names the code used without defining or importing them
_undefined = []
# standard modules an undefined name never imports
_NO_AUTO_IMPORT = frozenset(("this", "antigravity", "idlelib", "tkinter", "turtle", "test", "site"))


def _fake_environment():
    """Puts the import hooks in place and the fakes around the code: no sleeping,
    input and environment variables that answer, a package for the code to be
    part of, no arguments and no stdin. Returns the os module."""
    sys.meta_path.insert(0, _FakeFinder)
    sys.meta_path.append(_StubFinder)
    import os
    import time
    time.sleep = lambda *a, **k: None
    builtins.input = lambda *a, **k: "test"

    class _Env(dict):
        def __missing__(self, k):
            return "test-value"

        def get(self, k, d=None):
            # a missing variable with no useful default reads as set: the code's
            # "is the key configured?" check passes and the request is built
            return dict.get(self, k, d if d else "test-value")

    env = _Env(os.environ)
    env.setdefault("HOME", job.scratch)
    os.environ = env
    os.getenv = lambda k, d=None: env.get(k, d)
    sys.modules.setdefault("sccg_user", _module("sccg_user", {}, package=True))
    sys.argv = ["main.py"]
    sys.stdin = None
    return os


def _prepare_stdlib():
    """Before the hook: the dummy input file a path argument names, and permissive
    edges of the standard modules the code uses."""
    cols = _sub_keys or ["test"]
    fd = posix.open(job.scratch + "/input.txt", posix.O_WRONLY | posix.O_CREAT | posix.O_TRUNC, 0o600)
    posix.write(fd, (",".join(cols) + "\n" + ",".join("test" for _ in cols) + "\n").encode())
    posix.close(fd)
    if "dump" in job.code:  # json.dumps / json.dump: only then is json worth importing here
        import json
        orig = json.JSONEncoder.default

        def default(self, o):  # a stub in a JSON body serializes as a string
            if _isinstance(o, _Any):
                return _str(o)
            return orig(self, o)
        json.JSONEncoder.default = default
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
