"""Tests of the import hooks and the stub globals: HTTP clients are always the
recorders, what is not installed is a stub (for the code under test only), and an
undefined name is a stub or the standard module the code forgot to import."""
import builtins
import json
import os
import sys

from .. import facts, job, stubs
from ..recorders import _FAKES
from ..stubs import _FakeFinder, _FakeLoader, _Globals, _prepare_stdlib, _StubFinder
from ..values import _Any, _StubModule
from .support import HarnessTest


def as_generation(source, g):
    """Runs source as the code under test does: compiled as "<generation>"."""
    exec(compile(source, "<generation>", "exec"), g)
    return g


class FinderTest(HarnessTest):
    def test_fake_finder(self):
        spec = _FakeFinder.find_spec("requests")
        self.assertIs(spec.loader, _FakeLoader)
        self.assertIsNotNone(spec.submodule_search_locations)
        self.assertIs(_FakeLoader.create_module(spec), _FAKES["requests"])
        self.assertIsNone(_FakeFinder.find_spec("urllib.request").submodule_search_locations)
        spec = _FakeFinder.find_spec("requests.packages.urllib3.util")  # a submodule not faked
        self.assertIsInstance(_FakeLoader.create_module(spec), _StubModule)
        self.assertIsNone(_FakeFinder.find_spec("json"))
        self.assertIsNone(_FakeFinder.find_spec("requestsfoo"))

    def test_stub_finder_serves_the_code_only(self):
        self.assertIsNone(_StubFinder.find_spec("not_installed_anywhere"))  # called from here: not the code
        self.assertEqual(stubs._stubbed, [])
        g = as_generation("spec = find_spec('not_installed_anywhere.sub')", {"find_spec": _StubFinder.find_spec})
        self.assertIs(g["spec"].loader, _FakeLoader)
        self.assertEqual(stubs._stubbed, ["not_installed_anywhere.sub"])
        g = as_generation("spec = find_spec('_winapi')", {"find_spec": _StubFinder.find_spec})
        self.assertIsNone(g["spec"])  # a missing standard module stays missing

    def test_imports_through_the_hooks(self):
        names = ("requests", "requests.exceptions", "somelib_not_installed", "somelib_not_installed.deep")
        saved = {n: sys.modules.pop(n) for n in names if n in sys.modules}
        sys.meta_path.insert(0, _FakeFinder)
        sys.meta_path.append(_StubFinder)
        try:
            g = as_generation("import requests\nfrom requests.exceptions import HTTPError\n"
                              "import somelib_not_installed.deep as deep\nfrom somelib_not_installed import thing\n", {})
        finally:
            sys.meta_path.remove(_FakeFinder)
            sys.meta_path.remove(_StubFinder)
            for n in names:
                sys.modules.pop(n, None)
            sys.modules.update(saved)
        self.assertIs(g["requests"], _FAKES["requests"])
        self.assertIs(g["HTTPError"], _FAKES["requests.exceptions"].HTTPError)
        self.assertIsInstance(g["deep"], _StubModule)
        self.assertIsInstance(g["thing"], _Any)
        self.assertEqual(stubs._stubbed, ["somelib_not_installed", "somelib_not_installed.deep"])


class GlobalsTest(HarnessTest):
    def test_missing_names(self):
        g = _Globals()
        self.assertIs(g["len"], len)
        self.assertIs(g["requests"], _FAKES["requests"])
        self.assertIs(g["json"], json)
        self.assertIsInstance(g["CONFIG"], _Any)
        self.assertIsInstance(g["CONFIG"], _Any)
        self.assertIsInstance(g["_private"], _Any)
        with self.assertRaises(KeyError):
            g["__missing_dunder__"]
        self.assertEqual(stubs._undefined, ["CONFIG", "_private"])

    def test_never_imports_modules_with_side_effects(self):
        g = _Globals()
        for name in ("this", "antigravity", "turtle"):
            with self.subTest(name):
                was = name in sys.modules
                self.assertIsInstance(g[name], _Any)
                self.assertEqual(name in sys.modules, was)

    def test_at_most_50_undefined(self):
        g = _Globals()
        for i in range(60):
            g["NAME%d" % i]
        self.assertEqual(len(stubs._undefined), 50)

    def test_as_module_globals(self):
        g = as_generation("x = API_KEY + 'y'\nn = len([1])\n", _Globals({"__builtins__": builtins}))
        self.assertEqual(g["n"], 1)
        self.assertEqual(g["x"], "stuby")  # a stub joined to a string is a string


class PrepareStdlibTest(HarnessTest):
    def test_input_file_has_the_columns_the_code_reads(self):
        facts._sub_keys[:] = ["review", "stars"]
        _prepare_stdlib()
        with open(os.path.join(self.scratch, "input.txt")) as f:
            self.assertEqual(f.read(), "review,stars\ntest,test\n")

    def test_input_file_default_column(self):
        _prepare_stdlib()
        with open(os.path.join(self.scratch, "input.txt")) as f:
            self.assertEqual(f.read(), "test\ntest\n")

    def test_json_serializes_stubs(self):
        orig = json.JSONEncoder.default
        self.addCleanup(setattr, json.JSONEncoder, "default", orig)
        job.code = "json.dumps(x)"
        _prepare_stdlib()
        self.assertEqual(json.dumps({"a": _Any()}), '{"a": "stub"}')
        with self.assertRaises(TypeError):
            json.dumps(object())

    def test_json_untouched_unless_the_code_dumps(self):
        orig = json.JSONEncoder.default
        _prepare_stdlib()
        self.assertIs(json.JSONEncoder.default, orig)

    def test_sqlite_database_it_cannot_open_is_a_stub(self):
        try:
            import sqlite3
        except ImportError:
            self.skipTest("no sqlite3")
        orig = sqlite3.connect
        self.addCleanup(setattr, sqlite3, "connect", orig)
        job.code = "import sqlite3"
        _prepare_stdlib()
        self.assertIsInstance(sqlite3.connect("/nonexistent-dir-sccg/x.db"), _Any)
        con = sqlite3.connect(":memory:")
        self.assertEqual(con.execute("select 1").fetchone(), (1,))
        con.close()
