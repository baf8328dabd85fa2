"""Tests of the static facts: what the syntax tree says before anything runs."""
import ast

from .. import facts
from ..facts import _answers, _called, _facts, _kwarg_keys, _literal_keys, _param_tests, _tests_of
from .support import HarnessTest

CODE = '''
import requests, os.path as osp
from .models import Thing
from x.y import (a as b)
import json

BASE = "https://a.p.rapidapi.com"

def helper(url, **opts):
    return requests.get(url, params={"limit": opts["limit"], "q": opts.get("q")})

def caller(q):
    return helper(BASE + q)

def lonely(row):
    return row["review"], row["stars"], {"alpha": 1}, {"": 2, "beta": 3}

class Client:
    def fetch(self, path):
        try:
            r = self.session.post(path)
            r.raise_for_status()
        except Exception as err:
            log(err)
        return r

    def quiet(self):
        return CONFIG["x"]

@asynccontextmanager
async def lifespan(app):
    yield

@app.on_event("startup")
async def start():
    pass

@app.on_event("shutdown")
async def stop():
    pass
'''


class FactsTest(HarnessTest):
    def facts(self, code):
        return _facts(compile(code, "<generation>", "exec", ast.PyCF_ONLY_AST))

    def test_facts(self):
        f = self.facts(CODE)
        self.assertTrue(f["syntax"])
        self.assertEqual(sorted(f["imports"]), [".models", "json", "os.path", "requests", "x.y"])
        self.assertTrue(f["has_try"])
        self.assertTrue(f["has_status_check"])
        self.assertEqual(f["defs"], ["helper", "caller", "lonely", "Client.fetch", "Client.quiet", "lifespan", "start", "stop"])
        self.assertEqual(f["reach"], ["helper", "caller", "Client.fetch"])
        # app is a parameter of lifespan: names are not scoped
        self.assertEqual(f["free"], ["CONFIG", "asynccontextmanager", "log"])

    def test_tables_for_the_dummies(self):
        self.facts(CODE)
        self.assertEqual(sorted(facts._sub_keys), ["limit", "review", "stars", "x"])
        self.assertEqual(facts._setup_hooks, ["lifespan", "start"])
        self.assertEqual(facts._kw_keys["helper"], ["q", "limit"])
        self.assertEqual(facts._kw_keys["caller"], ())
        self.assertEqual(facts._dict_keys["lonely"], ["alpha", "beta"])
        self.assertEqual(facts._dict_keys["helper"], ["limit"])

    def test_no_try_no_status(self):
        f = self.facts("import requests\ndef f():\n    return requests.get('u').json()\n")
        self.assertFalse(f["has_try"])
        self.assertFalse(f["has_status_check"])
        self.assertEqual(f["free"], [])

    def test_try_without_handlers(self):
        f = self.facts("def f():\n    try:\n        pass\n    finally:\n        pass\n")
        self.assertFalse(f["has_try"])

    def test_reach_through_a_chain(self):
        f = self.facts("def a():\n    return b()\ndef b():\n    return c()\ndef c():\n    return urlopen('u')\ndef d():\n    return 1\n")
        self.assertEqual(f["reach"], ["a", "b", "c"])

    def test_sub_keys_bounded(self):
        self.facts("".join("x['k%d']\n" % i for i in range(20)) + "x['not an identifier']\n")
        self.assertEqual(len(facts._sub_keys), 10)
        self.assertNotIn("not an identifier", facts._sub_keys)


