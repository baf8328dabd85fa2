"""Tests of the permissive values: what the code gets in place of what it lacks."""
import unittest

from .. import values
from ..values import _ADict, _Any, _module, _PStr, _StubBase, _StubModule
from .support import drive


class AnyTest(unittest.TestCase):
    def test_tolerates_every_use(self):
        a = _Any()
        self.assertIsInstance(a.anything.deeper, _Any)
        self.assertIsInstance(a(1, k=2), _Any)
        self.assertIsInstance(a["k"], _Any)
        self.assertIsInstance(a + 1, _Any)
        self.assertIsInstance(3 * a, _Any)
        self.assertIsInstance(-a, _Any)
        a.x = 1  # ignored
        a["k"] = 1
        del a["k"]
        self.assertEqual(str(a), "stub")
        self.assertEqual(repr(a), "stub")
        self.assertEqual(f"{a:>10}", "stub")
        self.assertEqual(int(a), 0)
        self.assertEqual(float(a), 0.0)
        self.assertEqual([10, 20][a], 10)
        self.assertEqual(len(a), 1)
        self.assertTrue(a)
        self.assertNotIn("k", a)
        with a as b:
            self.assertIs(b, a)

    def test_dunder_attributes_stay_missing(self):
        with self.assertRaises(AttributeError):
            _Any().__reduce_cython__
        self.assertFalse(hasattr(_Any(), "__length_hint__"))

    def test_iterates_once(self):
        items = list(_Any())
        self.assertEqual(len(items), 1)
        self.assertIsInstance(items[0], _Any)

    def test_unpacks_into_as_many_names_as_there_are(self):
        lat, lon = _Any()
        self.assertIsInstance(lat, _Any)
        self.assertIsInstance(lon, _Any)
        a, b, c, d = _Any()
        first, *rest, last = _Any()
        self.assertEqual(rest, [])
        (p, q), r = _Any(), 1
        for k, v in _Any():
            self.assertIsInstance(v, _Any)
        names = ["n%d" % i for i in range(300)]  # an unpacking whose count needs EXTENDED_ARG
        ns = {"_Any": _Any}
        exec(", ".join(names) + " = _Any()", ns)
        self.assertIsInstance(ns["n299"], _Any)
        self.assertEqual(len(list(_Any())), 1)  # not an unpacking: one item

    def test_shape(self):
        self.addCleanup(values._shape.__setitem__, 0, 1)
        tests = [(0, 0, False), (1, 1, True), (2, 2, True)]
        for shape, n, truth in tests:
            with self.subTest(shape):
                values._shape[0] = shape
                a = _Any()
                self.assertEqual(len(a), n)
                self.assertEqual(len(list(a)), n)
                self.assertEqual(bool(a), truth)
                x, y = a  # unpacking still gets what it needs
                self.assertIsInstance(y, _Any)

    def test_joined_to_a_string_is_a_string(self):
        a = _Any()
        self.assertEqual("https://h.example.com/" + a, "https://h.example.com/stub")
        self.assertEqual(a + "/search", "stub/search")
        self.assertEqual(_PStr("x") + a, "xstub")
        self.assertIsInstance(a + 1, _Any)
        self.assertIsInstance([1] + a, _Any)

    def test_is_not_none(self):
        a = _Any()
        self.assertFalse(a == None)  # noqa: E711 (the operator is what is tested)
        self.assertTrue(a != None)  # noqa: E711
        self.assertIsNotNone(a)

    def test_compares_so_the_working_branch_runs(self):
        a = _Any()
        self.assertTrue(a == "POST")
        self.assertFalse(a != "POST")
        self.assertFalse(a < 1)
        self.assertFalse(a >= 1)
        self.assertEqual(len({_Any(), _Any()}), 2)

    def test_decorator_keeps_the_function(self):
        def f():
            return 1

        self.assertIs(_Any()(f), f)
        self.assertIs(_Any()(int), int)
        self.assertIsInstance(_Any()(f, 1), _Any)

    def test_get_takes_its_type_from_the_default(self):
        a = _Any()
        tests = [
            ("str default", a.get("q", "x"), "x"),
            ("empty str default reads as set", a.get("q", ""), "test"),
            ("keyword default", a.get("q", default="en"), "en"),
            ("bytes default", a.get("q", b""), b"test"),
            ("int default", a.get("n", 5), 5),
            ("bool default", a.get("b", False), False),
        ]
        for name, got, want in tests:
            with self.subTest(name):
                self.assertEqual(got, want)
                self.assertIs(type(got), type(want))
        self.assertIsInstance(a.get("q"), _Any)
        self.assertIsInstance(a.get("q", None), _Any)
        self.assertIsInstance(a.get("q", []), _Any)

    def test_async_uses(self):
        async def use():
            a = _Any()
            got = await a
            async with a as b:
                pass
            n = 0
            async for _ in a:
                n += 1
            return got, b is a, n

        got, entered, n = drive(use())
        self.assertIsInstance(got, _Any)  # what awaiting a stub gives is a stub
        self.assertTrue(entered)
        self.assertEqual(n, 1)  # async iteration gives one stub, as iteration does

    def test_base_class(self):
        Base = _Any()

        class C(Base, k=1):
            def own(self):
                return "own"

        self.assertTrue(issubclass(C, _StubBase))
        c = C(1, 2, x=3)
        self.assertEqual(c.own(), "own")
        self.assertIsInstance(c.missing, _Any)


class PStrTest(unittest.TestCase):
    def test_a_string_that_takes_the_uses_of_a_record(self):
        s = _PStr("test")
        self.assertEqual(s, "test")
        self.assertIsInstance(s, str)
        self.assertEqual(",".join([s, s]), "test,test")
        self.assertEqual(s.upper(), "TEST")
        self.assertEqual(s[1:3], "es")
        self.assertEqual(s[0], "t")
        self.assertIsInstance(s["id"], _Any)
        self.assertIsInstance(s.text, _Any)
        with self.assertRaises(AttributeError):
            s.__missing_dunder__


class ADictTest(unittest.TestCase):
    def test_missing_keys_answer(self):
        d = _ADict(a=1)
        self.assertEqual(d["a"], 1)
        self.assertEqual(d["missing"], "test")
        self.assertIsInstance(d["missing"]["nested"], _Any)
        self.assertIsNone(d.get("missing"))
        self.assertIsInstance(d.attribute, _Any)
        self.assertIsInstance(d, dict)


class StubModuleTest(unittest.TestCase):
    def test_every_attribute_is_a_stub(self):
        m = _StubModule("pandas")
        self.assertEqual(m.__name__, "pandas")
        self.assertIsInstance(m.DataFrame, _Any)
        with self.assertRaises(AttributeError):
            m.__path__

    def test_module_with_attributes(self):
        m = _module("pkg", {"x": 1}, package=True)
        self.assertEqual(m.x, 1)
        self.assertEqual(m.__path__, [])
        self.assertIsInstance(m.other, _Any)
        self.assertFalse(hasattr(_module("mod", {}), "__path__"))
