"""Tests of the driver's steps: the attempts at calling a function that reaches no
request."""
from .. import run, values
from ..capture import _nreq
from ..recorders import _FAKES
from ..run import _attempts
from ..values import _Any
from .support import HarnessTest


class AttemptsTest(HarnessTest):
    def test_empty_stubs_after_every_mode(self):
        seen = []

        def f(cache):
            seen.append((type(cache).__name__, len(_Any())))
            if not _Any():  # a cache miss
                _FAKES["requests"].get("https://c.example.com/fetch")

        _attempts(f, False)
        self.assertEqual(seen, [("str", 1), ("str", 1), ("_Any", 1), ("str", 0)])  # modes 3 and 4 do not apply
        self.assertEqual(len(self.requests()), 1)
        self.assertEqual(values._shape[0], 1)  # stubs are back to one item

    def test_first_error_when_nothing_is_reached(self):
        def f(x):
            raise ValueError(x)

        with self.assertRaises(ValueError) as e:
            _attempts(f, False)
        self.assertEqual(e.exception.args, ("test",))
        self.assertEqual(_nreq[0], 0)

    def test_each_attempt_once(self):
        self.assertEqual(len(set(run._ATTEMPTS)), len(run._ATTEMPTS))
        self.assertEqual(run._ATTEMPTS[0], (0, 1))  # the first attempt is the plain call
