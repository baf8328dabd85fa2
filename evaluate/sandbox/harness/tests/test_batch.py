"""Tests of a batch's store check: the rewrite that routes a tame job's stores
through it keeps what the code does, and the check marks a store into what the
next job shares however the code reached it."""
import ast
import builtins
import json
import types
import unittest

from ..batch import _guard_stores
from ..facts import _GUARD, _GUARD_CALL


def run_guarded(code, check, call=None):
    """Runs code with its stores guarded by check (and its calls of methods that
    change their object by call, else check too); its globals."""
    tree = ast.parse(code)
    _guard_stores(tree)
    g = {"__builtins__": builtins, _GUARD: check, _GUARD_CALL: call or check}
    exec(compile(tree, "<generation>", "exec"), g)
    return g


class GuardStoresTest(unittest.TestCase):
    def test_code_runs_as_before(self):
        seen = []

        def check(x, *of):
            seen.append(type(of[0] if of else x).__name__)
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
        # the two appends to order (a method that changes its list) come first;
        # an augmented store checks its object, then the value it loads (an int)
        self.assertEqual(seen, ["list", "list", "A", "A", "int", "dict", "dict", "int", "A", "dict", "A", "A",
                                "dict", "A"])

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

    def test_the_check_cannot_be_named_or_bound(self):
        from ..tame import _wild
        for code in [
            "def __sccg_store__(x):\n    return x\n",
            "def f(m, __sccg_store__=None):\n    m.a = 1\n",
            "import json as __sccg_store__\n",
            "try:\n    pass\nexcept Exception as __sccg_store__:\n    pass\n",
            "match 1:\n    case __sccg_store__:\n        pass\n",
            "class M(type):\n    @classmethod\n    def __prepare__(c, n, b):\n        return {}\n",
            "x = " + _GUARD + "\n",
        ]:
            with self.subTest(code=code):
                self.assertNotEqual(_wild(ast.parse(code), code), "")


class GuardedTreeTest(unittest.TestCase):
    def test_uses_read_through_the_check(self):
        # the harness reads the tree after the rewrite (the kinds of a
        # function's parameters, when it calls it): a store says what they hold
        from ..uses import _kinds
        tree = ast.parse("def handler(limit, box):\n    limit['seen'] = True\n    box.items = 1\n")
        before = _kinds(tree, None)
        _guard_stores(tree)
        self.assertEqual(_kinds(tree, None), before)
        self.assertIn("limit", before)


