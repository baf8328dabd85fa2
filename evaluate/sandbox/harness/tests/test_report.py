"""Tests of the report channel: the bounded JSON writer and the line format."""
import json
import unittest

from ..report import _js, _safe, _send
from ..values import _Any
from .support import HarnessTest


class JSTest(unittest.TestCase):
    def test_values(self):
        tests = [
            ("none", None, "null"),
            ("true", True, "true"),
            ("false", False, "false"),
            ("int", 42, "42"),
            ("negative int", -7, "-7"),
            ("int beyond 2^53 as a string", 1 << 60, '"1152921504606846976"'),
            ("float", 1.5, "1.5"),
            ("nan", float("nan"), "null"),
            ("infinity", float("inf"), "null"),
            ("string", "abc", '"abc"'),
            ("escapes", 'a"b\\c\n\x01', '"a\\"b\\\\c\\u000a\\u0001"'),
            ("non-ASCII kept", "café ✓", '"café ✓"'),
            ("list", [1, "a", None], '[1,"a",null]'),
            ("tuple as a list", (1, 2), "[1,2]"),
            ("dict", {"a": 1, "b": [True]}, '{"a":1,"b":[true]}'),
            ("non-string keys as strings", {1: "x", None: "y"}, '{"1":"x","None":"y"}'),
            ("bytes as a string", b"hi", '"hi"'),
            ("a stub as a string", _Any(), '"stub"'),
            ("nested past depth 4", [[[[[[1]]]]]], '[[[[["…"]]]]]'),
        ]
        for name, value, want in tests:
            with self.subTest(name):
                self.assertEqual(_js(value), want)

    def test_bounds(self):
        self.assertEqual(len(json.loads(_js("x" * 5000))), 2000)
        self.assertEqual(len(json.loads(_js(list(range(500))))), 200)
        self.assertEqual(len(json.loads(_js({str(i): i for i in range(500)}))), 200)

    def test_valid_json(self):
        v = {"k": ["\x00\x1f", "\u2028", 1e300, -0.0, {"n": [None]}]}
        self.assertEqual(json.loads(_js(v)), {"k": ["\x00\x1f", "\u2028", 1e300, -0.0, {"n": [None]}]})


class SafeTest(unittest.TestCase):
    def test_values(self):
        class Loud:
            def __str__(self):
                raise RuntimeError("no")

        class Odd:
            def __str__(self):
                return 3

        tests = [
            ("string", "s", "s"),
            ("bytes decoded", b"\xff\x41", "\ufffdA"),
            ("int", 3, "3"),
            ("float", 2.5, "2.5"),
            ("bool", True, "True"),
            ("none", None, "None"),
            ("stub", _Any(), "stub"),
            ("list", [1], "[1]"),
            ("raising __str__", Loud(), "?"),
            ("__str__ returning a non-string", Odd(), "?"),
        ]
        for name, value, want in tests:
            with self.subTest(name):
                self.assertEqual(_safe(value), want)

    def test_long_bytes_cut(self):
        self.assertEqual(len(_safe(b"a" * 5000)), 2000)


class SendTest(HarnessTest):
    def test_line_format(self):
        _send("req", {"url": "https://x/"})
        _send("end", {"status": "ok"})
        self.assertEqual(self.reports(), [("req", {"url": "https://x/"}), ("end", {"status": "ok"})])

    def test_at_most_401_lines(self):
        for i in range(500):
            _send("req", {"i": i})
        got = self.reports()
        self.assertEqual(len(got), 401)
        self.assertEqual(got[-1], ("req", {"i": 400}))

