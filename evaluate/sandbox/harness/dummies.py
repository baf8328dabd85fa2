"""Dummy arguments: what a function of the code under test is called with. A value
is chosen by the parameter's annotation and name (a session for `session`, a URL
for `url`, 40.7 for `lat`, a path to the dummy input file for `file_path`, a stub
for `self`, ...), then made to take the uses the body puts it to (uses: a number
for range(pages)), and _call_with_dummies can try several modes, from keeping every
default to passing stubs for everything, for a call that sends nothing the first
time. A mode never reads anything but the code: every completion of a sample is
called the same way."""
from . import job
from .facts import _dict_keys, _kw_keys, _tests_of
from .recorders import _FAKES
from .report import _safe
from .uses import _param_kinds, _typed
from .values import _ADict, _Any, _PStr

_str, _type, _len, _getattr, _isinstance = str, type, len, getattr, isinstance
_list, _int, _float, _tuple, _dict, _set = list, int, float, tuple, dict, set
_BaseException = BaseException


class _NoMode(Exception):
    """A dummy-argument mode that does not apply to this function."""


def _dummy(name, ann, cls_hint=None):
    """A dummy value for a parameter with this name and annotation."""
    n = (name or "").lower()
    if n in ("self", "cls"):
        return _Any()  # a method the extraction took out of its class: a stub instance
    a = _safe(ann).lower() if ann is not None else ""
    if "clientsession" in a or "aiohttp" in a:
        return _FAKES["aiohttp"].ClientSession()
    if "asyncclient" in a:
        return _FAKES["httpx"].AsyncClient()
    if "httpx" in a:
        return _FAKES["httpx"].Client()
    if n == "session" or "session" in a:
        return _FAKES["requests"].Session()
    if "datetime" in a:
        import datetime
        return datetime.datetime(2024, 1, 1, 12, 0)
    if a in ("date", "<class 'datetime.date'>"):
        import datetime
        return datetime.date(2024, 1, 1)
    if a in ("int", "<class 'int'>"):
        return 2024 if "year" in n else 1
    if a in ("float", "<class 'float'>"):
        return 40.7 if n.startswith("lat") else (-74.0 if n.startswith(("lon", "lng")) else 1.0)
    if a in ("bool", "<class 'bool'>"):
        return True
    if a.startswith(("dict", "<class 'dict'>", "typing.dict", "mapping")):
        return _ADict()
    if a.startswith(("list", "<class 'list'>", "typing.list", "sequence", "tuple", "typing.tuple")):
        return [_PStr("test")]
    if "url" in n or "endpoint" in n:
        return "https://example.com/test"
    if n in ("lat", "latitude"):
        return 40.7
    if n in ("lon", "lng", "long", "longitude"):
        return -74.0
    if any(s in n for s in ("key", "token", "secret", "password", "auth")):
        return "test-key"
    if "email" in n:
        return "test@example.com"
    if "date" in n or n in ("start", "end", "since", "until", "begin", "day_from", "day_to", "from_", "to"):
        return "2024-01-01"
    if "year" in n:
        return 2024
    if n in ("month", "day", "days", "hours", "limit", "count", "page", "size", "num", "n", "max", "top",
             "offset", "amount", "quantity", "age", "k", "per_page", "max_results", "num_results", "radius",
             "retries", "max_retries", "timeout", "zoom", "level") or n.startswith(("num_", "max_", "n_")):
        return 1
    if n in ("headers", "params", "data", "payload", "body", "json", "options", "config", "settings", "kwargs",
             "cfg", "conf", "context", "ctx", "info", "meta", "metadata", "query_params", "filters", "extra"):
        return _ADict()
    if n in ("request", "req", "self_request", "update", "message", "msg", "bot", "client", "app", "db", "conn",
             "cursor", "logger", "log", "interaction", "event", "callback"):
        return _Any()
    if n.endswith("list") or n.endswith("_ids"):
        return [_PStr("test")]
    if n.endswith("s") and n not in ("address", "status", "news", "class", "alias", "bus", "os", "is", "has",
                                      "symbols_str") and _len(n) > 3:
        return [_PStr("test")]  # one element, which also takes the uses of a record
    if "path" in n or "file" in n:
        return job.scratch + "/input.txt"
    if n in ("lang", "language", "locale", "source_lang", "target_lang"):
        return "en"
    if "country" in n:
        return "US"
    if n in ("city", "location", "place", "address", "region", "state"):
        return "London"
    if "id" in n:
        return "1"
    return "test"


def _empty_default(v):
    """Whether a default stands for "not given": None, an empty string or
    container, or a stub (a default from a name the code did not define)."""
    if v is None or _isinstance(v, _Any):
        return True
    return _type(v) in (_str, bytes, _list, _tuple, _dict, _set) and _len(v) == 0


def _like(default, d):
    """Dummy d for a parameter whose default is empty, of the default's kind (a
    dict for `opts={}`, whatever the name suggests)."""
    t = _type(default)
    if t is _dict:
        return d if _isinstance(d, _dict) else _ADict()
    if t in (_list, _tuple, _set):
        return d if _type(d) is _list else [_PStr("test")]
    if t is _str:
        return d if _isinstance(d, _str) else "test"
    if t is bytes:
        return b"test"
    return d


