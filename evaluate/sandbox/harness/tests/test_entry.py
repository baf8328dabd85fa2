"""Tests of the harness as the Go side runs it: built into a bundle (or not), one
job per exec'd interpreter, and the fork server's protocol. Each runs the harness
in a child process, where its hooks and limits cannot touch the test process."""
import ast
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the package
LIMITS = ["10", str(1 << 30), str(16 << 20), "64", "64"]
CODE = '''import os, requests
def fetch(city):
    key = os.environ["RAPIDAPI_KEY"]
    r = requests.get("https://w.p.rapidapi.com/now/" + city, headers={"X-RapidAPI-Key": key})
    r.raise_for_status()
    return r.json()["temp"]
'''


class PackageTest(unittest.TestCase):
    def test_modules_listed_in_load_order(self):
        init = {}
        with open(os.path.join(HERE, "__init__.py")) as f:
            exec(f.read(), init)
        listed = list(init["MODULES"]) + list(init["BATCH"]) + [init["SERVER"]]
        files = sorted(n[:-3] for n in os.listdir(HERE) if n.endswith(".py"))
        self.assertEqual(sorted(listed + ["__init__", "__main__", "build"]), files)
        for name in files:
            with open(os.path.join(HERE, name + ".py")) as f:
                self.assertTrue(ast.get_docstring(ast.parse(f.read())), name + " has no module docstring")
        for i, name in enumerate(listed):
            with open(os.path.join(HERE, name + ".py")) as f:
                tree = ast.parse(f.read())
            for node in tree.body:
                if isinstance(node, ast.ImportFrom) and node.level == 1:
                    deps = [a.name for a in node.names] if node.module is None else [node.module]
                    for d in deps:
                        self.assertIn(d, listed[:i], "%s imports %s, which is not loaded before it" % (name, d))


class EntryTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="sccg-entry-test-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.pkg = os.path.join(self.dir, "harness")
        os.mkdir(self.pkg)
        for n in os.listdir(HERE):
            if n.endswith(".py"):
                shutil.copy(os.path.join(HERE, n), self.pkg)

    def build(self):
        subprocess.run([sys.executable, "-I", "-S", "-B", os.path.join(self.pkg, "build.py")], check=True,
                       env={}, capture_output=True)
        for n in ("bundle", "__main__.pyc"):
            self.assertTrue(os.path.exists(os.path.join(self.pkg, n)), n)
        return os.path.join(self.pkg, "__main__.pyc")

    def job(self, function, code):
        """A memory file holding the job, as the Go side writes it."""
        fd = os.memfd_create("job", 0)
        self.addCleanup(os.close, fd)
        os.pwrite(fd, ("NONCE\n" + function + "\n" + code).encode(), 0)
        return fd

    def run_job(self, entry, function, code):
        s = tempfile.mkdtemp(prefix="run-", dir=self.dir)
        jfd = self.job(function, code)
        r, w = os.pipe()
        try:
            p = subprocess.run([sys.executable, "-I", "-S", "-B", entry, str(w), str(jfd), s] + LIMITS, cwd=s,
                               pass_fds=(w, jfd), env={"PATH": "/usr/bin:/bin", "HOME": s}, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60)
            os.close(w)
            w = -1
            self.assertEqual(p.returncode, 0, p.stderr)
            with os.fdopen(r, "rb") as f:
                r = -1
                data = f.read()
        finally:
            for fd in (r, w):
                if fd >= 0:
                    os.close(fd)
        self.assertEqual(os.fstat(jfd).st_size, 0, "the job was left in its file")
        return parse(data)

    def check_fetch(self, reports):
        kinds = [k for k, _ in reports]
        self.assertEqual(kinds, ["facts", "req", "end"], reports)
        self.assertEqual(reports[0][1]["defs"], ["fetch"])
        self.assertEqual(reports[1][1], {"lib": "requests", "method": "GET", "url": "https://w.p.rapidapi.com/now/London",
                                         "headers": {"X-RapidAPI-Key": "<redacted>"}})
        self.assertEqual(reports[2][1]["status"], "ok")

    def test_from_the_bundle(self):
        self.check_fetch(self.run_job(self.build(), "fetch", CODE))

    def test_from_the_sources(self):
        self.check_fetch(self.run_job(os.path.join(self.pkg, "__main__.py"), "fetch", CODE))

    def test_the_bundle_is_what_runs(self):
        entry = self.build()
        with open(os.path.join(self.pkg, "capture.py"), "a") as f:
            f.write("\nraise RuntimeError('the sources were loaded')\n")
        self.check_fetch(self.run_job(entry, "fetch", CODE))

    def test_syntax_error(self):
        reports = self.run_job(self.build(), "", "def f(:\n")
        self.assertEqual(reports[0][0], "facts")
        self.assertFalse(reports[0][1]["syntax"])
        self.assertEqual(reports[1], ("end", {"status": "error", "error": "syntax"}))

    def test_guarded(self):
        reports = self.run_job(self.build(), "", "import os\nos.system('true')\n")
        self.assertEqual(reports[-1][1]["status"], "error")
        self.assertIn("PermissionError: sandbox: os.system is not allowed", reports[-1][1]["error"])

    def serve(self):
        """A fork server started as the Go side starts it, and our end of its
        control socket, once it is ready; and its scratch directory."""
        entry = self.build()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.addCleanup(ours.close)
        scratch = tempfile.mkdtemp(prefix="scratch-", dir=self.dir)
        srv = subprocess.Popen([sys.executable, "-I", "-S", "-B", entry, "serve", str(theirs.fileno()), scratch],
                               cwd=self.dir, pass_fds=(theirs.fileno(),), env={"PATH": "/usr/bin:/bin", "HOME": self.dir},
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        theirs.close()
        self.addCleanup(srv.wait)
        self.addCleanup(srv.kill)
        ours.settimeout(60)
        ready = ours.recv(256).split()
        self.assertEqual(ready[0], b"ready")
        self.assertGreater(int(ready[1]), 1)  # several children at once (pidfd_open)
        return srv, ours, scratch

    def start(self, ours, code, function="fetch"):
        """Has the server fork a child for a job; its pid and report pipe."""
        jfd = self.job(function, code)
        r, w = os.pipe()
        self.addCleanup(os.close, r)
        socket.send_fds(ours, [("\t".join(LIMITS)).encode()], [w, jfd])
        os.close(w)
        reply = ours.recv(256).split()
        self.assertEqual(reply[0], b"pid", reply)
        return int(reply[1]), r

    def test_fork_server(self):
        _, ours, scratch = self.serve()
        code = CODE + "open('left-behind.txt', 'w').write('x')\nimport os\nos.makedirs('d/e')\n"
        for _ in range(2):  # one server, several jobs, in one scratch directory emptied after each
            pid, r = self.start(ours, code)
            status = ours.recv(256).split()
            self.assertEqual(status[:3], [b"status", str(pid).encode(), b"0"])
            self.assertGreater(int(status[3]), 0)  # the child's CPU time, µs
            self.assertEqual(len(status), 4)
            self.check_fetch(parse(os.read(r, 1 << 20)))
            self.assertEqual(sorted(os.listdir(scratch)), ["input.txt"])
        ours.sendall(b"not a job")
        self.assertEqual(ours.recv(256), b"error bad message")

    def test_fork_server_serves_several(self):
        """Children alive at once each have a directory of their own, beside the
        server's first; each end is told by pid as it comes, out of the order of
        the starts; a directory that cannot be emptied is told and never handed out
        again, while the other children go on."""
        _, ours, scratch = self.serve()
        slow = "import time\nt = time.process_time()\nwhile time.process_time() - t < 1.5:\n    pass\n" + \
            "import os\nopen('slow.txt', 'w').write(os.getcwd())\n"
        spoil = "import os\nd = os.getcwd()\nos.remove('input.txt')\nos.rmdir(d)\nopen(d, 'w').write('x')\n"
        a, ra = self.start(ours, slow, "")
        b, rb = self.start(ours, spoil, "")
        status = ours.recv(256).split()
        self.assertEqual(status[:2], [b"status", str(b).encode()], "the quick child's end comes first")
        self.assertEqual(status[4:], [b"dirty"])
        c, rc = self.start(ours, CODE)
        status = ours.recv(256).split()
        self.assertEqual(status[:2], [b"status", str(c).encode()])
        self.assertEqual(len(status), 4)
        self.check_fetch(parse(os.read(rc, 1 << 20)))
        status = ours.recv(256).split()
        self.assertEqual(status[:3], [b"status", str(a).encode(), b"0"])
        self.assertEqual(len(status), 4)
        self.assertEqual(parse(os.read(ra, 1 << 20))[-1][1]["status"], "ok")
        dirs = sorted(n for n in os.listdir(self.dir) if n.startswith(os.path.basename(scratch)))
        self.assertEqual(dirs, [os.path.basename(scratch + s) for s in ("", "-1", "-2")])
        self.assertTrue(os.path.isfile(scratch + "-1"), "the spoilt directory is left as it was")
        for d in (scratch, scratch + "-2"):
            self.assertEqual(os.listdir(d), ["input.txt"])

    def test_fork_server_gone(self):
        """A server whose control socket closes kills its children alive."""
        srv, ours, _ = self.serve()
        pid, _ = self.start(ours, "while True:\n    pass\n", "")
        ours.close()
        self.assertEqual(srv.wait(60), 0)
        for _ in range(100):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)
        self.fail("the child outlived its server")


