"""Tests of the dummy arguments: the value each parameter gets, and the modes of
calling a function with them."""
import datetime
import functools
import typing

from .. import facts
from ..dummies import _call_with_dummies, _dummy, _empty_default, _fit, _NoMode
from ..facts import _Tests
from ..recorders import _FAKES
from ..values import _ADict, _Any, _PStr
from .support import define, HarnessTest


class DummyTest(HarnessTest):
    def test_by_name(self):
        tests = [
            ("url", "https://example.com/test"),
            ("api_endpoint", "https://example.com/test"),
            ("lat", 40.7),
            ("latitude", 40.7),
            ("lng", -74.0),
            ("longitude", -74.0),
            ("api_key", "test-key"),
            ("access_token", "test-key"),
            ("password", "test-key"),
            ("email", "test@example.com"),
            ("start_date", "2024-01-01"),
            ("since", "2024-01-01"),
            ("to", "2024-01-01"),
            ("year", 2024),
            ("birth_year", 2024),
            ("limit", 1),
            ("page", 1),
            ("num_results", 1),
            ("max_pages", 1),
            ("n_items", 1),
            ("headers", _ADict()),
            ("config", _ADict()),
            ("ctx", _ADict()),
            ("symbol_list", ["test"]),
            ("user_ids", ["test"]),
            ("symbols", ["test"]),
            ("status", "test"),
            ("news", "test"),
            ("bus", "test"),
            ("lang", "en"),
            ("target_lang", "en"),
            ("country_code", "US"),
            ("city", "London"),
            ("address", "London"),
            ("user_id", "1"),
            ("q", "test"),
            ("", "test"),
            (None, "test"),
        ]
        for name, want in tests:
            with self.subTest(name):
                got = _dummy(name, None)
                self.assertEqual(got, want)
                self.assertIs(type(got), type(want))

    def test_list_elements_are_permissive(self):
        for name, ann in (("symbols", None), ("user_ids", None), ("x", "List[str]")):
            with self.subTest(name):
                got = _dummy(name, ann)
                self.assertIs(type(got[0]), _PStr)
                self.assertIsInstance(got[0]["id"], _Any)

    def test_stubs_by_name(self):
        for name in ("request", "bot", "client", "db", "logger", "event", "callback", "self", "cls"):
            with self.subTest(name):
                self.assertIsInstance(_dummy(name, None), _Any)

    def test_path_is_the_input_file(self):
        self.assertEqual(_dummy("file_path", None), self.scratch + "/input.txt")
        self.assertEqual(_dummy("csv_file", None), self.scratch + "/input.txt")

    def test_by_annotation(self):
        tests = [
            ("x", int, 1),
            ("year", int, 2024),
            ("x", float, 1.0),
            ("lat", float, 40.7),
            ("lon", float, -74.0),
            ("x", bool, True),
            ("x", "int", 1),
            ("x", list, ["test"]),
            ("x", "List[str]", ["test"]),
            ("x", typing.List[str], ["test"]),
            ("x", "Tuple[str, str]", ["test"]),
            ("x", dict, _ADict()),
            ("x", "Dict[str, int]", _ADict()),
            ("x", "Mapping[str, int]", _ADict()),
            # as they are: the type tuple and typing.Mapping[...] are not recognised
            # (their str is "<class 'tuple'>", "typing.Mapping[str, int]")
            ("x", tuple, "test"),
            ("x", typing.Mapping[str, int], "test"),
            ("when", datetime.datetime, datetime.datetime(2024, 1, 1, 12, 0)),
            ("day", "date", datetime.date(2024, 1, 1)),
            ("url", str, "https://example.com/test"),
        ]
        for name, ann, want in tests:
            with self.subTest("%s: %s" % (name, ann)):
                got = _dummy(name, ann)
                self.assertEqual(got, want)
                self.assertIs(type(got), type(want))

    def test_clients_by_annotation_or_name(self):
        tests = [
            ("s", "aiohttp.ClientSession", _FAKES["aiohttp"].ClientSession),
            ("c", "httpx.AsyncClient", _FAKES["httpx"].AsyncClient),
            ("c", "httpx.Client", _FAKES["httpx"].Client),
            ("s", "requests.Session", _FAKES["requests"].Session),
            ("session", None, _FAKES["requests"].Session),
        ]
        for name, ann, cls in tests:
            with self.subTest("%s: %s" % (name, ann)):
                self.assertIs(type(_dummy(name, ann)), cls)


