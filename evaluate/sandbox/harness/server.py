"""The fork server: a warm interpreter that has loaded the harness and the modules
generated code imports most, and never runs generated code itself. The Go side
starts it in user, network, IPC and UTS namespaces of its own, which all its
children share: no network interface but a loopback that is down, and no way into
the evaluator's. For each job message on its control socket it forks a child that
runs the job exactly as an exec'd run would, in a scratch directory of the child's
own; it serves several children at once, and once a child is gone it empties that
child's directory for a later one.

A light server (whose children run code that is not tame) never loads ctypes or
_ctypes: a child inherits every extension its server loaded, and _ctypes's types
(reachable through type.__subclasses__, which no audit event covers) call any
address without an audit event. A server of batches does (batch._prepare makes
the view of memory its children read version tags through): its children load
_ctypes anyway, and run only tame code, which names no dunder."""
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

# What a server whose children run only what a batch does not take (kind "own",
# beside a server of batches) imports too: the modules of the public gold code
# tame refuses (it imports subprocess, webbrowser or pickle, or names asyncio),
# each of which costs a child that imports it more than its pages cost the
# others (asyncio, with what it loads: subprocess, ssl, inspect, signal,
# concurrent.futures, about 65 ms of CPU to import; webbrowser 15; pickle 3). Not
# for the light server of an unbatched runner, which serves every run.
_OWN = ("asyncio", "subprocess", "webbrowser", "pickle")

# How many children a server serves at once, as it tells the Go side: any number
# where the kernel gives a descriptor per process to wait on (pidfd_open, Linux
# 5.3), else one, waited for before the next job is taken.
_MANY = 1 << 10


def _serve(ctrl, scratch, kind=""):
    """Fork server of kind "batch" (its children run batches), "own" (beside a
    server of batches: its children run what a batch does not take) or "" (every
    run in a child of its own): for each job message on the control socket (the job's limits,
    and the descriptors of its report pipe and of its memory file; for a batch,
    "batch", the limits, and the report pipe, the job socket and the memory file),
    fork a child that runs the job (or the batch, see batch) in a scratch
    directory of its own and report "pid N". Whenever a child ends, reap it, empty
    its directory and report "status N WAITSTATUS CPU_US", and " dirty" after it
    when the directory could not be emptied (it is never handed out again). The
    children's directories are scratch and, when several children are alive at
    once, scratch-1, scratch-2, ... beside it (not inside: a child's guard keeps
    it out of its directory's parent and everything in it but its own), each
    emptied and kept for a later child. It never runs generated code."""
    # A server whose children run batches loads what a batch shares too: once here,
    # not in every batch child.
    batches = kind == "batch"
    for m in _WARM + (batch_preload if batches else _OWN if kind == "own" else ()):
        try:
            __import__(m)
        except ImportError:
            pass
    import socket
    import gc
    from select import poll, POLLIN
    sock = socket.socket(fileno=ctrl)
    # What the server holds now stays put: a child's collections never walk (and
    # so never copy) the server's own objects.
    if batches:
        pkg = __name__.rpartition(".")[0]
        batch_prepare([m for n, m in _list(sys.modules.items()) if n == pkg or n.startswith(pkg + ".")])
    srv = _Server(sock, ctrl, scratch, _pidfds(), socket.recv_fds, poll(), POLLIN)
    gc.freeze()
    sock.send(b"ready %d" % (_MANY if srv.pidfd_open else 1))
    srv.run()


