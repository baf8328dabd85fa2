"""Tests of the permissive values: what the code gets in place of what it lacks."""
import unittest

from ..values import _ADict, _Any, _module, _StubBase, _StubModule
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

        self.assertEqual(drive(use()), (None, True, 0))

    def test_base_class(self):
        Base = _Any()

        class C(Base, k=1):
            def own(self):
                return "own"

        self.assertTrue(issubclass(C, _StubBase))
        c = C(1, 2, x=3)
        self.assertEqual(c.own(), "own")
        self.assertIsInstance(c.missing, _Any)


class ADictTest(unittest.TestCase):
    def test_missing_keys_answer(self):
        d = _ADict(a=1)
        self.assertEqual(d["a"], 1)
        self.assertEqual(d["missing"], "test")
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
