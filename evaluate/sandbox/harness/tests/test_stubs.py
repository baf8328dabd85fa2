"""Tests of the import hooks and the stub globals: HTTP clients are always the
recorders, what is not installed is a stub (for the code under test only), and an
undefined name is a stub or the standard module the code forgot to import."""
import builtins
import json
import os
import sys
import typing

from .. import facts, job, stubs
from ..recorders import _FAKES
from ..stubs import (_dummy_file, _Env, _env_value, _FakeFinder, _FakeLoader, _Globals, _input, _prepare_stdlib,
                     _stub_as_str, _StubFinder)
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

    def test_session_is_a_recording_session(self):
        g = _Globals()
        s = g["session"]
        self.assertIs(type(s), _FAKES["requests"].Session)
        self.assertIs(g["session"], s)  # one for the whole run
        self.assertEqual(stubs._undefined, ["session"])
        self.assertIsInstance(g["async_session"], _Any)  # a factory of database sessions, not a client

    def test_bind(self):
        g = _Globals({"x": 1})
        self.assertFalse(g.bind("x"))
        self.assertTrue(g.bind("favicon_path"))
        self.assertIsInstance(dict.__getitem__(g, "favicon_path"), _Any)
        self.assertTrue(g.bind("json"))
        self.assertIs(dict.__getitem__(g, "json"), json)
        self.assertTrue(g.bind("List"))
        self.assertIs(dict.__getitem__(g, "List"), typing.List)
        self.assertEqual(stubs._undefined, ["favicon_path"])

    def test_class_body_sees_a_bound_name(self):
        g = _Globals({"__builtins__": builtins})
        src = "class C:\n    items: List[str] = []\n"
        with self.assertRaises(NameError) as e:
            as_generation(src, g)  # a class body looks globals up without __missing__
        self.assertTrue(g.bind(e.exception.name))
        as_generation(src, g)
        self.assertIn("C", g)

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


class EnvTest(HarnessTest):
    def test_unset_variables_read_as_set(self):
        g = as_generation("""env = _Env({"HOME": "/h", "EMPTY": ""})
got = [
    ("set", env.get("HOME"), "/h"),
    ("set but empty", env.get("EMPTY", "x"), ""),
    ("unset", env.get("RAPIDAPI_KEY"), "test-value"),
    ("unset, None default", env.get("RAPIDAPI_KEY", None), "test-value"),
    ("unset, empty default reads as set", env.get("RAPIDAPI_KEY", ""), "test-value"),
    ("unset, a default", env.get("UNITS", "metric"), "metric"),
    ("unset, a number default", env.get("RETRIES", 0), 0),
    ("unset, False default", env.get("DEBUG", False), False),
    ("indexed", env["RAPIDAPI_KEY"], "test-value"),
    ("a number by its name", env["MAX_RESULTS"], "1"),
    ("a copy answers too", env.copy()["API_KEY"], "test-value"),
    ("a lookup for the code", env.lookup("API_KEY", None, sys._getframe()), "test-value"),
]
""", {"_Env": _Env, "sys": sys})
        for name, got, want in g["got"]:
            with self.subTest(name):
                self.assertEqual(got, want)
        self.assertIs(type(g["env"].copy()), _Env)

    def test_the_standard_library_gets_the_real_answer(self):
        env = _Env({"HOME": "/h"})  # looked up from here, not from the code under test
        self.assertIsNone(env.get("RAPIDAPI_KEY"))
        self.assertEqual(env.get("HOME"), "/h")
        with self.assertRaises(KeyError):
            env["RAPIDAPI_KEY"]

    def test_placeholders(self):
        for k, want in (("API_PORT", "1"), ("REQUEST_TIMEOUT", "1"), ("page-size", "1"), ("PORTAL_URL", "test-value"),
                        ("SUPPORT_EMAIL", "test-value"), ("RAPIDAPI_KEY", "test-value")):
            with self.subTest(k):
                self.assertEqual(_env_value(k), want)
                self.assertEqual(int(_env_value(k)) if want == "1" else want, 1 if want == "1" else want)


class InputTest(HarnessTest):
    def test_answers_in_turn_then_end_of_input(self):
        facts._facts(compile('c = input()\nif c == "1":\n    pass\nelif c == "q":\n    exit()\n', "<generation>",
                             "exec", 0x400))
        got = [_input("> ") for _ in range(7)]
        self.assertEqual(got, ["1", "test", "q", "1", "test", "q", "1"])
        for _ in range(stubs._MAX_ANSWERS - 7):
            _input()
        with self.assertRaises(EOFError):
            _input()

    def test_free_answer(self):
        self.assertEqual(_input("City: "), "test")


class DummyFileTest(HarnessTest):
    def setUp(self):
        super().setUp()
        job.code = "open(p)"
        _prepare_stdlib()

    def test_by_kind(self):
        facts._sub_keys[:] = ["api_key", "text"]
        tests = [
            ("payload.json", "r", '{"api_key": "test", "text": "test"}\n'),
            ("Data/rows.csv", "r", "api_key,text\ntest,test\n"),
            ("rows.tsv", "r", "api_key\ttext\ntest\ttest\n"),
            ("config.yml", "r", "api_key: test\ntext: test\n"),
            ("notes.txt", "r", "test\n"),
            ("/abs/dir.d/README", "r", "test\n"),
            ("payload.json", "rb", b'{"api_key": "test", "text": "test"}\n'),
        ]
        for name, mode, want in tests:
            with self.subTest(name + " " + mode):
                f = _dummy_file(name, mode)
                self.assertEqual(f.read(), want)
                self.assertEqual(f.name, name)

    def test_open_of_a_missing_file_from_the_code(self):
        g = {"__builtins__": builtins, "CONFIG": _Any()}
        as_generation("import json, pathlib\n"
                      "with open('payload.json') as f:\n    payload = json.load(f)\n"
                      "text = open('Data/input.txt', 'r').read()\n"
                      "path_text = pathlib.Path('missing.txt').read_text()\n"
                      "stub_path = open(CONFIG.path).read()\n", g)
        self.assertEqual((g["payload"], g["text"], g["path_text"], g["stub_path"]), ({"test": "test"}, "test\n", "test\n", "test\n"))

    def test_what_is_not_a_dummy(self):
        with self.assertRaises(FileNotFoundError):
            open(os.path.join(self.scratch, "missing.json"))  # not the code under test
        g = {"__builtins__": builtins}
        for src in ("open('/nonexistent-sccg/out.json', 'w')", "open('/nonexistent-sccg/log.txt', 'a')",
                    "open('/nonexistent-sccg/in.json', 'r+')"):
            with self.subTest(src):
                with self.assertRaises(FileNotFoundError):
                    as_generation(src, g)
        path = os.path.join(self.scratch, "real.json")
        with open(path, "w") as f:
            f.write("[1]")
        self.assertEqual(as_generation("import json\nwith open(%r) as f:\n    x = json.load(f)\n" % path, g)["x"], [1])


class StubAsStrTest(HarnessTest):
    def test_urllib_parse_takes_stubs(self):
        import urllib.parse as up
        job.code = "quote(x)"
        _prepare_stdlib()
        self.assertEqual(up.quote(_Any()), "stub")
        self.assertEqual(up.quote_plus(_Any()), "stub")
        self.assertEqual(up.urljoin("https://h.example.com/a/", _Any()), "https://h.example.com/a/stub")
        self.assertEqual(up.quote("a b"), "a%20b")
        self.assertEqual(_stub_as_str(len)(_Any()), 4)