def record(*a, **k):
    return a, k


class CallWithDummiesTest(HarnessTest):
    def test_modes(self):
        def f(city, units="metric", key=None, *, lang=None, page=2):
            return record(city, units, key, lang=lang, page=page)

        tests = [
            ("0 keeps every default", 0, (("London", "metric", None), {"lang": None, "page": 2})),
            ("1 replaces None defaults", 1, (("London", "metric", "test-key"), {"lang": "en", "page": 2})),
        ]
        for name, mode, want in tests:
            with self.subTest(name):
                self.assertEqual(_call_with_dummies(f, False, mode), want)

    def test_mode_2_passes_stubs(self):
        def f(a, b="x", *, c=None):
            return record(a, b, c=c)

        (a, b), k = _call_with_dummies(f, False, 2)
        self.assertIsInstance(a, _Any)
        self.assertIsInstance(b, _Any)
        self.assertIsInstance(k["c"], _Any)

    def test_mode_3_uses_the_functions_dict_keys(self):
        def lookup(name, names):
            return record(name, names)

        with self.assertRaises(_NoMode):
            _call_with_dummies(lookup, False, 3)
        facts._dict_keys["lookup"] = ["alpha", "beta"]
        self.assertEqual(_call_with_dummies(lookup, False, 3), (("alpha", ["alpha"]), {}))

    def test_mode_4_numeric_ids(self):
        def game(game_id, name):
            return record(game_id, name)

        def named(name):
            return record(name)

        self.assertEqual(_call_with_dummies(game, False, 4), ((1, "test"), {}))
        with self.assertRaises(_NoMode):
            _call_with_dummies(named, False, 4)

    def test_kwargs_get_the_keys_the_function_reads(self):
        def fetch(season, **context):
            return record(season, **context)

        facts._kw_keys["fetch"] = ["ds", "season", "limit"]
        self.assertEqual(_call_with_dummies(fetch, False, 0), (("test",), {"ds": "test", "limit": 1}))
        (s,), k = _call_with_dummies(fetch, False, 2)
        self.assertEqual(sorted(k), ["ds", "limit"])
        self.assertIsInstance(k["ds"], _Any)

    def test_decorated_function_takes_the_wrapped_signature(self):
        def retry(fn):
            @functools.wraps(fn)
            def wrapper(*a, **k):
                return fn(*a, **k)
            return wrapper

        @retry
        def weather(city, units="metric"):
            return record(city, units)

        self.assertEqual(_call_with_dummies(weather, False, 0), (("London", "metric"), {}))

    def test_bound_method_skips_self(self):
        class C:
            def go(self, url, limit=None):
                return record(self, url, limit)

        c = C()
        self.assertEqual(_call_with_dummies(c.go, True, 1), ((c, "https://example.com/test", 1), {}))

    def test_without_code_object(self):
        self.assertEqual(_call_with_dummies(dict, False, 0), {})


def tests(eq=(), has=(), pre=(), suf=()):
    t = _Tests()
    t.eq, t.has, t.pre, t.suf = list(eq), list(has), list(pre), list(suf)
    return t