class HelpersTest(HarnessTest):
    def fn(self, code):
        return compile(code, "<generation>", "exec", ast.PyCF_ONLY_AST).body[0]

    def test_called(self):
        self.assertEqual(_called(self.fn("def f():\n    g(h.i(), j.k.post())\n")), {"g", "i", "post"})

    def test_kwarg_keys(self):
        fn = self.fn("def f(**ctx):\n    ctx['ds']\n    ctx.pop('a')\n    ctx.setdefault('b', 1)\n    other['c']\n    ctx[k]\n")
        self.assertEqual(sorted(_kwarg_keys(fn)), ["a", "b", "ds"])
        self.assertEqual(_kwarg_keys(self.fn("def f(x):\n    x['a']\n")), ())

    def test_literal_keys(self):
        fn = self.fn("def f():\n    a = {'one': 1, 'two': 2}\n    b = {1: 2}\n    c = {'three': 3}\n    d = {'four': 4}\n    e = {'five': 5}\n")
        self.assertEqual(_literal_keys(fn), ["one", "three", "four"])


class ParamTestsTest(HelpersTest):
    def literals_of(self, code):
        return {k: (t.eq, t.has, t.pre, t.suf) for k, t in _param_tests(self.fn(code)).items()}

    def test_what_parameters_are_tested_against(self):
        code = """def f(link, links, kind, *, page, fmt, data, n):
    url = link.strip().lower()
    if "instagram.com" in url or "tiktok.com" not in link:
        pass
    for l in links:
        if l.startswith(("https://youtu.be/", "https://youtube.com/")) and l.endswith(".mp4"):
            pass
    if kind == "audio" or "video" == kind or kind in ("a", "b"):
        pass
    if page != 2:
        pass
    match fmt:
        case "json":
            pass
    if "key" in data:
        pass
    if n == other:
        pass
"""
        self.assertEqual(self.literals_of(code), {
            "link": ([], ["instagram.com", "tiktok.com"], [], []),
            "links[]": ([], [], ["https://youtu.be/", "https://youtube.com/"], [".mp4"]),
            "kind": (["audio", "video", "a", "b"], [], [], []),
            "page": ([2], [], [], []),
            "fmt": (["json"], [], [], []),
            "data": ([], ["key"], [], []),
        })

    def test_locals_that_are_not_parameters_are_not_recorded(self):
        self.assertEqual(self.literals_of("def f(x):\n    y = g()\n    if 'a' in y:\n        pass\n"), {})

    def test_bounded(self):
        code = "def f(x):\n" + "".join("    if 'l%d' in x:\n        pass\n" % i for i in range(20))
        self.assertEqual(len(self.literals_of(code)["x"][1]), 8)

    def test_tests_of_reads_the_definitions_on_first_use(self):
        _facts(compile("def f(x):\n    if x == 'a':\n        pass\nclass C:\n    def f(self, y):\n        if 'b' in y:\n            pass\n",
                       "<generation>", "exec", ast.PyCF_ONLY_AST))
        self.assertEqual(facts._str_tests, {})
        got = _tests_of("f")
        self.assertEqual((got["x"].eq, got["y"].has), (["a"], ["b"]))
        self.assertIs(_tests_of("f"), got)
        self.assertEqual(_tests_of("missing"), {})


class AnswersTest(HarnessTest):
    def answers(self, code):
        _facts(compile(code, "<generation>", "exec", ast.PyCF_ONLY_AST))
        return _answers()

    def test_answers_take_each_branch_and_leave_last(self):
        code = """def menu():
    while True:
        choice = input("> ").strip()
        if choice == "q":
            print("bye")
            break
        if choice == "1":
            search()
        elif choice in ("2", "details"):
            details()
        n = int(input("how many? "))
        if n > 3:
            pass
def other(x):
    if x == "not an answer":
        pass
"""
        self.assertEqual(self.answers(code), ["1", "2", "details", "3", "test", "q"])

    def test_while_and_match(self):
        code = """while (cmd := input()) != "exit":
    match cmd:
        case "go":
            pass
"""
        self.assertEqual(self.answers(code), ["go", "test", "exit"])

    def test_direct_comparison(self):
        self.assertEqual(self.answers("if input('Send? ').lower() in ('y', 'yes'):\n    send()\n"), ["y", "yes", "test"])

    def test_no_input(self):
        self.assertEqual(self.answers("x = 1\n"), ["test"])
