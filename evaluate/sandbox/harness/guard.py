"""What the code under test may not do, enforced in its own process before it
runs: resource limits, an open that refuses directory descriptors, no function
that reaches another process without an audit event, and an audit hook that
refuses sockets, process creation, signals, ctypes, tracing, tampering with the
harness, writes outside the scratch directory and looking into the sandbox's
directory beside it (other runs' scratch directories, the harness's files).

The code can reach this module's namespace (through the __globals__ of any
harness function it is handed, which CPython does not audit), so nothing the
guard decides by lives there once it is armed: _arm builds the hook with every
value and helper it uses bound as a default argument (read-only copies of the
tables), and the hook refuses reading the defaults of the guard's functions and
replacing the defaults or code of any harness function."""
import sys
import time
import posix
import _imp
import _signal
import resource
import _posixsubprocess  # loaded before any code runs: see _REFUSE

_str, _type, _len = str, type, len
_int, _bytes = int, bytes
_BaseException = BaseException

# The absolute scratch directory, as the next _arm confines the code to it.
_SCR = ""
# The process's CPU time (s) when the guard was armed, for the end report.
_armed_cpu = [0.0]


def _confine_to(scratch):
    """Makes scratch the directory the hook _arm builds lets the code write in."""
    global _SCR
    _SCR = _abspath(scratch)


def _limit(which, v, hard=0):
    """Sets the soft limit to v and the hard one to v plus hard; a v of 0 or less
    keeps the limit as it is."""
    if v > 0:
        _setrlimit(which, v, v + hard)


def _setrlimit(which, v, hard=None):
    try:
        resource.setrlimit(which, (v, v if hard is None else hard))
    except (ValueError, OSError):
        pass


def _apply_limits(cpu_seconds, address_space, file_size, open_files, processes):
    """Sets the job's resource limits (a limit of 0 stays as it is) and no core
    files, hard limit included, so nothing can raise it again."""
    # At the soft CPU limit the kernel sends SIGXCPU, which ends the run as a
    # timeout; at the hard one SIGKILL, for a run that blocked SIGXCPU. Were they
    # equal, SIGKILL would come first and the run would read as killed.
    _limit(resource.RLIMIT_CPU, cpu_seconds, 1)
    _limit(resource.RLIMIT_AS, address_space)
    _limit(resource.RLIMIT_FSIZE, file_size)
    _limit(resource.RLIMIT_NOFILE, open_files)
    _limit(resource.RLIMIT_NPROC, processes)
    _setrlimit(resource.RLIMIT_CORE, 0)
    _signal.signal(_signal.SIGXFSZ, _signal.SIG_IGN)


def _refuse_dir_fd_open(os):
    """The "open" audit event does not carry dir_fd: refuse it at the function. The
    real open is a default argument, which the hook keeps the code from reading."""

    def safe_open(path, flags, mode=0o777, *, dir_fd=None, _open=posix.open, _fspath=posix.fspath,
                  _err=PermissionError):
        if dir_fd is not None:
            raise _err("sandbox: open relative to a directory descriptor is not allowed")
        return _open(_fspath(path), flags, mode)  # one conversion: the hook sees what is opened

    posix.open = os.open = safe_open


def _abspath(p, _fspath=posix.fspath, _getcwd=posix.getcwd, _type=_type, _str=_str, _bytes=_bytes,
             _isinstance=isinstance, _exc=_BaseException):
    """The absolute path p names, "." and ".." resolved but not symbolic links;
    None for what is not a path. The hook calls it, so it reads no global and
    turns str and bytes subclasses into plain strings before it looks at them."""
    try:
        if _type(p) is not _str and _type(p) is not _bytes:
            p = _fspath(p)
            p = "".join((p,)) if _isinstance(p, _str) else b"".join((p,))
        if _type(p) is _bytes:
            p = p.decode("utf-8", "replace")
    except _exc:
        return None
    if not p.startswith("/"):
        p = _getcwd() + "/" + p
    parts = []
    for seg in p.split("/"):
        if seg in ("", "."):
            continue
        if seg == "..":
            if parts:
                parts.pop()
            continue
        parts.append(seg)
    return "/" + "/".join(parts)