def parse(data):
    out = []
    for line in data.decode("utf-8").splitlines():
        nonce, kind, body = line.split("\t", 2)
        if nonce == "NONCE":
            out.append((kind, json.loads(body)))
    return out


class EmptyTest(unittest.TestCase):
    """What the fork server leaves of a job's scratch directory for the next one."""

    def test_empty(self):
        from .. import server
        d = tempfile.mkdtemp(prefix="scratch-")
        self.addCleanup(shutil.rmtree, d, True)
        outside = tempfile.mkdtemp(prefix="outside-")
        self.addCleanup(shutil.rmtree, outside, True)
        with open(os.path.join(outside, "keep.txt"), "w") as f:
            f.write("outside")
        with open(os.path.join(d, "input.txt"), "w") as f:
            f.write("col\n")
        os.makedirs(os.path.join(d, "a", "b"))
        os.symlink(outside, os.path.join(d, "link"))
        os.chmod(d, 0o500)
        self.assertTrue(server._empty(d))
        self.assertEqual(os.listdir(d), ["input.txt"])  # a plain file, kept to be truncated
        self.assertEqual(os.stat(d).st_mode & 0o777, 0o700)
        self.assertEqual(os.listdir(outside), ["keep.txt"])  # a link is removed, never followed
        os.remove(os.path.join(d, "input.txt"))
        os.symlink(os.path.join(outside, "keep.txt"), os.path.join(d, "input.txt"))
        self.assertTrue(server._empty(d))
        self.assertEqual(os.listdir(d), [])  # an input.txt that is a link goes too
        with open(os.path.join(outside, "keep.txt")) as f:
            self.assertEqual(f.read(), "outside")

    def test_not_a_directory(self):
        from .. import server
        d = tempfile.mkdtemp(prefix="scratch-")
        self.addCleanup(shutil.rmtree, d, True)
        os.rmdir(d)
        os.symlink("/tmp", d)
        self.addCleanup(os.remove, d)
        self.assertFalse(server._empty(d))