class StoreCheckTest(unittest.TestCase):
    """The check itself: what it marks, and that nothing of the code's runs in it."""

    @classmethod
    def setUpClass(cls):
        import html.entities  # noqa: F401 (loaded before the batch's snapshot, as a server preloads it)
        shared_mod = types.ModuleType("sccg_test_shared")
        shared_mod.items = []
        sys_modules = __import__("sys").modules
        sys_modules["sccg_test_shared"] = shared_mod
        cls.addClassCleanup(sys_modules.pop, "sccg_test_shared", None)
        import atexit
        import logging
        import os
        import random
        import sys
        import tempfile
        import warnings
        from .. import batch
        pkg = batch.__name__.rpartition(".")[0]
        harness = [m for n, m in list(sys.modules.items()) if n == pkg or n.startswith(pkg + ".")]
        cls.taint = []
        cls.scratch = tempfile.mkdtemp(prefix="sccg-batch-test-")
        shared = batch._Shared(cls.scratch, os, logging, warnings, random, atexit, json, harness, cls.taint)
        cls.check = staticmethod(shared.extra[_GUARD])
        cls.call = staticmethod(shared.extra[_GUARD_CALL])

    @classmethod
    def tearDownClass(cls):
        import shutil
        shutil.rmtree(cls.scratch, True)

    def marks(self, x):
        del self.taint[:]
        self.assertIs(self.check(x), x)
        return list(self.taint)

    def test_what_it_marks(self):
        import logging
        import string
        ns = {"__name__": "sccg_user.main"}
        exec("class Own:\n    pass\nown = Own()\n", ns)
        for x, want in [
            (json, "stores into module json"),
            (json.JSONDecoder, "stores into class JSONDecoder"),
            (string.Formatter, "stores into class Formatter"),
            (logging.root, "stores into a shared RootLogger"),
            (json.decoder.__dict__, "stores into a shared dict"),
        ]:
            with self.subTest(x=x):
                self.assertEqual(self.marks(x), [want])
        for x in (ns["Own"], ns["own"], {}, [], types.SimpleNamespace()):
            with self.subTest(x=x):
                self.assertEqual(self.marks(x), [])

    def test_a_method_that_changes_a_shared_container(self):
        import html.entities
        del self.taint[:]
        code = ("import html.entities\ntable = html.entities.html5\ntable.update({'amp;': '&'})\n"
                "mine = []\nmine.append(1)\n")
        run_guarded(code, self.check, self.call)
        self.assertEqual(self.taint, ["changes a shared dict"])
        self.assertEqual(html.entities.html5["amp;"], "&")

    def test_a_shared_list_augmented_or_given_to_heapq(self):
        import sys
        shared = sys.modules["sccg_test_shared"]
        for code in ("import sccg_test_shared\nf = sccg_test_shared.items\nf += []\n",
                     "import heapq, sccg_test_shared\nheapq.heapify(sccg_test_shared.items)\n"):
            with self.subTest(code=code):
                del self.taint[:]
                run_guarded(code, self.check, self.call)
                self.assertEqual(self.taint, ["changes a shared list"])
        self.assertEqual(shared.items, [])

    def test_augmented_names_run_as_before(self):
        del self.taint[:]
        g = run_guarded("n = 1\nn += 2\nxs = [1]\nxs += [2]\ns = 'a'\ns *= 3\nimport heapq\nh = [3, 1]\n"
                        "heapq.heapify(h)\n", self.check, self.call)
        self.assertEqual((g["n"], g["xs"], g["s"], g["h"]), (3, [1, 2], "aaa", [1, 3]))
        self.assertEqual(self.taint, [])

    def test_a_module_function_of_a_changing_name(self):
        # os.remove, os.close: a module's function, not a change of the module
        del self.taint[:]
        run_guarded("import os\ntry:\n    os.remove('/nonexistent-sccg-file')\nexcept OSError:\n    pass\n",
                    self.check, self.call)
        self.assertEqual(self.taint, [])

    def test_nothing_of_the_code_runs(self):
        ns = {"__name__": "sccg_user.main"}
        exec("class Nosy:\n    def __getattribute__(self, n):\n        raise RuntimeError(n)\n"
             "    @property\n    def __class__(self):\n        raise RuntimeError('class')\n", ns)
        self.assertEqual(self.marks(ns["Nosy"]()), [])


class TaintTest(unittest.TestCase):
    """The audit hook that marks a job for what only events show."""

    def test_code_and_class_swaps_are_marked(self):
        from .. import batch
        taint, active = [], [True]
        hook = batch._make_taint(taint, active, -1)

        def f():
            pass

        class A:
            pass

        hook("object.__setattr__", (f, "__code__", (lambda: 1).__code__))
        hook("object.__setattr__", (A(), "__class__", A))
        hook("object.__setattr__", (f, "__defaults__", ()))  # namedtuple's defaults: honest
        self.assertEqual(taint, ["sets __code__ of a function", "sets __class__ of a A"])
        active[0] = False
        hook("object.__setattr__", (f, "__code__", f.__code__))
        self.assertEqual(len(taint), 2)