def _climbs(p, _fspath=posix.fspath, _isinstance=isinstance, _str=_str, _exc=_BaseException):
    """Whether path p has a ".." in it (True for what is no path). The hook
    resolves ".." by name, the kernel by the directory it has reached: a
    directory another thread moves up while the kernel walks below it takes a
    path that climbs out of the scratch directory."""
    try:
        p = _fspath(p)
        if _isinstance(p, _str):
            return ".." in "".join((p,)).split("/")
        return b".." in b"".join((p,)).split(b"/")
    except _exc:
        return True


_W = posix.O_WRONLY | posix.O_RDWR | posix.O_CREAT | posix.O_TRUNC | posix.O_APPEND
_BLOCK = frozenset((
    "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "os.kill", "os.killpg",
    "subprocess.Popen", "pty.spawn", "socket.connect", "socket.bind", "socket.getaddrinfo",
    "socket.gethostbyname", "socket.sendto", "socket.sendmsg", "ctypes.dlopen", "ctypes.dlsym",
    "ctypes.call_function", "resource.setrlimit", "resource.prlimit", "gc.get_objects", "gc.get_referrers",
    "gc.get_referents", "sys._current_frames", "os.setuid", "os.setgid", "os.chroot", "mmap.__new__",
    "fcntl.ioctl", "os.add_dll_directory", "signal.pthread_kill", "sqlite3.enable_load_extension",
    "sqlite3.load_extension", "sys.settrace", "sys.setprofile", "sys.addaudithook",
    # a subinterpreter (_xxsubinterpreters, _testcapi) runs code without this hook
    "cpython.PyInterpreterState_New",
    # a symbolic link, even to the scratch directory itself, turns the lexical
    # checks below around: the kernel resolves a ".." after it from where it
    # points (scratch/d/link/../x, with link -> scratch, is scratch's parent's x)
    "os.symlink",
))


# Path operations and the positions of their path arguments. A descriptor in
# one of them (fchmod, fchown, futimes, ...) is refused: it may be a file outside the scratch directory opened for reading.
_PATHS = {"os.remove": (0,), "os.rmdir": (0,), "os.rename": (0, 1), "shutil.rmtree": (0,), "os.chmod": (0,),
          "os.chown": (0,), "os.mkdir": (0,), "os.link": (0, 1), "os.truncate": (0,),
          "os.utime": (0,), "shutil.copyfile": (0, 1), "shutil.move": (0, 1), "os.chflags": (0,),
          "os.setxattr": (0,), "os.removexattr": (0,), "os.mknod": (0,), "os.mkfifo": (0,),
          # The hook resolves a relative path against the working directory as it is
          # when it runs, and another thread's chdir before the open turns it: so the
          # working directory never leaves the scratch directory (not by a
          # descriptor either), where a script's chdir to its own directory stays.
          "os.chdir": (0,)}


# positions of dir_fd arguments in the audit events of path operations
_DIRFD = {"os.remove": (1,), "os.rmdir": (1,), "os.rename": (2, 3), "os.mkdir": (2,), "os.chmod": (2,),
          "os.chown": (3,), "os.link": (2, 3), "os.utime": (3,), "shutil.rmtree": (1,),
          "os.mknod": (3,), "os.mkfifo": (2,)}


# Modules the code may not import. ctypes: a foreign function built from a raw
# address is called without any audit event, so ctypes would undo every guard
# here. _posixshmem: shm_open creates files in /dev/shm without one. The rest are
# loaded before the code runs; importing one again (after removing it from
# sys.modules) would give back, fresh, what _arm took out of it.
_NO_IMPORT = frozenset(("ctypes", "_ctypes", "_posixshmem", "posix", "_signal", "_imp", "sys", "builtins",
                        "resource", "_io", "_posixsubprocess", "_xxsubinterpreters",
                        # CPython's test modules: raw memory, allocators, subinterpreters and
                        # the like, reached from Python, which no generated code needs
                        "_testcapi", "_testinternalcapi", "_testbuffer", "_testmultiphase", "_testimportmultiple",
                        "_testclinic", "_testsinglephase", "_xxtestfuzz", "_ctypes_test",
                        # later CPythons' subinterpreters (3.12, 3.13)
                        "_xxinterpchannels", "_interpreters", "_interpchannels", "_interpqueues"))

