"""Tests of what a recorder call becomes: the request record and the fake response."""
import unittest

from .. import capture
from ..capture import _AResp, _Data, _Empty, _Enough, _Headers, _keys, _merge, _record, _Resp
from ..values import _Any
from .support import drive, HarnessTest


class RecordTest(HarnessTest):
    def test_records(self):
        tests = [
            ("method upper-cased", dict(lib="requests", method="get", url="https://a/x"),
             {"lib": "requests", "method": "GET", "url": "https://a/x"}),
            ("params keys and values", dict(lib="requests", method="GET", url="https://a/x", params={"q": 1, "n": 2}),
             {"lib": "requests", "method": "GET", "url": "https://a/x", "params": ["q", "n"],
              "param_values": [["q", "1"], ["n", "2"]]}),
            ("params as pairs", dict(lib="requests", method="GET", url="https://a/x", params=[("q", 1), ("n", 2)]),
             {"lib": "requests", "method": "GET", "url": "https://a/x", "params": ["q", "n"],
              "param_values": [["q", "1"], ["n", "2"]]}),
            ("param values: lists repeat, None is left out, credentials redacted",
             dict(lib="requests", method="GET", url="https://a/x", params={"ids": [1, 2], "x": None, "api_key": "k1"}),
             {"lib": "requests", "method": "GET", "url": "https://a/x", "params": ["ids", "x", "api_key"],
              "param_values": [["ids", "1"], ["ids", "2"], ["api_key", "<redacted>"]]}),
            ("params as a string", dict(lib="requests", method="GET", url="https://a/x", params="q=1&n=2"),
             {"lib": "requests", "method": "GET", "url": "https://a/x", "params_raw": "q=1&n=2"}),
            ("JSON keys", dict(lib="httpx", method="POST", url="https://a/x", json={"text": "hi"}),
             {"lib": "httpx", "method": "POST", "url": "https://a/x", "json": ["text"]}),
            ("JSON scalar", dict(lib="httpx", method="POST", url="https://a/x", json="x" * 300),
             {"lib": "httpx", "method": "POST", "url": "https://a/x", "json": "x" * 200}),
            ("form keys and files", dict(lib="requests", method="POST", url="https://a/x", data={"a": 1}, files={"f": "b"}),
             {"lib": "requests", "method": "POST", "url": "https://a/x", "data": ["a"], "files": ["f"]}),
            ("raw body", dict(lib="urllib", method="POST", url="https://a/x", data=b"raw"),
             {"lib": "urllib", "method": "POST", "url": "https://a/x", "data": "raw"}),
            ("relative URL on a base", dict(lib="httpx", method="GET", url="/v1/x", base="https://h.example.com/"),
             {"lib": "httpx", "method": "GET", "url": "https://h.example.com/v1/x"}),
            ("empty URL is the base", dict(lib="httpx", method="GET", url="", base="https://h.example.com"),
             {"lib": "httpx", "method": "GET", "url": "https://h.example.com"}),
            ("absolute URL ignores the base", dict(lib="httpx", method="GET", url="https://o/x", base="https://h"),
             {"lib": "httpx", "method": "GET", "url": "https://o/x"}),
        ]
        for name, call, want in tests:
            with self.subTest(name):
                _record(**call)
                self.assertEqual(self.requests(), [want])

    def test_headers_redacted(self):
        _record("requests", "GET", "https://a/x", headers={
            "X-RapidAPI-Key": "secret", "Authorization": "Bearer t", "Cookie": "c", "X-RapidAPI-Host": "a.p.rapidapi.com",
            "X-Auth-Host": "kept: host wins", "Accept": "a" * 300})
        got = self.requests()[0]["headers"]
        self.assertEqual(got, {"X-RapidAPI-Key": "<redacted>", "Authorization": "<redacted>", "Cookie": "<redacted>",
                               "X-RapidAPI-Host": "a.p.rapidapi.com", "X-Auth-Host": "kept: host wins",
                               "Accept": "a" * 200})

    def test_headers_not_a_dict(self):
        _record("requests", "GET", "https://a/x", headers=[("A", "1")])
        _record("requests", "GET", "https://a/y", headers=_Any())  # a mapping: it has keys()
        _record("requests", "GET", "https://a/z", headers=5)
        got = self.requests()
        self.assertEqual(got[0]["headers"], {"A": "1"})
        self.assertEqual(got[1]["headers"], {"stub": "stub"})
        self.assertEqual(got[2]["headers"], {})

    def test_most_requests_a_run_keeps(self):
        for i in range(100):
            _record("requests", "GET", "https://a/%d" % i)
        with self.assertRaises(_Enough):
            _record("requests", "GET", "https://a/more")
        got = self.requests()
        self.assertEqual(len(got), 100)
        self.assertEqual(got[-1]["url"], "https://a/99")

    def test_pages_run_out(self):
        bodies = []
        for page in range(5):
            _record("requests", "GET", "https://a/items?page=%d" % page)
            bodies.append(type(_Resp("https://a/items").json()))
        self.assertEqual(bodies, [_Data, _Data, _Data, _Empty, _Empty])  # three pages, then empty ones
        _record("requests", "POST", "https://a/items")  # another method: another endpoint
        self.assertIsInstance(_Resp().json(), _Data)


