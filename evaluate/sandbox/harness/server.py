"""The fork server: a warm interpreter that has loaded the harness and the modules
generated code imports most, and never runs generated code itself. The Go side
starts it in user, network, IPC and UTS namespaces of its own, which all its
children share: no network interface but a loopback that is down, and no way into
the evaluator's. For each job message on its control socket it forks a child that
runs the job exactly as an exec'd run would, in the server's scratch directory;
once the child is gone it empties that directory for the next job.

The server never loads ctypes or _ctypes: a child inherits every extension its
server loaded, and _ctypes's types (reachable through type.__subclasses__, which
no audit event covers) call any address without an audit event."""
import sys
import posix

from . import job
from .batch import _empty, _PRELOAD as batch_preload, _prepare as batch_prepare, _serve as batch_serve
from .run import _run

_len, _list = len, list
_exit = posix._exit
_BaseException = BaseException


# Modules a warm server imports before it forks: the harness's own needs and what
# generated code imports most (a module few completions import costs every child
# its pages at fork and exit, more than importing it costs the few).
_WARM = ("_ast", "os", "json", "re", "time", "datetime", "typing", "collections", "urllib", "urllib.parse",
         "base64", "random", "math", "logging", "pathlib", "enum", "functools", "string", "csv", "io",
         "traceback", "argparse", "copy", "http")

def _serve(ctrl, scratch, batches=False):
    """Fork server: for each job message on the control socket (the job's limits,
    and the descriptors of its report pipe and of its memory file; for a batch,
    "batch", the limits, and the report pipe, the job socket and the memory file),
    fork a child that runs the job (or the batch, see batch) in directory scratch,
    report its pid, wait for it, empty scratch and report the child's wait status
    and CPU time (µs). It never runs generated code."""
    # A server whose children run batches loads what a batch shares too: once here,
    # not in every batch child.
    for m in _WARM + (batch_preload if batches else ()):
        try:
            __import__(m)
        except ImportError:
            pass
    import socket
    import gc
    sock = socket.socket(fileno=ctrl)
    # What the server holds now stays put: a child's collections never walk (and
    # so never copy) the server's own objects.
    if batches:
        pkg = __name__.rpartition(".")[0]
        batch_prepare([m for n, m in _list(sys.modules.items()) if n == pkg or n.startswith(pkg + ".")])
    gc.freeze()
    sock.send(b"ready")
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(sock, 65536, 4)
        except OSError:
            _exit(0)
        if not msg:
            _exit(0)
        limits = msg.decode("utf-8", "replace").split("\t")
        # a batch: "batch", a job's CPU seconds and the batch's limits, with the job
        # socket between the two files
        batch = limits[0] == "batch"
        job_cpu = 0
        if batch:
            job_cpu = int(limits[1]) if _len(limits) > 1 and limits[1].isdigit() else 0
            limits = limits[2:]
        want = 3 if batch else 2
        if _len(limits) != 5 or _len(fds) < want:
            for f in fds:
                posix.close(f)
            sock.send(b"error bad message")
            continue
        for f in fds[want:]:
            posix.close(f)
        fds = fds[:want]
        pid = posix.fork()
        if pid == 0:
            try:
                posix.close(ctrl)
                posix.setpgid(0, 0)
                posix.chdir(scratch)
                if batch:
                    rfd, sfd, mfd = fds
                    posix.dup2(mfd, 2)  # the memory file holds the batch's stderr
                    posix.close(mfd)
                    batch_serve(rfd, sfd, scratch, limits, job_cpu)
                rfd, jfd = fds
                text = job.read_job(jfd)
                posix.dup2(jfd, 2)  # the job's memory file holds its stderr now
                posix.close(jfd)
                job.setup(rfd, scratch, limits, text)
                _run()
            finally:
                _exit(70)
        try:
            posix.setpgid(pid, pid)
        except OSError:
            pass
        for f in fds:
            posix.close(f)
        sock.send(b"pid %d" % pid)
        _, status, ru = posix.wait4(pid, 0)
        clean = _empty(scratch)
        sock.send(b"status %d %d" % (status, (ru.ru_utime + ru.ru_stime) * 1e6))
        if not clean:
            _exit(0)  # the Go side starts another server with a fresh directory
