"""The report channel: one line per report, "NONCE\\tKIND\\tJSON\\n", with KIND facts,
req or end, written to the job's report descriptor. The JSON is written here (the
json module is not imported unless the code under test asks for it) and bounded:
long strings are cut, deep or long containers shortened, and a run sends at most
~400 lines besides its end line.

Nothing here is secret from the code under test, which can reach _send through
the harness objects it is handed; the Go side trusts only the facts line that
comes first (sent before any of the code runs) and the last end line."""
import posix
import time

from . import job
from .guard import _armed_cpu
from .values import _Any

_str, _type, _len, _isinstance = str, type, len, isinstance
_dict, _list, _tuple, _int, _float, _bool, _bytes = dict, list, tuple, int, float, bool, bytes
_write, _exit = posix.write, posix._exit
_BaseException = BaseException

_ESC = {i: "\\u%04x" % i for i in range(32)}
_ESC[34] = '\\"'
_ESC[92] = "\\\\"
_MAXS = 2000


def _js(o, depth=0):
    t = _type(o)
    if o is None:
        return "null"
    if o is True:
        return "true"
    if o is False:
        return "false"
    if t is _int:
        return _int.__repr__(o) if -(1 << 53) < o < (1 << 53) else '"%d"' % o
    if t is _float:
        return _float.__repr__(o) if o == o and o not in (1e999, -1e999) else "null"
    if t is _str:
        if _len(o) > _MAXS:
            o = o[:_MAXS]
        return '"' + o.translate(_ESC) + '"'
    if depth > 4:
        return '"…"'
    if t is _dict:
        parts = []
        for k, v in _list(o.items())[:200]:
            parts.append(_js(_safe(k), depth + 1) + ":" + _js(v, depth + 1))
        return "{" + ",".join(parts) + "}"
    if t is _list or t is _tuple:
        return "[" + ",".join(_js(v, depth + 1) for v in o[:200]) + "]"
    return _js(_safe(o), depth)


def _safe(o):
    """A short string for any value, never raising."""
    try:
        if _type(o) is _str:
            return o
        if _type(o) is _bytes:
            return o[:_MAXS].decode("utf-8", "replace")
        if _type(o) in (_int, _float, _bool) or o is None:
            return _str(o)
        if _isinstance(o, _Any):
            return "stub"
        s = _str(o)
        return s if _type(s) is _str else "?"
    except _BaseException:
        return "?"


_sent = [0]

# Whether lines are held back to be written together by _flush (a batch child's,
# a job's lines at a time: on these machines a write to the report pipe costs
# about half a millisecond of CPU), and the lines held.
_holding = [False]
_held = []


def _send(kind, obj):
    if _sent[0] > 400 and kind != "end":  # the end line always goes: the Go side takes the last one
        return
    if kind == "end" and _armed_cpu[0] and _type(obj) is _dict:  # where the armed run's CPU time went
        armed = _armed_cpu[0]
        obj = _dict(obj, cpu_setup_us=_int(armed * 1e6), cpu_code_us=_int((time.process_time() - armed) * 1e6))
    _sent[0] += 1
    line = job.nonce + "\t" + kind + "\t" + _js(obj) + "\n"
    data = line.encode("utf-8", "replace")
    if _holding[0]:
        _held.append(data)
        return
    _write_all(data)


def _flush():
    """Writes the lines held back, if any (call before the process exits)."""
    if _held:
        data = b"".join(_held)
        del _held[:]
        _write_all(data)


def _write_all(data):
    try:
        while data:
            n = _write(job.report_fd, data)
            data = data[n:]
    except _BaseException:
        _exit(86)
