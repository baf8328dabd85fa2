"""Tests of the uses: what the code does with a name, the dummies and globals
typed by it, and the cache miss in which a stub is None."""
import ast
import builtins
import os

from .. import facts, values
from ..dummies import _call_with_dummies
from ..stubs import _Globals, _prepare_stdlib, _undefined
from ..uses import _global_kind, _kinds, _param_kinds, _Query, _Request, _typed
from ..values import _ADict, _Any, _Free, _PStr
from .support import define, HarnessTest


def record(*a, **k):
    return a, k


class KindsTest(HarnessTest):
    def kinds(self, body):
        tree = ast.parse("def f(x):\n" + "".join("    " + line + "\n" for line in body.splitlines()))
        return _kinds(tree.body[0], {"x"}).get("x")

    def test_kinds(self):
        tests = [
            ("for i in range(x): pass", "int"),
            ("y = range(1, x)", "int"),
            ("y = x + 1", "int"),
            ("y = 2 * x", "int"),
            ("x += 1", "int"),
            ("if x > 0: pass", "int"),
            ("y = [1, 2][:x]", "int"),
            ("y = '-' * x", "int"),
            ("y = x.split(',')", "str"),
            ("y = x.strip().lower()", "str"),
            ("y = 'q=' + x", "str"),
            ("y = ', '.join([x])", None),  # x is what is joined, not the separator
            ("for k, v in x.items(): pass", "dict"),
            ("y = dict(**x)", "dict"),
            ("for k in x: pass\nfor k, v in x.items(): pass", "dict"),
            ("for i in x: pass", "iter"),
            ("y = [i for i in x]", "iter"),
            ("y = x[0]", "iter"),
            ("y = x['id']", "record"),
            ("for i in x: y = x['id']", "record"),
            ("y = x['id']\nfor k in x.keys(): pass", "dict"),
            ("y = x['id'].strip() + x.strip()", "str"),
            ("y = len(x)", "iter"),
            ("x.append(1)", "iter"),
            ("if 'a' in x: pass", "iter"),
            ("q = x.GET.get('q')", "request"),
            ("q = x.args['q']", "request"),
            ("y = '%s' % x", None),
            ("y = x + 1\nz = x.split()", None),  # contradicting uses: by name
            ("y = x", None),
        ]
        for body, want in tests:
            with self.subTest(body):
                self.assertEqual(self.kinds(body), want)

    def test_typed(self):
        tests = [
            ("test", "int", "pages", 1),
            ("2024-01-01", "int", "start", 1),
            ("7", "int", "id", 7),
            ("test", "int", "year", 2024),
            (3, "int", "n", 3),
            ([_PStr("test")], "str", "coords", _PStr("test")),
            ("London", "str", "city", _PStr("London")),
            (1, "iter", "page", [_PStr("test")]),
            ("abc", "iter", "word", "abc"),
            ("test", "dict", "mapping", _ADict({"test": "test"})),
            ({"a": 1}, "dict", "mapping", {"a": 1}),
            ("test", "record", "item", _PStr("test")),
            (1, "record", "item", _ADict({"test": "test"})),
            ("test", None, "x", "test"),
        ]
        for d, kind, name, want in tests:
            with self.subTest((d, kind, name)):
                got = _typed(d, kind, name)
                self.assertEqual(got, want)
                self.assertIs(type(got), type(want))
        self.assertIsInstance(_typed(_Any(), "request", "request"), _Request)

    def test_query(self):
        q = _Request().GET
        self.assertIsInstance(q, _Query)
        self.assertIn("q", q)
        self.assertEqual(q["q"], "test")
        self.assertEqual(q.get("q"), "test")
        self.assertEqual(q.get("q", ""), "test")  # an empty default reads as given
        self.assertEqual(q.get("page", 2), 2)
        self.assertEqual(q.getlist("tags"), ["test"])
        self.assertIsInstance(_Request().method, _Any)


class TypedDummiesTest(HarnessTest):
    def define(self, code):
        return define(code, record=record)

    def test_dummies_take_their_uses(self):
        g = self.define("""def scrape(query, pages, start, coords, mapping, request):
    return record(query, start + 1, coords.split(","), list(mapping.items()), request.GET["q"], list(range(pages)))
""")
        self.assertEqual(_param_kinds("scrape"), {"pages": "int", "start": "int", "coords": "str", "mapping": "dict",
                                                  "request": "request"})
        for mode in (0, 1):
            with self.subTest(mode):
                a, _ = _call_with_dummies(g["scrape"], False, mode)
                self.assertEqual(a, ("test", 2, ["test"], [("test", "test")], "test", [0]))

    def test_every_completion_alike(self):
        code = "def f(pages):\n    return record(pages * 2, range(pages))\n"
        first = _call_with_dummies(self.define(code)["f"], False)
        self.assertEqual(_call_with_dummies(self.define(code)["f"], False), first)


class UndefinedGlobalsTest(HarnessTest):
    def run_code(self, code):
        tree = compile(code, "<generation>", "exec", ast.PyCF_ONLY_AST)
        facts._facts(tree)
        g = _Globals({"__builtins__": builtins, "record": record})
        exec(compile(tree, "<generation>", "exec"), g)
        return g

    def test_bound_by_their_uses(self):
        g = self.run_code("""out = record(list(range(MAX_PAGES)), BASE.rstrip("/"), list(CONF.items()), icon_path,
                 List[str], Optional[int], int(CONFIG["limit"]))
""")
        (pages, base, conf, icon, lst, opt, limit), _ = g["out"]
        self.assertEqual(limit, 0)  # a global indexed by a string stays a stub: int() takes it
        self.assertEqual(pages, [0])
        self.assertEqual(base, "test")
        self.assertEqual(conf, [("test", "test")])
        self.assertIsInstance(icon, _Free)
        self.assertEqual(str(lst), "typing.List[str]")
        self.assertEqual(_undefined, ["MAX_PAGES", "BASE", "CONF", "icon_path", "CONFIG"])
        self.assertEqual(_global_kind("MAX_PAGES"), "int")

    def test_a_stub_is_a_path_to_the_input_file(self):
        _prepare_stdlib()
        g = self.run_code("out = record(os.path.exists(favicon_path), os.path.join(favicon_path, 'x'))\n")
        (exists, joined), _ = g["out"]
        self.assertTrue(exists)
        self.assertEqual(joined, os.path.join(self.scratch, "input.txt", "x"))


class CacheMissTest(HarnessTest):
    def test_none_only_in_a_cache_miss(self):
        f, stub = _Free(), _Any()
        for shape in (1, 0, 2):
            with self.subTest(shape):
                values._shape[0] = shape
                self.assertIsNotNone(f("k"))
                self.assertFalse(stub == None)  # noqa: E711 (the comparison is the test)
                self.assertTrue(stub != None)  # noqa: E711
                self.assertIsInstance(stub.get("k"), _Any)
        values._shape[0] = values._MISS
        self.assertFalse(stub)
        self.assertEqual(len(stub), 0)
        self.assertEqual(list(stub), [])
        self.assertIsNone(f("k"))
        self.assertTrue(stub == None)  # noqa: E711
        self.assertFalse(stub != None)  # noqa: E711
        self.assertIsNone(stub.get("k"))
        self.assertEqual(stub.get("k", "d"), "d")
        self.assertTrue(stub == "POST")

        def fn():
            pass
        self.assertIs(f(fn), fn)  # still a decorator
