"""The fork server: a warm interpreter that has loaded the harness and the modules
generated code imports most, and never runs generated code itself. For each job
message on its control socket it forks a child that (given per-child namespaces)
moves into new user, network, IPC and UTS namespaces and drops every capability,
then runs the job exactly as an exec'd run would."""
import sys
import posix

from . import job
from .report import _safe
from .run import _run

_len, _bytes = len, bytes
_exit = posix._exit
_BaseException = BaseException


# Modules a warm server imports before it forks: the harness's own needs and what
# generated code imports most. It never runs generated code itself.
_WARM = ("_ast", "os", "json", "re", "time", "datetime", "typing", "collections", "urllib", "urllib.parse",
         "base64", "hashlib", "random", "math", "logging", "dataclasses", "pathlib", "enum", "functools",
         "string", "uuid", "csv", "io", "traceback", "argparse", "copy", "http", "email.utils")


# Namespaces each forked child unshares before it reads its job: user (so no
# privilege is needed, and none is kept), network (no interface but a loopback that
# is down: nothing to reach, not even a sibling), IPC and UTS. Not mount (a copy of
# the same tree isolates nothing; the audit hook guards writes) and not PID (it
# would only apply to the child's own children, and process creation is blocked).
_CLONE_NEWUSER, _CLONE_NEWNET, _CLONE_NEWIPC, _CLONE_NEWUTS = 0x10000000, 0x40000000, 0x08000000, 0x04000000
_NS_FLAGS = _CLONE_NEWUSER | _CLONE_NEWNET | _CLONE_NEWIPC | _CLONE_NEWUTS


# Addresses of libc's unshare and capset, looked up once by the server. Only the
# _ctypes extension is loaded for it (and dropped from sys.modules in each child,
# so the audit hook refuses to import it again), never the ctypes package, whose
# ready-made helpers (memmove, string_at) reach memory without an audit event.
_UNSHARE = _CAPSET = 0


def _isolate():
    """Moves this (single-threaded, freshly forked) process into new user, network,
    IPC and UTS namespaces, maps its own uid and gid, and drops every capability.
    Runs before the audit hook is armed and before any generated code; raises on
    any failure, so a child never runs code without the isolation reported."""
    import _ctypes
    uid, gid = posix.getuid(), posix.getgid()
    if _ctypes.call_function(_UNSHARE, (_NS_FLAGS,)) != 0:
        raise OSError("unshare(user, net, ipc, uts) refused")
    for name, text in (("setgroups", "deny"), ("uid_map", "%d %d 1" % (uid, uid)), ("gid_map", "%d %d 1" % (gid, gid))):
        fd = posix.open("/proc/self/" + name, posix.O_WRONLY)
        try:
            posix.write(fd, text.encode())
        finally:
            posix.close(fd)
    # capset(2): a version-3 header for this process, then all sets empty
    hdr = (0x20080522).to_bytes(4, sys.byteorder) + _bytes(4)
    if _ctypes.call_function(_CAPSET, (hdr, _bytes(24))) != 0:
        raise OSError("capset refused")


def _probe_isolation():
    """Forks a child that isolates itself and exits: "" when that works, else why not."""
    global _UNSHARE, _CAPSET
    try:
        import _ctypes
        h = _ctypes.dlopen(None, 2)
        _UNSHARE, _CAPSET = _ctypes.dlsym(h, "unshare"), _ctypes.dlsym(h, "capset")
    except _BaseException as e:
        return "no libc unshare: " + _safe(e)
    r, w = posix.pipe()
    pid = posix.fork()
    if pid == 0:
        posix.close(r)
        try:
            _isolate()
            posix.write(w, b"ok")
        except _BaseException as e:
            posix.write(w, _safe(e).encode("utf-8", "replace")[:200])
        _exit(0)
    posix.close(w)
    got = posix.read(r, 256).decode("utf-8", "replace")
    posix.close(r)
    posix.waitpid(pid, 0)
    return "" if got == "ok" else (got or "probe child died")


def _serve(ctrl, want_ns):
    """Fork server: for each job message on the control socket (scratch, limits and
    the report pipe's descriptor), fork a child that runs the job, report its pid,
    wait for it and report its wait status. It never runs generated code itself;
    with want_ns each child gets fresh namespaces (see _isolate) before its job."""
    for m in _WARM:
        try:
            __import__(m)
        except ImportError:
            pass
    import socket
    import os
    per_child = False
    if want_ns:
        why = _probe_isolation()
        per_child = not why
    sock = socket.socket(fileno=ctrl)
    if per_child:
        sock.send(b"ready ns")
    elif want_ns:
        sock.send(("ready nons " + why).encode("utf-8", "replace")[:250])
    else:
        sock.send(b"ready off")
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(sock, 65536, 4)
        except OSError:
            _exit(0)
        if not msg:
            _exit(0)
        fields = msg.decode("utf-8", "replace").split("\t")
        if _len(fields) != 6 or not fds:
            for f in fds:
                posix.close(f)
            sock.send(b"error bad message")
            continue
        scratch, limits, rfd = fields[0], fields[1:6], fds[0]
        for f in fds[1:]:
            posix.close(f)
        pid = posix.fork()
        if pid == 0:
            try:
                posix.close(ctrl)
                posix.setpgid(0, 0)
                if per_child:
                    try:
                        _isolate()
                    except _BaseException:
                        _exit(71)  # no job runs without the isolation reported
                    # as in an exec'd run, importing ctypes must reach the audit hook
                    sys.modules.pop("_ctypes", None)
                posix.chdir(scratch)
                job.setup(rfd, scratch, limits, job.read_job(scratch))
                _run()
            finally:
                _exit(70)
        try:
            posix.setpgid(pid, pid)
        except OSError:
            pass
        posix.close(rfd)
        sock.send(b"pid %d" % pid)
        _, status = posix.waitpid(pid, 0)
        sock.send(b"status %d" % status)