# Functions that start a process without an audit event (subprocess.Popen raises
# its event before it calls fork_exec; a direct call raises none): replaced by one
# that refuses, where subprocess, imported before or after, finds them.
_REFUSE = (("_posixsubprocess", "fork_exec"), ("subprocess", "_fork_exec"))

# Functions that act on another process without an audit event (signal the
# parent through a pidfd, renice or pin every process of the user): removed.
_STRIP = (("posix", ("pidfd_open", "setpriority", "sched_setaffinity", "sched_setscheduler", "sched_setparam",
                     "setns", "unshare")),
          ("os", ("pidfd_open", "setpriority", "sched_setaffinity", "sched_setscheduler", "sched_setparam",
                  "setns", "unshare")),
          ("_signal", ("pidfd_send_signal",)),
          ("signal", ("pidfd_send_signal",)))

# Attributes of a harness function the code may not replace, and (of the
# guard's own functions, whose defaults hold what it decides by) may not read.
_SET_GUARDED = frozenset(("__defaults__", "__kwdefaults__", "__code__"))
_GET_GUARDED = frozenset(("__defaults__", "__kwdefaults__"))


def _frozen(d):
    """A read-only view of a copy of dict d: the hook's tables, which the code
    could otherwise change through this module's globals."""
    return _type(_type.__dict__)(dict(d))


def _plain(p, _isinstance=isinstance, _str=_str, _bytes=_bytes):
    """Whether path argument p is a str or bytes (subclasses too: _abspath flattens
    them). An audit event gets a path object itself only where C code converted
    it first (_io.FileIO(path)): the hook converting it again would let an
    __fspath__ that answers differently the second time steer a write past it.
    (open(), os.* and pathlib hand the events plain strings.)"""
    return _isinstance(p, _str) or _isinstance(p, _bytes)


