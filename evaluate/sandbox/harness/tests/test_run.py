"""Tests of the driver's steps: the top-level statements, the repair of a NameError
on a module-level name, and the attempts at calling a function that reaches no
request."""
import ast
import builtins

from .. import run, values
from ..capture import _nreq
from ..recorders import _FAKES
from ..run import _attempts, _exec_statements, _repaired
from ..stubs import _Globals, _undefined
from ..values import _Any
from .support import HarnessTest


class RepairTest(HarnessTest):
    def setUp(self):
        super().setUp()
        self.g = _Globals({"__builtins__": builtins, "__name__": "sccg_user.main"})
        self.errors = []

    def note(self, where, e):
        self.errors.append(where + ": " + type(e).__name__)

    def statements(self, code):
        return _exec_statements(compile(code, "<generation>", "exec", ast.PyCF_ONLY_AST), self.g, self.note)

    def test_class_body_runs_again_with_the_name_bound(self):
        self.statements("class Item:\n    tags: List[str] = []\n    icon = favicon_path + '.ico'\n")
        self.assertEqual(self.errors, [])
        self.assertEqual(self.g["Item"].icon, "stub.ico")
        self.assertEqual(_undefined, ["favicon_path"])  # List is typing's

    def test_only_name_errors_on_names(self):
        self.statements("def f():\n    x += 1\nf()\nraise NameError('no name')\n")
        self.assertEqual(self.errors, ["line 3: UnboundLocalError", "line 4: NameError"])

    def test_bounded(self):
        self.addCleanup(run._repairs.__setitem__, 0, 0)
        run._repairs[0] = run._MAX_REPAIRS
        self.statements("class C:\n    x = never_defined\n")
        self.assertEqual(self.errors, ["line 1: NameError"])
        self.assertFalse(_repaired(self.g, NameError("n", name="other")))

    def test_a_call_runs_again_with_the_name_bound(self):
        self.statements("import requests\ndef f():\n    return eval('BASE') + requests.get('https://e.example.com/x').url\n")
        _attempts(self.g["f"], False, self.g)
        self.assertEqual([r["url"] for r in self.requests()], ["https://e.example.com/x"])
        self.assertEqual(_undefined, ["BASE"])


class AttemptsTest(HarnessTest):
    def test_attempts_until_a_request(self):
        seen = []

        def f(link, limit=None):
            seen.append((link, limit))
            if "instagram.com" in link:
                _FAKES["requests"].get("https://ig.example.com/media")

        run_facts("def f(link, limit=None):\n    if 'instagram.com' in link:\n        pass\n")
        _attempts(f, False, _Globals())
        self.assertEqual(seen, [("test", None), ("test", 1), ("test instagram.com", 1)])
        self.assertEqual(len(self.requests()), 1)

    def test_empty_stubs_after_every_mode(self):
        seen = []

        def f(cache):
            seen.append((type(cache).__name__, len(_Any())))
            if not _Any():  # a cache miss
                _FAKES["requests"].get("https://c.example.com/fetch")

        _attempts(f, False, _Globals())
        self.assertEqual(seen, [("str", 1), ("str", 1), ("_Any", 1), ("str", 0)])  # modes 5, 3 and 4 do not apply
        self.assertEqual(len(self.requests()), 1)
        self.assertEqual(values._shape[0], 1)  # stubs are back to one item

    def test_first_error_when_nothing_is_reached(self):
        def f(x):
            raise ValueError(x)

        with self.assertRaises(ValueError) as e:
            _attempts(f, False, _Globals())
        self.assertEqual(e.exception.args, ("test",))
        self.assertEqual(_nreq[0], 0)

    def test_error_after_a_request_is_kept(self):
        def f(url):
            _FAKES["requests"].get(url)
            raise TypeError("strptime() argument 1 must be str")

        _attempts(f, False, _Globals())
        self.assertEqual(len(self.requests()), 1)
        self.assertEqual(run._stopped, ["f: TypeError: strptime() argument 1 must be str"])

    def test_a_cache_miss_finds_none_last(self):
        seen = []
        check_cache = values._Free()

        def f(city):
            hit = check_cache(city)
            seen.append(hit is None)
            if hit is None:
                _FAKES["requests"].get("https://c.example.com/" + city)

        _attempts(f, False, _Globals())
        self.assertEqual(seen[-1], True)
        self.assertEqual(run._stopped, [])
        self.assertFalse(any(seen[:-1]))  # no other attempt finds None
        self.assertEqual(run._ATTEMPTS[-1][1], values._MISS)
        self.assertEqual(len(self.requests()), 1)

    def test_no_error_of_the_cache_miss_alone(self):
        helper = values._Free()

        def f(x):
            helper(x)["k"] = 1  # fine with a stub; None, in the cache miss, fails

        _attempts(f, False, _Globals())  # raises nothing: the code ran clean
        self.assertEqual(_nreq[0], 0)

    def test_each_attempt_once(self):
        self.assertEqual(len(set(run._ATTEMPTS)), len(run._ATTEMPTS))
        self.assertEqual(run._ATTEMPTS[0], (0, 1))  # the first attempt is the plain call


def run_facts(code):
    from ..facts import _facts
    _facts(compile(code, "<generation>", "exec", ast.PyCF_ONLY_AST))


class CoroutineTest(HarnessTest):
    def test_event_loop_only_when_the_code_names_asyncio(self):
        """Whether asyncio is loaded (a fork server may have loaded it for its
        children) does not decide how a coroutine runs: the code does."""
        import asyncio
        from .. import job
        self.addCleanup(setattr, asyncio, "sleep", asyncio.sleep)

        async def waits():
            loop = asyncio.get_running_loop()
            fut = loop.create_future()
            loop.call_soon(fut.set_result, 7)
            return await fut

        job.code = "async def go():\n    return 7\n"
        with self.assertRaisesRegex(RuntimeError, "no running event loop"):
            run._run_coro(waits())
        job.code = "import asyncio\n" + job.code
        self.assertEqual(run._run_coro(waits()), 7)