class NamespacesTest(unittest.TestCase):
    """The comparison after each job: by version tags, only the namespaces a job
    changed are compared, and it finds what comparing them all finds."""

    @classmethod
    def setUpClass(cls):
        import atexit
        import logging
        import os
        import random
        import string
        import tempfile
        import warnings
        from .. import batch
        cls.batch = batch
        batch._memory()
        cls.scratch = tempfile.mkdtemp(prefix="sccg-batch-test-")
        cls.string, cls.dumps = string, [json.dumps]
        cls.modules = (os, logging, warnings, random, atexit, json)

    def setUp(self):
        # a snapshot of its own for each test: unittest changes its classes as it runs
        import sys
        pkg = self.batch.__name__.rpartition(".")[0]
        harness = [m for n, m in list(sys.modules.items()) if n == pkg or n.startswith(pkg + ".")]
        self.shared = self.batch._Shared(self.scratch, *self.modules, harness, [])

    @classmethod
    def tearDownClass(cls):
        import shutil
        shutil.rmtree(cls.scratch, True)

    def both(self):
        """What the comparison finds with tags, and comparing every namespace."""
        sh = self.shared
        tagged = sh._namespaces()
        tags, sh.tags = sh.tags, None
        try:
            full = sh._namespaces()
        finally:
            sh.tags = tags
        return tagged, full

    def test_tags_are_read_here(self):
        self.assertEqual(self.batch._MEMORY[1], "")
        self.assertIsNotNone(self.shared.tags)
        self.assertEqual(self.both(), ("", ""))

    def test_what_a_change_leaves_is_found_both_ways(self):
        sh = self.shared
        f = self.string.Formatter
        cases = [
            ("a module's attribute", lambda: setattr(json, "sccg_probe", 1), lambda: delattr(json, "sccg_probe"),
             "attributes of json changed"),
            ("a module's function replaced", lambda: setattr(json, "dumps", len), lambda: setattr(json, "dumps", self.dumps[0]),
             "attributes of json changed"),
            ("a class's attribute", lambda: setattr(f, "sccg_probe", 1), lambda: delattr(f, "sccg_probe"),
             "attributes of an object changed"),
        ]
        for name, change, undo, want in cases:
            with self.subTest(name):
                change()
                try:
                    self.assertEqual(self.both(), (want, want))
                finally:
                    undo()
                # put back as it was: the tag moved, the identities did not
                self.assertEqual(self.both(), ("", ""))
                self.assertEqual(sh._namespaces(), "")

    def test_a_snapshot_from_the_server_is_taken_again_where_it_moved(self):
        # as a fork server's _prepare leaves it, then a batch child's start: the
        # namespaces changed in between are snapshotted afresh, the rest reused
        b = self.batch
        f = self.string.Formatter
        watched = [json.__dict__, f.__dict__, self.string.__dict__]
        saved = b._PREPARED[:]
        try:
            b._PREPARED[:] = [frozenset(), frozenset(), watched]
            b._PREPARED[3:] = b._snapshot(watched)
            server = b._PREPARED[3]
            json.sccg_probe = 1
            try:
                spaces, tags, tagged, seen = b._snapshot(watched)
                self.assertIs(spaces[1], server[1])
                self.assertIs(spaces[2], server[2])
                self.assertIsNot(spaces[0], server[0])
                self.assertIn("sccg_probe", spaces[0][2])
                self.assertNotIn("sccg_probe", server[0][2])
                self.assertEqual(tagged, tags(b._MEMORY[0]))
                self.assertEqual(seen, {b._id(d) for d in watched})
            finally:
                del json.sccg_probe
            # a list of namespaces other than the server's: taken whole
            other = list(watched)
            spaces, _, _, _ = b._snapshot(other)
            self.assertTrue(all(a is not s for a, s in zip(spaces, server)))
        finally:
            b._PREPARED[:] = saved

    def test_a_wrong_layout_is_refused(self):
        b = self.batch
        offset = b._TAG_OFFSET
        try:
            b._TAG_OFFSET = offset - 8  # ma_used: it does not move when a value changes
            b._memory()
            self.assertIsNone(b._MEMORY[0])
            self.assertIn("version tags", b._MEMORY[1])
            self.assertIsNone(b._tag_reader([{}, {}]))
        finally:
            b._TAG_OFFSET = offset
            b._memory()
        self.assertIsNotNone(b._MEMORY[0])

    def test_only_dicts_and_class_proxies_are_read(self):
        import collections
        self.assertIsNotNone(self.batch._tag_reader([{}, type(self).__dict__]))
        self.assertIsNone(self.batch._tag_reader([{}, collections.OrderedDict()]))

    def test_the_view_writes_nothing(self):
        mem = self.batch._MEMORY[0]
        self.assertIsNone(mem.obj)  # no exporter to write through
        self.assertTrue(mem.readonly)
        i = (id(json.__dict__) + self.batch._TAG_OFFSET - self.batch._BASE) >> 3
        with self.assertRaises(TypeError):
            mem[i] = mem[i]

    def test_ctypes_leaves_sys_modules(self):
        import sys
        self.assertNotIn("ctypes", sys.modules)
        self.assertNotIn("_ctypes", sys.modules)


if __name__ == "__main__":
    unittest.main()
