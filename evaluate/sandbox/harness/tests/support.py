"""Helpers for the harness tests: a fresh job state with a report channel that
the test can read back."""
import ast
import builtins
import io
import json
import os
import shutil
import tempfile
import unittest

from .. import capture, facts, guard, job, report, run, stubs, uses, values


class HarnessTest(unittest.TestCase):
    """A test case with a fresh job: an empty per-run state, a scratch directory
    (the one the guard confines writes to) and a report pipe read by reports()."""

    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="sccg-harness-test-")
        self.addCleanup(shutil.rmtree, self.scratch, True)
        r, w = os.pipe()
        os.set_blocking(r, False)
        self.addCleanup(os.close, r)
        self.addCleanup(os.close, w)
        self._r = r
        saved = (job.report_fd, job.nonce, job.scratch, job.function, job.code, guard._SCR)
        # what _prepare_stdlib replaces in the process
        self.addCleanup(setattr, builtins, "open", builtins.open)
        self.addCleanup(setattr, io, "open", io.open)
        import urllib.parse as up
        for name in ("quote", "quote_plus", "unquote", "urljoin"):
            self.addCleanup(setattr, up, name, getattr(up, name))
        self.addCleanup(self._restore, saved)
        job.report_fd, job.nonce, job.scratch, job.function, job.code = w, "NONCE", self.scratch, "", ""
        guard._confine_to(self.scratch)
        reset()

    @staticmethod
    def _restore(saved):
        job.report_fd, job.nonce, job.scratch, job.function, job.code, guard._SCR = saved
        reset()

    def reports(self):
        """The (kind, decoded JSON) of every line reported since the last call."""
        data = b""
        while True:
            try:
                b = os.read(self._r, 1 << 16)
            except BlockingIOError:
                break
            if not b:
                break
            data += b
        out = []
        for line in data.decode("utf-8").splitlines():
            nonce, kind, body = line.split("\t", 2)
            self.assertEqual(nonce, "NONCE")
            out.append((kind, json.loads(body)))
        return out

    def requests(self):
        """The request records reported since the last call."""
        return [body for kind, body in self.reports() if kind == "req"]


def define(code, **names):
    """Runs code as the harness does the code under test: its facts read first,
    then its definitions made in a namespace holding names."""
    facts._facts(compile(code, "<generation>", "exec", ast.PyCF_ONLY_AST))
    g = dict(names)
    exec(compile(code, "<generation>", "exec"), g)
    return g


def reset():
    """Empties the harness's per-run state, as a fresh process has it."""
    report._sent[0] = 0
    capture._nreq[0] = 0
    capture._seen.clear()
    capture._exhausted[0] = False
    del stubs._stubbed[:], stubs._undefined[:], facts._sub_keys[:], facts._setup_hooks[:]
    facts._dict_keys.clear()
    facts._kw_keys.clear()
    facts._def_nodes.clear()
    facts._str_tests.clear()
    del facts._tree[:], stubs._answer_list[:]
    stubs._answered[0] = 0
    values._shape[0] = 1
    values._path[0] = "stub"
    uses._param_kind_cache.clear()
    uses._global_kind_cache.clear()
    run._repairs[0] = 0
    del run._stopped[:]


def drive(coro):
    """Runs a coroutine that never suspends, without an event loop."""
    try:
        coro.send(None)
    except StopIteration as e:
        return e.value
    raise AssertionError("coroutine suspended")