def _make_audit(scr, harness):
    """The audit hook for a job confined to the absolute directory scr, where
    harness are the namespaces (module dicts) of the harness's own functions. The
    hook reads no global: every value and helper it decides by is a default."""

    root = scr.rpartition("/")[0]

    def audit(event, args, _scr=scr, _pre=scr + "/", _root=root, _rpre=root + "/", _harness=harness,
              _own=globals(), _abspath=_abspath, _climbs=_climbs, _W=_W, _block=_BLOCK, _paths=_frozen(_PATHS).get,
              _plain=_plain, _dirfd=_frozen(_DIRFD).get, _no_import=_NO_IMPORT, _set=_SET_GUARDED,
              _get=_GET_GUARDED, _fn=_type(_confine_to), _type=_type, _str=_str, _bytes=_bytes, _int=_int,
              _len=_len, _err=PermissionError):
        if event == "object.__getattr__" or event == "object.__setattr__":
            if _len(args) > 1 and _type(args[0]) is _fn:
                g = args[0].__globals__
                if event == "object.__getattr__":
                    if args[1] in _get and g is _own:
                        raise _err("sandbox: the guard's functions are not open to inspection")
                elif args[1] in _set:
                    for h in _harness:
                        if g is h:
                            raise _err("sandbox: the harness's functions cannot be changed")
            return
        if event == "open":
            path, mode, flags = args[0], args[1], args[2]
            if _type(path) is _int:
                return
            write = False
            if mode is not None:
                for c in "wax+":
                    if c in mode:
                        write = True
            elif _type(flags) is _int and flags & _W:
                write = True
            if write and not _plain(path):
                raise _err("sandbox: write through a path object (give its str)")
            a = _abspath(path)
            if a is None:
                raise _err("sandbox: unreadable path")
            if write and not (a == _scr or a.startswith(_pre) or a == "/dev/null"):
                raise _err("sandbox: write outside the scratch directory: " + a)
            if write and _climbs(path):
                raise _err("sandbox: write through a path that climbs (..)")
            if a.startswith("/proc/") and (not a.startswith("/proc/self/") or a.endswith("/mem")) \
                    or a.endswith("/environ") \
                    or (a == _root or a.startswith(_rpre)) and not (a == _scr or a.startswith(_pre)):
                raise _err("sandbox: no access to " + a)
            return
        if event == "os.listdir" or event == "os.scandir":
            p = args[0] if args else None
            if _type(p) is _int:
                return
            a = _abspath("." if p is None else p)
            if a is None or (a == _root or a.startswith(_rpre)) and not (a == _scr or a.startswith(_pre)):
                raise _err("sandbox: no access to %s" % a)
            return
        if event == "import":
            m = args[0] if args and _type(args[0]) is _str else ""
            if m in _no_import or m.startswith("ctypes."):
                raise _err("sandbox: importing %s is not allowed" % m)
            return
        if event == "socket.__new__":
            if _len(args) > 1 and args[1] == 1:  # AF_UNIX: asyncio's self-pipe (connect and bind stay blocked)
                return
            raise _err("sandbox: sockets are not allowed")
        if event == "sqlite3.connect":
            db = args[0] if args else ""
            if _type(db) is _str and (db == ":memory:" or db == "" or db.startswith("file::memory:")):
                return
            if _type(db) is _str and db.startswith("file:"):
                raise _err("sandbox: sqlite3 URIs are not allowed")
            a = _abspath(db)
            if a is None or not (a == _scr or a.startswith(_pre)) or _climbs(db):
                raise _err("sandbox: sqlite3 database outside the scratch directory")
            return
        if event in _block:
            raise _err("sandbox: %s is not allowed" % event)
        where = _paths(event)
        if where is not None:
            for i in _dirfd(event, ()):
                if i < _len(args) and args[i] is not None and args[i] != -1:  # -1: no dir_fd
                    raise _err("sandbox: %s relative to a directory descriptor is not allowed" % event)
            for i in where:
                p = args[i] if i < _len(args) else None
                a = _abspath(p) if _plain(p) else None
                if a is None or not (a == _scr or a.startswith(_pre)) or _climbs(p):
                    raise _err("sandbox: %s outside the scratch directory" % event)

    return audit


def _inside(p):
    """Whether path p is in the scratch directory _confine_to named."""
    a = _abspath(p)
    return a is not None and (a == _SCR or a.startswith(_SCR + "/"))


def _arm():
    """The last step before the code runs: takes the harness's modules out of
    sys.modules (where any code would look for them first), removes the functions
    that reach other processes unaudited and replaces those that start one, keeps _imp from building fresh copies of
    the modules they were removed from, and installs the audit hook, confined to
    the directory _confine_to named."""
    pkg = __name__.rpartition(".")[0]
    harness = []
    for name in [n for n in sys.modules if n == pkg or n.startswith(pkg + ".")]:
        harness.append(sys.modules.pop(name).__dict__)
    for mod, names in _STRIP:
        m = sys.modules.get(mod)
        for n in names if m is not None else ():
            m.__dict__.pop(n, None)

    def refuse(*args, _err=PermissionError, **kwargs):
        raise _err("sandbox: process creation is not allowed")

    for mod, name in _REFUSE:
        m = sys.modules.get(mod)
        if m is not None and name in m.__dict__:
            m.__dict__[name] = refuse
    real = _imp.create_builtin
    spec_type = sys.modules["_frozen_importlib"].ModuleSpec

    def create_builtin(spec, _real=real, _spec=spec_type, _no=_NO_IMPORT, _err=PermissionError, _getattr=getattr,
                       _isinstance=isinstance, _str=_str):
        # The name read once, as a plain str, and handed on in a spec of our own: a
        # spec whose name answers differently the second time gets nothing.
        name = _getattr(spec, "name", None)
        if not _isinstance(name, _str):
            raise _err("sandbox: a module spec without a name")
        name = "".join((name,))
        if name in _no:
            raise _err("sandbox: importing %s is not allowed" % name)
        return _real(_spec(name, None))

    _imp.create_builtin = create_builtin
    sys.addaudithook(_make_audit(_SCR, tuple(harness)))
    _armed_cpu[0] = time.process_time()
