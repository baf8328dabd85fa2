"""Tests of a batch's store check: the rewrite that routes a tame job's stores
through it keeps what the code does, and the check marks a store into what the
next job shares however the code reached it."""
import ast
import builtins
import json
import types
import unittest

from ..batch import _GUARD, _guard_stores, _rebinding


def run_guarded(code, check):
    """Runs code with its stores guarded by check; its globals."""
    tree = ast.parse(code)
    _guard_stores(tree)
    g = {"__builtins__": builtins, _GUARD: check}
    exec(compile(tree, "<generation>", "exec"), g)
    return g


class GuardStoresTest(unittest.TestCase):
    def test_code_runs_as_before(self):
        seen = []

        def check(x):
            seen.append(type(x).__name__)
            return x

        code = ("class A:\n    pass\n"
                "order = []\n"
                "def val(v):\n    order.append('value')\n    return v\n"
                "def obj(o):\n    order.append('target')\n    return o\n"
                "a = A()\n"
                "obj(a).x = val(1)\n"
                "a.x += 2\n"
                "d = {}\n"
                "d['k'] = 3\n"
                "d['k'] += 1\n"
                "a.y, d['j'] = 5, 6\n"
                "for a.z in range(2):\n    pass\n"
                "del d['j']\n"
                "del a.y\n")
        g = run_guarded(code, check)
        self.assertEqual(g["order"], ["value", "target"])  # the value first, as without the check
        self.assertEqual((g["a"].x, g["a"].z, g["d"]), (3, 1, {"k": 4}))
        self.assertFalse(hasattr(g["a"], "y"))
        self.assertEqual(seen, ["A", "A", "dict", "dict", "A", "dict", "A", "A", "dict", "A"])

    def test_every_alias_reaches_the_check(self):
        # the ways to a module that the static check cannot follow
        codes = [
            "import json\nj = json\nj.loads = None\n",
            "import json\ndef patch(m):\n    m.loads = None\npatch(json)\n",
            "import json\nbox = [json]\nbox[0].loads = None\n",
            "import json\nclass P:\n    m = json\nP.m.loads = None\n",
            "import json\nk = json\ndel k.loads\n",
        ]
        for code in codes:
            with self.subTest(code=code):
                seen = []

                def check(x):
                    seen.append(x)
                    return types.SimpleNamespace(loads=None) if x is json else x  # the store lands on a stand-in

                run_guarded(code, check)
                self.assertIn(json, seen)
                self.assertTrue(callable(json.loads))

    def test_the_check_cannot_be_named(self):
        # a dunder: tame code names none (see tame)
        self.assertTrue(_GUARD.startswith("__") and _GUARD.endswith("__"))


class RebindingTest(unittest.TestCase):
    def test_modules_whose_functions_rebind_globals(self):
        def space(code):
            d = {"__name__": "m", "__builtins__": builtins}
            exec(code, d)
            return d

        rebinds = space("x = 1\ndef f():\n    global x\n    x = 2\n")
        nested = space("x = 1\nclass C:\n    def m(self):\n        def g():\n            global x\n            del x\n        g()\n")
        prop = space("x = 1\nclass C:\n    @property\n    def p(self):\n        global x\n        x = 3\n")
        still = space("x = []\ndef f():\n    x.append(1)\n    return x\n")
        got = _rebinding([rebinds, nested, prop, still])
        self.assertEqual([d is rebinds or d is nested or d is prop for d in got], [True, True, True])
        self.assertNotIn(still, got)


if __name__ == "__main__":
    unittest.main()
