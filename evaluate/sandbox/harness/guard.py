"""What the code under test may not do, enforced in its own process before it
runs: resource limits, an open that refuses directory descriptors, and an audit
hook that refuses sockets, process creation, signals, ctypes and writes outside
the scratch directory."""
import posix
import _signal
import resource

_str, _type, _len = str, type, len
_int, _bytes = int, bytes
_BaseException = BaseException

# The absolute scratch directory: the one place the code may write.
_SCR = ""


def _confine_to(scratch):
    """Makes scratch the directory the audit hook lets the code write in."""
    global _SCR
    _SCR = _abspath(scratch)


def _limit(which, v):
    if v > 0:
        try:
            resource.setrlimit(which, (v, v))
        except (ValueError, OSError):
            pass


def _apply_limits(cpu_seconds, address_space, file_size, open_files, processes):
    """Sets the job's resource limits (a limit of 0 stays as it is)."""
    _limit(resource.RLIMIT_CPU, cpu_seconds)
    _limit(resource.RLIMIT_AS, address_space)
    _limit(resource.RLIMIT_FSIZE, file_size)
    _limit(resource.RLIMIT_NOFILE, open_files)
    _limit(resource.RLIMIT_NPROC, processes)
    _limit(resource.RLIMIT_CORE, 0)
    _signal.signal(_signal.SIGXFSZ, _signal.SIG_IGN)


def _refuse_dir_fd_open(os):
    """The "open" audit event does not carry dir_fd: refuse it at the function."""
    real_open = posix.open

    def safe_open(path, flags, mode=0o777, *, dir_fd=None):
        if dir_fd is not None:
            raise PermissionError("sandbox: open relative to a directory descriptor is not allowed")
        return real_open(path, flags, mode)

    posix.open = os.open = safe_open


def _abspath(p):
    """The absolute path p names, "." and ".." resolved but not symbolic links;
    None for what is not a path."""
    try:
        if _type(p) is _bytes:
            p = p.decode("utf-8", "replace")
        elif _type(p) is not _str:
            p = posix.fspath(p)
            if _type(p) is _bytes:
                p = p.decode("utf-8", "replace")
    except _BaseException:
        return None
    if not p.startswith("/"):
        p = posix.getcwd() + "/" + p
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


_W = posix.O_WRONLY | posix.O_RDWR | posix.O_CREAT | posix.O_TRUNC | posix.O_APPEND
_BLOCK = frozenset((
    "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "os.kill", "os.killpg",
    "subprocess.Popen", "pty.spawn", "socket.connect", "socket.bind", "socket.getaddrinfo",
    "socket.gethostbyname", "socket.sendto", "socket.sendmsg", "ctypes.dlopen", "ctypes.dlsym",
    "ctypes.call_function", "resource.setrlimit", "resource.prlimit", "gc.get_objects", "gc.get_referrers",
    "gc.get_referents", "sys._current_frames", "os.setuid", "os.setgid", "os.chroot", "mmap.__new__",
    "fcntl.ioctl", "os.add_dll_directory", "signal.pthread_kill", "sqlite3.enable_load_extension",
    "sqlite3.load_extension",
))


_PATHS = frozenset(("os.remove", "os.rmdir", "os.rename", "shutil.rmtree", "os.chmod", "os.chown", "os.mkdir",
                    "os.symlink", "os.link", "os.truncate", "os.utime", "shutil.copyfile", "shutil.move",
                    "os.chflags", "os.setxattr", "os.removexattr", "os.mknod", "os.mkfifo"))


# positions of dir_fd arguments in the audit events of path operations
_DIRFD = {"os.remove": (1,), "os.rmdir": (1,), "os.rename": (2, 3), "os.mkdir": (2,), "os.chmod": (2,),
          "os.chown": (3,), "os.symlink": (2,), "os.link": (2, 3), "os.utime": (3,), "shutil.rmtree": (1,),
          "os.mknod": (3,), "os.mkfifo": (2,)}


def _inside(p):
    a = _abspath(p)
    return a is not None and (a == _SCR or a.startswith(_SCR + "/"))


def _audit(event, args):
    if event == "open":
        path, mode, flags = args[0], args[1], args[2]
        if _type(path) is _int:
            return
        write = (mode is not None and any(c in mode for c in "wax+")) or (mode is None and _type(flags) is _int and flags & _W)
        a = _abspath(path)
        if a is None:
            raise PermissionError("sandbox: unreadable path")
        if write and not (a == _SCR or a.startswith(_SCR + "/") or a == "/dev/null"):
            raise PermissionError("sandbox: write outside the scratch directory: " + a)
        if a.startswith("/proc/") and not a.startswith("/proc/self/") or a.endswith("/environ"):
            raise PermissionError("sandbox: no access to " + a)
        return
    if event == "import":
        m = args[0] if args and _type(args[0]) is _str else ""
        if m in ("_ctypes", "ctypes") or m.startswith("ctypes."):
            # a foreign function built from a raw address is called without any
            # audit event: ctypes would undo every guard here
            raise PermissionError("sandbox: ctypes is not allowed")
        return
    if event == "socket.__new__":
        if _len(args) > 1 and args[1] == 1:  # AF_UNIX: asyncio's self-pipe (connect and bind stay blocked)
            return
        raise PermissionError("sandbox: sockets are not allowed")
    if event == "sqlite3.connect":
        db = args[0] if args else ""
        if _type(db) is _str and (db == ":memory:" or db == "" or db.startswith("file::memory:")):
            return
        if _type(db) is _str and db.startswith("file:"):
            raise PermissionError("sandbox: sqlite3 URIs are not allowed")
        if not _inside(db):
            raise PermissionError("sandbox: sqlite3 database outside the scratch directory")
        return
    if event in _BLOCK:
        raise PermissionError("sandbox: %s is not allowed" % event)
    if event in _PATHS:
        for i in _DIRFD.get(event, ()):
            if i < _len(args) and args[i] is not None and args[i] != -1:  # -1: no dir_fd
                raise PermissionError("sandbox: %s relative to a directory descriptor is not allowed" % event)
        for p in args[:2]:
            if _type(p) in (_str, _bytes) and not _inside(p):
                raise PermissionError("sandbox: %s outside the scratch directory" % event)
