"""What a call to a recorder becomes: a request record sent on the report
channel, and the fake response the code gets back. The record keeps the method,
the URL, the names of the parameters and body fields, the values of the query
parameters (what a bounded real call replays), with secret-looking header and
parameter values redacted. A run keeps at most _MAXREQ requests, and
after _PAGES requests to the same endpoint the responses are empty pages, so loops
that page or poll come to an end."""
from .report import _safe, _send
from .values import _AIter, _Any, _ADict, _items, _Lenient

_str, _len, _isinstance = str, len, isinstance
_dict, _list, _tuple, _bytes = dict, list, tuple, bytes
_BaseException = BaseException

# Requests recorded so far; a run keeps at most _MAXREQ.
_nreq = [0]
_MAXREQ = 100

# How often each method and URL (without its query) was requested; past _PAGES, the
# fake responses are empty, so a loop that pages until an empty page ends there.
_seen = {}
_PAGES = 3
_exhausted = [False]


class _Enough(BaseException):
    """Raised by a recorder once the code has sent the most requests a run keeps:
    a loop that keeps calling an endpoint ends here instead of at the timeout."""


def _record(lib, method, url, params=None, headers=None, json=None, data=None, files=None, base=None):
    """Reports one request the code sent through lib; a relative url is joined to
    base (a client's base URL)."""
    if _nreq[0] >= _MAXREQ:
        raise _Enough()
    _nreq[0] += 1
    u = _safe(url)
    if base is not None and "://" not in u:
        b = _safe(base)
        u = b.rstrip("/") + "/" + u.lstrip("/") if u else b
    key = _safe(method).upper() + " " + u.split("?", 1)[0]
    _seen[key] = _seen.get(key, 0) + 1
    _exhausted[0] = _seen[key] > _PAGES
    rec = {"lib": lib, "method": _safe(method).upper(), "url": u}
    if params is not None:
        if _isinstance(params, (_str, _bytes)):
            rec["params_raw"] = _safe(params)
        else:
            rec["params"] = _keys(params)
            rec["param_values"] = _pairs(params)
    if headers:
        rec["headers"] = _hdrs(headers)
    if json is not None:
        rec["json"] = _keys(json) if _isinstance(json, (_dict, _list, _tuple)) else _safe(json)[:200]
    if data is not None:
        rec["data"] = _keys(data)
    if files is not None:
        rec["files"] = _keys(files)
    _send("req", rec)


def _keys(v):
    """The names in a params, JSON or form value: a mapping's keys, the first item
    of each pair in a list, a string as itself."""
    if v is None:
        return None
    if _isinstance(v, _dict):
        return [_safe(k) for k in v]
    if _isinstance(v, (_list, _tuple)):
        out = []
        for it in v:
            if _isinstance(it, (_list, _tuple)) and _len(it) >= 1:
                out.append(_safe(it[0]))
        return out
    if _isinstance(v, (_str, _bytes)):
        return _safe(v)
    return _safe(v)


_SECRETISH = ("key", "token", "auth", "secret", "password", "cookie")


def _pairs(v):
    """The query pairs a params value becomes, as the HTTP libraries encode it: a
    mapping's items or a list of pairs, a list value as one pair per item, None
    left out; values as short strings, those of secret-looking names redacted."""
    if _isinstance(v, _dict):
        items = v.items()
    elif _isinstance(v, (_list, _tuple)):
        items = [it for it in v if _isinstance(it, (_list, _tuple)) and _len(it) == 2]
    else:
        return []
    out = []
    for k, val in items:
        ks = _safe(k)
        vals = val if _isinstance(val, (_list, _tuple)) else [val]
        for x in vals:
            if x is None:
                continue
            kl = ks.lower()
            out.append([ks, "<redacted>" if any(s in kl for s in _SECRETISH) else _safe(x)[:200]])
    return out