def _fit(d, t):
    """Dummy d made to pass the tests t of the code (facts._Tests): the first literal
    it is compared with, else a string that starts, contains and ends with what it is
    tested for (after a URL's host, so the host stays the dummy's own); a dict with
    the keys it is tested for; a list with the items. None when t changes nothing."""
    if t.eq:
        v = t.eq[0]
        if _type(v) is _str or _type(d) in (_int, _float):
            return v
    if _isinstance(d, _str) and (t.pre or t.has or t.suf):
        s = _str(d)
        if t.pre and not s.startswith(t.pre[0]):
            s = t.pre[0] + "test"
        for h in t.has:
            if h not in s:
                s += ("/" if "://" in s else " ") + h
        if t.suf and not s.endswith(t.suf[0]):
            s += t.suf[0]
        return _PStr(s) if _type(d) is _PStr else s
    if _type(d) is _ADict and t.has:
        return _ADict((h, _PStr("test")) for h in t.has)
    if _type(d) is _list and t.has:
        return _list(t.has)
    return None


def _fitted(fn):
    """The dummy function of mode 5: dummies fitted to the tests of fn's code."""
    tests = _tests_of(_getattr(fn, "__name__", ""))
    if not tests:
        raise _NoMode()

    def dummy(name, ann):
        d = _dummy(name, ann)
        t, te = tests.get(name), tests.get(name + "[]")
        if t is not None:
            f = _fit(d, t)
            if f is not None:
                d = f
        if te is not None and _type(d) is _list:
            f = _fit(d[0] if d and _isinstance(d[0], _str) else _PStr("test"), te)
            if f is not None:
                d = [f]
        return d
    return dummy


def _call_with_dummies(fn, skip_first, mode=0):
    """Calls fn with dummy arguments. mode 0 keeps defaults; mode 1 replaces the
    defaults that stand for "not given" (None, empty, a stub) by dummies too; mode 5
    is mode 1 with dummies fitted to what the function tests its parameters against
    (`if "instagram.com" in link`); mode 3 is mode 1 with strings taken from the
    keys of the function's own dict literals; mode 4 is mode 1 with numeric strings
    ("1" for an id) as numbers; mode 2 passes permissive stubs for everything. A
    **kwargs parameter gets the keys the function looks up in it."""
    sig = fn  # a decorated function (functools.wraps) is called through its wrapper
    for _ in range(10):  # with the arguments of the function it wraps
        inner = _getattr(sig, "__wrapped__", None)
        if inner is None:
            break
        sig = inner
    sig = _getattr(sig, "__func__", sig)
    code = _getattr(sig, "__code__", None)
    if code is None:
        return fn()
    argc = code.co_argcount
    names = code.co_varnames[:argc]
    kwonly = code.co_varnames[argc:argc + code.co_kwonlyargcount]
    defaults = _getattr(sig, "__defaults__", None) or ()
    kwdefaults = _getattr(sig, "__kwdefaults__", None) or {}
    try:
        ann = sig.__annotations__ or {}
    except _BaseException:
        ann = {}
    args = []
    first_default = argc - _len(defaults)
    keys = _dict_keys.get(_getattr(fn, "__name__", ""), ())
    dummy = _dummy
    if mode == 4:
        numeric = [False]

        def dummy(name, ann):
            d = _dummy(name, ann)
            if _type(d) is _str and d.isdigit():
                numeric[0] = True
                return _int(d)
            return d
    if mode == 5:
        dummy = _fitted(sig)
    if mode == 3:
        if not keys:
            raise _NoMode()

        def dummy(name, ann):
            d = _dummy(name, ann)
            if _type(d) is _str:
                return keys[0]
            if _type(d) is _list and d and _isinstance(d[0], _str):
                return [keys[0]]
            return d
    kinds = _param_kinds(_getattr(sig, "__name__", ""))
    if kinds:
        # made to take what the body does with them: range(pages), page + 1, .items()
        by_name = dummy

        def dummy(name, ann):
            return _typed(by_name(name, ann), kinds.get(name), name)
    for i, name in enumerate(names):
        if i == 0 and skip_first:
            continue
        if mode == 2:
            args.append(_Any())
        elif i >= first_default and (mode == 0 or not _empty_default(defaults[i - first_default])):
            args.append(defaults[i - first_default])
        elif i >= first_default:
            args.append(_like(defaults[i - first_default], dummy(name, ann.get(name))))
        else:
            args.append(dummy(name, ann.get(name)))
    kw = {}
    for name in kwonly:
        if mode == 2:
            kw[name] = _Any()
        elif name not in kwdefaults:
            kw[name] = dummy(name, ann.get(name))
        elif mode != 0 and _empty_default(kwdefaults[name]):
            kw[name] = _like(kwdefaults[name], dummy(name, ann.get(name)))
    if code.co_flags & 0x08:  # CO_VARKEYWORDS
        for name in _kw_keys.get(_getattr(sig, "__name__", ""), ()):
            if name not in kw and name not in names:
                kw[name] = _Any() if mode == 2 else dummy(name, None)
    if mode == 4 and not numeric[0]:
        raise _NoMode()
    return fn(*args, **kw) if not skip_first else fn.__func__(fn.__self__, *args, **kw)