class _Server:
    """A fork server's state: its control socket (sock, on descriptor ctrl), the
    directories of its children (scratch, scratch-1, ...: those emptied, free, for
    the next children) and its children alive, by the pidfd it waits on."""

    def __init__(self, sock, ctrl, scratch, pidfd_open, recv_fds, waiting, pollin):
        self.sock, self.ctrl, self.scratch, self.pidfd_open = sock, ctrl, scratch, pidfd_open
        self.recv_fds, self.waiting, self.pollin = recv_fds, waiting, pollin
        self.free = [scratch]
        self.made = 1
        self.alive = {}  # pidfd: (pid, directory)
        waiting.register(ctrl, pollin)

    def run(self):
        """Waits on the control socket and the children's pidfds together: forks a
        child for each job message, reports each child's end. Never returns."""
        while True:
            for fd, _ in self.waiting.poll():
                if fd != self.ctrl:
                    pid, d = self.alive.pop(fd)
                    self.waiting.unregister(fd)
                    posix.close(fd)
                    self.end(pid, d)
                    continue
                try:
                    msg, fds, _, _ = self.recv_fds(self.sock, 65536, 4)
                except OSError:
                    msg, fds = b"", []
                if not msg:
                    self.quit()
                self.fork(msg, fds)

    def quit(self):
        """The Go side is gone, or gave this server up: so are its children."""
        for pid, _ in self.alive.values():
            try:
                posix.killpg(pid, 9)
            except OSError:
                pass
        _exit(0)

    def end(self, pid, d):
        """Reaps child pid, empties its directory d and reports both."""
        _, status, ru = posix.wait4(pid, 0)
        clean = _empty(d)
        if clean:
            self.free.append(d)
        self.sock.send(b"status %d %d %d%s" % (pid, status, (ru.ru_utime + ru.ru_stime) * 1e6,
                                               b"" if clean else b" dirty"))

    def fork(self, msg, fds):
        """Forks the child of job message msg (with descriptors fds) in a free
        directory and reports its pid; without a pidfd to wait on, waits for its
        end too."""
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
            self.sock.send(b"error bad message")
            return
        for f in fds[want:]:
            posix.close(f)
        fds = fds[:want]
        d = self.directory()
        if d is None:
            for f in fds:
                posix.close(f)
            self.sock.send(b"error no scratch directory")
            return
        try:
            pid = posix.fork()
        except OSError as e:  # out of processes or memory: the children alive go on
            self.free.append(d)
            for f in fds:
                posix.close(f)
            self.sock.send(b"error fork: %s" % str(e).encode("utf-8", "replace"))
            return
        if pid == 0:
            try:
                posix.close(self.ctrl)
                for f in self.alive:  # the other children's: none of this child's business
                    posix.close(f)
                posix.setpgid(0, 0)
                posix.chdir(d)
                if batch:
                    rfd, sfd, mfd = fds
                    posix.dup2(mfd, 2)  # the memory file holds the batch's stderr
                    posix.close(mfd)
                    batch_serve(rfd, sfd, d, limits, job_cpu)
                rfd, jfd = fds
                text = job.read_job(jfd)
                posix.dup2(jfd, 2)  # the job's memory file holds its stderr now
                posix.close(jfd)
                job.setup(rfd, d, limits, text)
                _run()
            finally:
                _exit(70)
        try:
            posix.setpgid(pid, pid)
        except OSError:
            pass
        for f in fds:
            posix.close(f)
        # A child that has exited already still has a pidfd, ready until it is reaped.
        pidfd = -1
        if self.pidfd_open is not None:
            try:
                pidfd = self.pidfd_open(pid)
            except OSError:
                pass
        self.sock.send(b"pid %d" % pid)
        if pidfd < 0:
            self.end(pid, d)
            return
        self.alive[pidfd] = (pid, d)
        self.waiting.register(pidfd, self.pollin)

    def directory(self):
        """An emptied directory for a child, or a new one; None when none can be made."""
        if self.free:
            return self.free.pop()
        d = "%s-%d" % (self.scratch, self.made)
        try:
            posix.mkdir(d, 0o700)
        except OSError:
            return None
        self.made += 1
        return d


def _pidfds():
    """posix.pidfd_open when the kernel has it, else None."""
    f = getattr(posix, "pidfd_open", None)
    if f is None:
        return None
    try:
        posix.close(f(posix.getpid()))
    except OSError:
        return None
    return f