def _hdrs(h):
    """Headers as short strings, values of secret-looking names redacted."""
    if not _isinstance(h, _dict):
        try:
            h = _dict(h)
        except _BaseException:
            return {}
    out = {}
    for k, v in h.items():
        ks = _safe(k)
        kl = ks.lower()
        if "host" in kl:
            out[ks] = _safe(v)[:200]
        elif any(s in kl for s in _SECRETISH):
            out[ks] = "<redacted>"
        else:
            out[ks] = _safe(v)[:200]
    return out


def _merge(a, b):
    """A session's defaults (a) updated with a call's own (b)."""
    if not a:
        return b
    if not b:
        return a
    try:
        m = _dict(a)
        m.update(b)
        return m
    except _BaseException:
        return b


class _Headers(dict):
    """Response and session headers: get ignores the case of the name."""

    def get(self, k, d=None):
        for kk, v in self.items():
            if _safe(kk).lower() == _safe(k).lower():
                return v
        return d


class _Empty(_Any):
    """An empty page: falsy, no items, every lookup empty too."""

    __slots__ = ()

    def __getattr__(self, name):
        if name[:2] == "__" and name[-2:] == "__":
            raise AttributeError(name)
        return _Empty()

    def __call__(self, *a, **k):
        return _Empty()

    def __getitem__(self, k):
        return _Empty()

    def __iter__(self):
        return iter(())

    def __aiter__(self):
        return _AIter(0)

    def __len__(self):
        return 0

    def __bool__(self):
        return False

    def __eq__(self, o):
        return o is None or o == 0 or o == "" or o == [] or o == {}

    def __ne__(self, o):
        return not self.__eq__(o)

    def __str__(self):
        return ""

    __repr__ = __str__

    def __hash__(self):
        return 0

    def get(self, *a, **k):
        if _len(a) >= 2:
            return a[1]
        return k["default"] if "default" in k else _Empty()


class _Data(_Any):
    """What a fake response's .json() returns: a permissive stub whose .get keeps
    answering with stubs, defaults or not (`if data.get("ok", False):` takes the
    branch that does the work, as indexing does)."""

    __slots__ = ()

    def __getattr__(self, name):
        if name[:2] == "__" and name[-2:] == "__":
            raise AttributeError(name)
        return _Data()

    def __call__(self, *a, **k):
        return _Data()

    def __getitem__(self, k):
        return _Data()

    def get(self, *a, **k):
        return _Data()

    def __iter__(self):
        return iter([_Data() for _ in range(_items())])


class _Resp(_Lenient):
    """A permissive fake of a successful HTTP response (an empty one once the same
    endpoint has been asked too often)."""

    status_code = 200
    status = 200
    code = 200
    ok = True
    reason = "OK"
    text = "{}"
    content = b"{}"
    encoding = "utf-8"
    is_success = True
    is_error = False
    history = []

    def __init__(self, url="", method="GET"):
        self.url = url
        self.empty = _exhausted[0]
        _exhausted[0] = False
        if self.empty:
            self.text, self.content = "", b""
        self.headers = _Headers({"Content-Type": "application/json"})
        self.cookies = _ADict()
        self.elapsed = _Any()
        self.request = _Any()

    def json(self, *a, **k):
        return _Empty() if self.empty else _Data()

    def raise_for_status(self):
        return self

    def iter_content(self, *a, **k):
        return iter(())

    def iter_lines(self, *a, **k):
        return iter(())

    def read(self, *a, **k):
        return b"{}"

    def getcode(self):
        return 200

    def getheader(self, name, default=None):
        return default

    def getheaders(self):
        return []

    def info(self):
        return self.headers

    def geturl(self):
        return self.url

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False


class _AResp(_Resp):
    """An aiohttp/httpx-async response: body readers are coroutines."""

    async def json(self, *a, **k):
        return _Empty() if self.empty else _Data()

    async def text(self, *a, **k):
        return "" if self.empty else "{}"

    async def read(self, *a, **k):
        return b"{}"

    def release(self):
        pass

    async def __aenter__(self):
        return self

    async def __aexit__(self, *a):
        return False