class FitTest(HarnessTest):
    def test_fit(self):
        cases = [
            ("equal to the first literal", "test", tests(eq=["audio", "video"]), "audio"),
            ("a number compared with a number", 1, tests(eq=[3]), 3),
            ("a string not compared with a number", "test", tests(eq=[3]), None),
            ("contains, after a URL's host", "https://example.com/test", tests(has=["instagram.com", "/reel/"]),
             "https://example.com/test/instagram.com//reel/"),
            ("contains, a plain string", "test", tests(has=["@"]), "test @"),
            ("already contains", "test", tests(has=["es"]), "test"),
            ("starts with", "test", tests(pre=["https://youtu.be/"]), "https://youtu.be/test"),
            ("already starts with", "https://example.com/test", tests(pre=["https://"]), "https://example.com/test"),
            ("ends with", "test", tests(suf=[".mp4"], has=["watch"]), "test watch.mp4"),
            ("a dict has the keys it is tested for", _ADict(), tests(has=["token"]), _ADict(token="test")),
            ("a list has the items", ["test"], tests(has=["BTC"]), ["BTC"]),
            ("nothing to fit", _Any(), tests(has=["x"]), None),
        ]
        for name, d, t, want in cases:
            with self.subTest(name):
                got = _fit(d, t)
                self.assertEqual(got, want)
                if want is not None:
                    self.assertIs(type(got), type(want))
        self.assertIs(type(_fit(_PStr("test"), tests(has=["x"]))), _PStr)

    def test_empty_defaults(self):
        for v, want in ((None, True), ("", True), ([], True), ({}, True), ((), True), (set(), True), (_Any(), True),
                        ("x", False), (0, False), (False, False), ([1], False)):
            with self.subTest(repr(v)):
                self.assertEqual(_empty_default(v), want)


class Mode5Test(HarnessTest):
    def define(self, code):
        return define(code, record=record)

    def test_dummies_pass_the_functions_tests(self):
        g = self.define("""def download(link, links, kind, limit=None, tags=[]):
    if "instagram.com" in link:
        pass
    for l in links:
        if l.startswith("https://youtu.be/"):
            pass
    if kind == "audio":
        pass
    return record(link, links, kind, limit, tags)
""")
        self.assertEqual(_call_with_dummies(g["download"], False, 5),
                         (("test instagram.com", ["https://youtu.be/test"], "audio", 1, ["test"]), {}))

    def test_mode_5_needs_tests(self):
        g = self.define("def plain(x):\n    return record(x)\n")
        with self.assertRaises(_NoMode):
            _call_with_dummies(g["plain"], False, 5)

    def test_mode_1_replaces_empty_and_stub_defaults(self):
        def f(q="", tags=[], icon=_Any(), *, opts={}, units="metric"):
            return record(q, tags, icon, opts=opts, units=units)

        (q, tags, icon), k = _call_with_dummies(f, False, 1)
        self.assertEqual((q, tags, icon), ("test", ["test"], "test"))
        self.assertEqual(k["units"], "metric")
        self.assertIsInstance(k["opts"], _ADict)
        (q, tags, icon), k = _call_with_dummies(f, False, 0)
        self.assertEqual((q, tags), ("", []))
        self.assertIsInstance(icon, _Any)

    def test_a_method_outside_its_class_gets_a_stub_self(self):
        def method(self, text):
            return record(self.remove_urls(text), text)

        (first, text), _ = _call_with_dummies(method, False, 0)
        self.assertIsInstance(first, _Any)
        self.assertEqual(text, "test")


class ShapedByUseTest(HarnessTest):
    """A parameter the code cuts as a URL gets a URL that holds what it cuts at; one
    it puts where a repository's owner and name go spans both."""

    def define(self, code):
        return define(code, record=record)

    def test_shapes(self):
        g = self.define('''API = "https://api.codehost.test"
def from_link(repo_url):
    return record(repo_url.split("github.com/")[1])
def playlist(link):
    return record(link.split("/playlist/")[1])
def parsed(page):
    from urllib.parse import urlparse
    return record(urlparse(page).path)
def repo_info(repo):
    return record(f"{API}/repos/{repo}/languages")
def concat(full_name):
    return record(API + "/repos/" + full_name)
def pair(owner, repo):
    return record(f"{API}/repos/{owner}/{repo}")
''')
        for fn, want in (("from_link", "octocat/hello-world"), ("playlist", "4uLU6hMCjMI75M1A2tKUQC"),
                         ("parsed", "/octocat/hello-world"), ("repo_info", "https://api.codehost.test/repos/octocat/hello-world/languages"),
                         ("concat", "https://api.codehost.test/repos/octocat/hello-world"),
                         ("pair", "https://api.codehost.test/repos/test/test")):
            with self.subTest(fn):
                self.assertEqual(_call_with_dummies(g[fn], False, 0), ((want,), {}))
