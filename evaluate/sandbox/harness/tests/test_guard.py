"""Tests of the guard: the audit hook's decisions, called directly (the hook is
never installed in the test process), and the path arithmetic they rest on."""
import dis
import os
import pathlib
import unittest

from .. import guard
from ..guard import _abspath, _inside, _make_audit
from .support import HarnessTest


class AbspathTest(unittest.TestCase):
    def test_paths(self):
        cwd = os.getcwd()
        tests = [
            ("absolute", "/a/b", "/a/b"),
            ("dots", "/a/./b/../c//d/", "/a/c/d"),
            ("above the root", "/../../etc", "/etc"),
            ("relative", "x/y", cwd.rstrip("/") + "/x/y" if cwd != "/" else "/x/y"),
            ("bytes", b"/a/b", "/a/b"),
            ("path-like", pathlib.PurePosixPath("/a/b/.."), "/a"),
            ("not a path", 3.5, None),
        ]
        for name, p, want in tests:
            with self.subTest(name):
                self.assertEqual(_abspath(p), want)


class AuditTest(HarnessTest):
    def allowed(self, event, *args):
        try:
            _make_audit(guard._SCR, (guard.__dict__,))(event, args)
        except PermissionError:
            return False
        return True

    def test_open(self):
        s = self.scratch
        tests = [
            ("read anywhere", ("/etc/hostname", "r", 0), True),
            ("write in scratch", (s + "/out.txt", "w", 0), True),
            ("write in a scratch subdirectory", (s + "/a/b.txt", "a", 0), True),
            ("write the scratch directory itself", (s, None, os.O_WRONLY), True),
            ("write /dev/null", ("/dev/null", "wb", 0), True),
            ("write outside", ("/tmp/sccg-outside.txt", "w", 0), False),
            ("write outside by ..", (s + "/../sccg-outside.txt", "r+", 0), False),
            ("write a sibling with the scratch as prefix", (s + "-x/out.txt", "w", 0), False),
            ("os.open for writing outside", ("/tmp/sccg-outside.txt", None, os.O_WRONLY | os.O_CREAT), False),
            ("os.open for reading outside", ("/etc/hostname", None, os.O_RDONLY), True),
            ("another process's /proc", ("/proc/1/status", "r", 0), False),
            ("own /proc", ("/proc/self/status", "r", 0), True),
            ("own environment", ("/proc/self/environ", "r", 0), False),
            ("own memory", ("/proc/self/mem", "rb", 0), False),
            ("a thread's memory", ("/proc/self/task/1/mem", "rb", 0), False),
            ("the sandbox directory beside the scratch", (os.path.dirname(s) + "/other-run/x", "r", 0), False),
            ("a str subclass", (type("S", (str,), {"startswith": lambda self, p: True})("/etc/x"), "w", 0), False),
            ("write through a path object in scratch", (pathlib.PosixPath(s + "/out.txt"), "w", 0), False),
            ("write through a path object of the code's", (type("P", (), {"__fspath__": lambda self: s + "/x"})(), "w", 0), False),
            ("read through a path object of the code's", (type("P", (), {"__fspath__": lambda self: "/etc/hostname"})(), "r", 0), True),
            ("a descriptor", (5, "w", 0), True),
            ("a path that is not one", (3.5, "r", 0), False),
        ]
        for name, args, want in tests:
            with self.subTest(name):
                self.assertEqual(self.allowed("open", *args), want)

    def test_events(self):
        s = self.scratch
        tests = [
            ("ctypes import", ("import", "ctypes", None, None, None, None), False),
            ("_ctypes import", ("import", "_ctypes", None, None, None, None), False),
            ("ctypes submodule import", ("import", "ctypes.util", None, None, None, None), False),
            ("other import", ("import", "json", None, None, None, None), True),
            ("AF_UNIX socket", ("socket.__new__", None, 1, 1, 0), True),
            ("AF_INET socket", ("socket.__new__", None, 2, 1, 0), False),
            ("os.system", ("os.system", b"ls"), False),
            ("subprocess", ("subprocess.Popen", "sh", ["sh"], None, None), False),
            ("fork", ("os.fork",), False),
            ("kill", ("os.kill", 1, 9), False),
            ("setrlimit", ("resource.setrlimit", 0, (1, 1)), False),
            ("gc.get_objects", ("gc.get_objects", None), False),
            ("sqlite in memory", ("sqlite3.connect", ":memory:"), True),
            ("sqlite in scratch", ("sqlite3.connect", s + "/db.sqlite"), True),
            ("sqlite outside", ("sqlite3.connect", "/tmp/sccg-outside.db"), False),
            ("sqlite URI", ("sqlite3.connect", "file:/tmp/x.db?mode=rw"), False),
            ("sqlite extension", ("sqlite3.enable_load_extension", None, True), False),
            ("remove in scratch", ("os.remove", s + "/x", -1), True),
            ("remove outside", ("os.remove", "/tmp/sccg-outside", -1), False),
            ("remove relative to a directory descriptor", ("os.remove", "x", 3), False),
            ("rename out of scratch", ("os.rename", s + "/x", "/tmp/y", -1, -1), False),
            ("rename in scratch", ("os.rename", s + "/x", s + "/y", -1, -1), True),
            ("symlink target outside", ("os.symlink", "/etc/passwd", s + "/link", -1), False),
            ("symlink to the scratch directory", ("os.symlink", s, s + "/d/link", -1), False),
            ("chdir in scratch", ("os.chdir", s + "/d"), True),
            ("chdir to scratch", ("os.chdir", s), True),
            ("chdir outside", ("os.chdir", "/tmp"), False),
            ("chdir up", ("os.chdir", s + "/d/.."), False),
            ("chdir by descriptor", ("os.chdir", 3), False),
            ("write through a path that climbs", ("open", s + "/a/b/../../x", "w", 0), False),
            ("rename into a path that climbs", ("os.rename", s + "/x", "a/../y", -1, -1), False),
            ("read through a path that climbs", ("open", s + "/a/../x", "r", 0), True),
            ("mkdir in scratch", ("os.mkdir", s + "/d", 0o777, -1), True),
            ("rmtree outside", ("shutil.rmtree", "/tmp/sccg-outside", None), False),
            ("chmod through a descriptor", ("os.chmod", 3, 0o777, None), False),
            ("utime in scratch", ("os.utime", s + "/x", None, None, None), True),
            ("an event nobody guards", ("compile", b"x", "<string>"), True),
            ("tracing", ("sys.settrace", None), False),
            ("another audit hook", ("sys.addaudithook",), False),
            ("re-import posix", ("import", "posix", None, None, None, None), False),
            ("import shared memory", ("import", "_posixshmem", None, None, None, None), False),
            ("list the scratch directory", ("os.listdir", s), True),
            ("list the sandbox directory", ("os.listdir", os.path.dirname(s)), False),
            ("scan beside the scratch", ("os.scandir", os.path.dirname(s) + "/other-run"), False),
            ("read a harness function's defaults", ("object.__getattr__", guard._abspath, "__defaults__"), False),
            ("read a harness function's code", ("object.__getattr__", guard._abspath, "__code__"), True),
            ("replace a harness function's defaults", ("object.__setattr__", guard._abspath, "__defaults__", ()), False),
            ("read the code's own defaults", ("object.__getattr__", lambda x=1: x, "__defaults__"), True),
        ]
        for name, (event, *args), want in tests:
            with self.subTest(name):
                self.assertEqual(self.allowed(event, *args), want)

    def test_hook_reads_no_global(self):
        """What the hook decides by cannot be changed through this module's globals."""
        hook = _make_audit(self.scratch, (guard.__dict__,))
        for f in (hook, _abspath, guard._plain, guard._climbs):
            names = [i.argval for i in dis.get_instructions(f) if i.opname in ("LOAD_GLOBAL", "LOAD_NAME")]
            self.assertEqual(names, [], f.__name__)
        saved = guard._SCR
        guard._SCR = ""
        try:
            with self.assertRaises(PermissionError):
                hook("open", ("/tmp/sccg-outside.txt", "w", 0))
        finally:
            guard._SCR = saved

    def test_confined_to_the_scratch_directory(self):
        self.assertTrue(_inside(self.scratch + "/x"))
        self.assertFalse(_inside("/tmp"))
        guard._confine_to("/tmp/elsewhere/../other")
        self.assertEqual(guard._SCR, "/tmp/other")
        self.assertTrue(_inside("/tmp/other/x"))
        self.assertFalse(_inside(self.scratch + "/x"))