class KeysTest(unittest.TestCase):
    def test_keys(self):
        self.assertIsNone(_keys(None))
        self.assertEqual(_keys({"a": 1, 2: "b"}), ["a", "2"])
        self.assertEqual(_keys([("a", 1), ["b"], "c", ()]), ["a", "b"])
        self.assertEqual(_keys("q=1"), "q=1")
        self.assertEqual(_keys(b"q"), "q")
        self.assertEqual(_keys(_Any()), "stub")

    def test_merge(self):
        self.assertEqual(_merge({"a": 1}, {"b": 2}), {"a": 1, "b": 2})
        self.assertEqual(_merge({"a": 1}, {"a": 3}), {"a": 3})
        self.assertEqual(_merge({}, {"b": 2}), {"b": 2})
        self.assertEqual(_merge({"a": 1}, None), {"a": 1})
        self.assertEqual(_merge("not a mapping", {"b": 2}), {"b": 2})


class ResponseTest(HarnessTest):
    def test_successful_response(self):
        r = _Resp("https://a/x", "GET")
        self.assertEqual((r.status_code, r.status, r.ok, r.reason, r.text, r.content), (200, 200, True, "OK", "{}", b"{}"))
        self.assertIs(r.raise_for_status(), r)
        self.assertEqual(r.getcode(), 200)
        self.assertEqual(r.geturl(), "https://a/x")
        self.assertEqual(r.read(), b"{}")
        self.assertEqual(list(r.iter_content()), [])
        self.assertEqual(r.headers.get("content-type"), "application/json")
        self.assertEqual(r.cookies["session"], "test")
        self.assertIsInstance(r.anything, _Any)
        with r as same:
            self.assertIs(same, r)

    def test_body(self):
        d = _Resp().json()
        self.assertIsInstance(d, _Data)
        self.assertIsInstance(d["list"][0]["main"], _Data)
        self.assertIsInstance(d.get("ok", False), _Data)  # the branch that does the work runs
        self.assertTrue(d.get("ok", False))
        self.assertEqual(len(list(d)), 1)

    def test_empty_page(self):
        capture._exhausted[0] = True
        r = _Resp()
        self.assertFalse(capture._exhausted[0])  # only this response is empty
        self.assertEqual((r.text, r.content), ("", b""))
        e = r.json()
        self.assertIsInstance(e, _Empty)
        self.assertFalse(e)
        self.assertEqual(len(e), 0)
        self.assertEqual(list(e), [])
        self.assertEqual(e.get("next", ""), "")
        self.assertEqual(e.get("next", default=None), None)
        self.assertIsInstance(e.get("next"), _Empty)
        self.assertIsInstance(e["results"].deeper, _Empty)
        self.assertTrue(e == None)  # noqa: E711
        self.assertTrue(e == [])
        self.assertFalse(e == "x")
        self.assertEqual(str(e), "")

    def test_async_response(self):
        r = _AResp("https://a/x")
        self.assertIsInstance(drive(r.json()), _Data)
        self.assertEqual(drive(r.text()), "{}")
        self.assertEqual(drive(r.read()), b"{}")
        self.assertIs(drive(r.__aenter__()), r)

    def test_headers_ignore_case(self):
        h = _Headers({"X-Thing": "1"})
        self.assertEqual(h.get("x-thing"), "1")
        self.assertEqual(h.get("X-THING"), "1")
        self.assertIsNone(h.get("other"))
        self.assertEqual(h.get("other", "d"), "d")
