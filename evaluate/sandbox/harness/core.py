"""The whole harness in one module, for now: recorders, stubs, dummy arguments,
the audit hook and limits, the driver and the fork server. __main__ loads it and
calls _setup and _run for one job, or _serve for a fork server.

Reports, one line each, over the report descriptor: "NONCE\\tKIND\\tJSON\\n" with
KIND facts, req, call, end. Nothing here imports a third-party package: every HTTP
client is a recorder, every other missing module a permissive stub. Kept
import-light: no json, re, ast or asyncio unless the code under test asks for them.
"""
import sys
import posix
import _signal
import resource

_str, _repr, _type, _len, _isinstance, _getattr = str, repr, type, len, isinstance, getattr
_dict, _list, _tuple, _int, _float, _bool, _bytes = dict, list, tuple, int, float, bool, bytes
_write, _exit = posix.write, posix._exit
_BaseException, _Exception = BaseException, Exception

# Set by _setup for the one job this process runs.
_FD, _SCRATCH, _SCR = -1, "", ""
_CPU = _AS = _FSIZE = _NOFILE = _NPROC = 0
_NONCE = _FUNC = _CODE = ""


def _setup(fd, scratch, limits, job):
    """Takes the job: report channel, scratch directory, limits and the code."""
    global _FD, _SCRATCH, _SCR, _CPU, _AS, _FSIZE, _NOFILE, _NPROC, _NONCE, _FUNC, _CODE
    _SCRATCH = scratch
    _SCR = _abspath(scratch)
    _CPU, _AS, _FSIZE, _NOFILE, _NPROC = (_int(x) for x in limits)
    _NONCE, _FUNC, _CODE = job.split("\n", 2) if job.count("\n") >= 2 else ("", "", "")
    # Move the report channel to a high descriptor and close the one the code could guess.
    _FD = fd
    try:
        hi = posix.dup(fd)
        fd2 = 200 + (_int.from_bytes(posix.urandom(1), "little") % 700)
        posix.dup2(hi, fd2, False)
        posix.close(hi)
        posix.close(fd)
        _FD = fd2
    except OSError:
        pass

# ---------------------------------------------------------------- reporting
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


def _send(kind, obj):
    if _sent[0] > 400:
        return
    _sent[0] += 1
    line = _NONCE + "\t" + kind + "\t" + _js(obj) + "\n"
    data = line.encode("utf-8", "replace")
    try:
        while data:
            n = _write(_FD, data)
            data = data[n:]
    except _BaseException:
        _exit(86)


# ---------------------------------------------------------------- permissive values
class _Lenient:
    """Mixin: any attribute a fake lacks is a permissive _Any. Dunder names stay
    missing, so protocols (iteration, pickling, copying) take their normal paths."""

    __slots__ = ()

    def __getattr__(self, name):
        if name[:2] == "__" and name[-2:] == "__":
            raise AttributeError(name)
        return _Any()


class _Any(_Lenient):
    """A value that tolerates every use: attribute, call, index, iteration, await."""

    __slots__ = ()


    def __call__(self, *a, **k):
        if _len(a) == 1 and not k and _type(a[0]).__name__ in ("function", "type", "method", "coroutine"):
            return a[0]  # a decorator from a stubbed library keeps the function
        return _Any()

    def __getitem__(self, k):
        return _Any()

    def get(self, *a, **k):
        """`request.args.get("q", "")`: a scalar default gives the value its type, so
        code that quotes, joins or compares it gets a str (an empty default reads as
        set, as environment lookups do); no default, None or a container: a stub."""
        d = a[1] if _len(a) >= 2 else k.get("default")
        t = _type(d)
        if t is _str:
            return d or "test"
        if t is _bytes:
            return d or b"test"
        if t in (_int, _float, _bool):
            return d
        return _Any()

    def __setitem__(self, k, v):
        pass

    def __delitem__(self, k):
        pass

    def __setattr__(self, k, v):
        pass

    def __iter__(self):
        return iter((_Any(),))  # one item, so loops over stubbed data run once

    def __len__(self):
        return 1

    def __bool__(self):
        return True

    def __contains__(self, k):
        return False

    def __str__(self):
        return "stub"

    __repr__ = __str__

    def __format__(self, spec):
        return "stub"

    def __int__(self):
        return 0

    __index__ = __int__

    def __float__(self):
        return 0.0

    def __eq__(self, o):
        return True  # `if request.method == "POST":` takes the branch that does the work

    def __ne__(self, o):
        return False

    def __lt__(self, o):
        return False

    __le__ = __gt__ = __ge__ = __lt__

    def __hash__(self):
        return id(self)

    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False

    async def __aenter__(self):
        return self

    async def __aexit__(self, *a):
        return False

    def __await__(self):
        return iter(())

    def __aiter__(self):
        return self

    async def __anext__(self):
        raise StopAsyncIteration

    def __mro_entries__(self, bases):
        return (_StubBase,)

    def _op(self, *a):
        return _Any()

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _op
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _op
    __pow__ = __rpow__ = __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = _op
    __neg__ = __pos__ = __abs__ = __invert__ = __matmul__ = __rmatmul__ = _op
    __lshift__ = __rlshift__ = __rshift__ = __rrshift__ = _op


class _StubBase(_Lenient):
    """The base class a class gets when it derives from a stubbed library class."""

    def __init__(self, *a, **k):
        pass

    def __init_subclass__(cls, **k):
        pass


class _NoMode(Exception):
    """A dummy-argument mode that does not apply to this function."""


class _ADict(_Lenient, dict):
    """A dict that answers every missing key: configuration passed as a dummy."""

    def __missing__(self, k):
        return "test"


ModuleType = _type(sys)


class _StubModule(_Lenient, ModuleType):
    """A module that is not installed: every attribute is a permissive stub."""


# ---------------------------------------------------------------- recorders
_nreq = [0]


def _keys(v):
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


def _hdrs(h):
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


class _Enough(BaseException):
    """Raised by a recorder once the code has sent the most requests a run keeps:
    a loop that keeps calling an endpoint ends here instead of at the timeout."""


_MAXREQ = 100


# How often each method and URL (without its query) was requested; past _PAGES, the
# fake responses are empty, so a loop that pages until an empty page ends there.
_seen = {}
_PAGES = 3
_exhausted = [False]


def _record(lib, method, url, params=None, headers=None, json=None, data=None, files=None, base=None):
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
    if headers:
        rec["headers"] = _hdrs(headers)
    if json is not None:
        rec["json"] = _keys(json) if _isinstance(json, (_dict, _list, _tuple)) else _safe(json)[:200]
    if data is not None:
        rec["data"] = _keys(data)
    if files is not None:
        rec["files"] = _keys(files)
    _send("req", rec)


def _merge(a, b):
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
        return iter((_Data(),))


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


def _module(name, attrs, package=False):
    m = _StubModule(name)
    m.__dict__.update(attrs)
    if package:
        m.__path__ = []
    return m


def _errors():
    class RequestException(IOError):
        def __init__(self, *a, **k):
            IOError.__init__(self, *a)
            self.response = k.get("response", _Resp())
            self.request = k.get("request")

    names = {"RequestException": RequestException}
    for n in ("HTTPError", "ConnectionError", "Timeout", "TooManyRedirects", "URLRequired",
              "InvalidURL", "InvalidHeader", "InvalidSchema", "MissingSchema", "ChunkedEncodingError",
              "ContentDecodingError", "SSLError", "ProxyError", "RetryError", "JSONDecodeError",
              "InvalidJSONError"):
        names[n] = _type(n, (RequestException,), {})
    names["ConnectTimeout"] = _type("ConnectTimeout", (names["ConnectionError"], names["Timeout"]), {})
    names["ReadTimeout"] = _type("ReadTimeout", (names["Timeout"],), {})
    return names


def _make_requests():
    exc = _errors()

    class PreparedRequest:
        def __init__(self, method="GET", url="", headers=None, params=None, data=None, json=None, files=None):
            self.method, self.url, self.headers = method, url, headers or {}
            self.params, self.data, self.json, self.files, self.body = params, data, json, files, None

        def prepare(self):
            return self

    class Request(PreparedRequest):
        pass

    class Session(_Lenient):
        def __init__(self, *a, **k):
            self.headers = _Headers()
            self.params = {}
            self.cookies = _ADict()
            self.auth = None
            self.proxies = {}
            self.verify = True
            self.adapters = {}

        def request(self, method, url, params=None, data=None, headers=None, cookies=None, files=None,
                    auth=None, timeout=None, allow_redirects=True, proxies=None, hooks=None, stream=None,
                    verify=None, cert=None, json=None, **kw):
            _record("requests", method, url, _merge(self.params, params), _merge(self.headers, headers),
                    json, data, files)
            return _Resp(_safe(url), method)

        def get(self, url, **k):
            return self.request("GET", url, **k)

        def options(self, url, **k):
            return self.request("OPTIONS", url, **k)

        def head(self, url, **k):
            return self.request("HEAD", url, **k)

        def post(self, url, data=None, json=None, **k):
            return self.request("POST", url, data=data, json=json, **k)

        def put(self, url, data=None, **k):
            return self.request("PUT", url, data=data, **k)

        def patch(self, url, data=None, **k):
            return self.request("PATCH", url, data=data, **k)

        def delete(self, url, **k):
            return self.request("DELETE", url, **k)

        def send(self, req, **k):
            return self.request(_getattr(req, "method", "GET"), _getattr(req, "url", ""),
                                params=_getattr(req, "params", None), data=_getattr(req, "data", None),
                                headers=_getattr(req, "headers", None), json=_getattr(req, "json", None))

        def prepare_request(self, req):
            return req

        def mount(self, *a, **k):
            pass

        def close(self):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False


    def request(method, url, **k):
        return Session().request(method, url, **k)

    def get(url, params=None, **k):
        return request("GET", url, params=params, **k)

    def post(url, data=None, json=None, **k):
        return request("POST", url, data=data, json=json, **k)

    def put(url, data=None, **k):
        return request("PUT", url, data=data, **k)

    def patch(url, data=None, **k):
        return request("PATCH", url, data=data, **k)

    def delete(url, **k):
        return request("DELETE", url, **k)

    def head(url, **k):
        return request("HEAD", url, **k)

    def options(url, **k):
        return request("OPTIONS", url, **k)

    class HTTPAdapter(_Lenient):
        def __init__(self, *a, **k):
            pass


    class _Codes(_ADict):
        def __getattr__(self, n):
            return 200

    exceptions = _module("requests.exceptions", exc)
    adapters = _module("requests.adapters", {"HTTPAdapter": HTTPAdapter, "Retry": _Any()})
    attrs = {"Session": Session, "session": Session, "Request": Request, "PreparedRequest": PreparedRequest,
             "Response": _Resp, "request": request, "get": get, "post": post, "put": put, "patch": patch,
             "delete": delete, "head": head, "options": options, "exceptions": exceptions,
             "adapters": adapters, "codes": _Codes(), "__version__": "2.31.0"}
    attrs.update(exc)
    root = _module("requests", attrs, package=True)
    sessions = _module("requests.sessions", {"Session": Session})
    models = _module("requests.models", {"Response": _Resp, "Request": Request, "PreparedRequest": PreparedRequest})
    root.sessions, root.models = sessions, models
    return {"requests": root, "requests.exceptions": exceptions, "requests.adapters": adapters,
            "requests.sessions": sessions, "requests.models": models}


def _make_httpx():
    class HTTPError(Exception):
        def __init__(self, *a, **k):
            Exception.__init__(self, *a)
            self.response = k.get("response", _Resp())
            self.request = k.get("request")

    names = {"HTTPError": HTTPError}
    for n, b in (("RequestError", "HTTPError"), ("HTTPStatusError", "HTTPError"), ("TransportError", "RequestError"),
                 ("TimeoutException", "TransportError"), ("ConnectError", "TransportError"),
                 ("ReadTimeout", "TimeoutException"), ("ConnectTimeout", "TimeoutException"),
                 ("NetworkError", "TransportError"), ("InvalidURL", "HTTPError")):
        names[n] = _type(n, (names[b],), {})

    class _Base(_Lenient):
        def __init__(self, *a, base_url=None, headers=None, params=None, **k):
            self.base_url = base_url
            self.headers = _Headers(headers or {})
            self.params = params or {}

        def _rec(self, method, url, params=None, headers=None, json=None, data=None, content=None,
                 files=None, **k):
            _record("httpx", method, url, _merge(self.params, params), _merge(self.headers, headers),
                    json, data if data is not None else content, files, base=self.base_url)

        def close(self):
            pass


    class Client(_Base):
        def request(self, method, url, **k):
            self._rec(method, url, **k)
            return _Resp(_safe(url), method)

        def send(self, req, **k):
            return self.request(_getattr(req, "method", "GET"), _getattr(req, "url", ""))

        def stream(self, method, url, **k):
            return self.request(method, url, **k)

        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False

    class AsyncClient(_Base):
        async def request(self, method, url, **k):
            self._rec(method, url, **k)
            return _AResp(_safe(url), method)

        async def aclose(self):
            pass

        async def __aenter__(self):
            return self

        async def __aexit__(self, *a):
            return False

    for m in ("get", "post", "put", "patch", "delete", "head", "options"):
        def sync(self, url, _m=m, **k):
            return self.request(_m.upper(), url, **k)

        def asyn(self, url, _m=m, **k):
            return self.request(_m.upper(), url, **k)

        setattr(Client, m, sync)
        setattr(AsyncClient, m, asyn)

    def request(method, url, **k):
        return Client().request(method, url, **k)

    attrs = {"Client": Client, "AsyncClient": AsyncClient, "request": request, "Response": _Resp,
             "Timeout": _Any(), "Limits": _Any(), "__version__": "0.27.0"}
    for m in ("get", "post", "put", "patch", "delete", "head", "options"):
        attrs[m] = (lambda _m: lambda url, **k: request(_m.upper(), url, **k))(m)
    attrs.update(names)
    return {"httpx": _module("httpx", attrs, package=True)}


def _make_aiohttp():
    class ClientError(Exception):
        pass

    class ClientResponseError(ClientError):
        def __init__(self, *a, **k):
            ClientError.__init__(self, *a)
            self.status = k.get("status", 500)
            self.message = k.get("message", "")

    names = {"ClientError": ClientError, "ClientResponseError": ClientResponseError}
    for n in ("ClientConnectionError", "ClientConnectorError", "ServerTimeoutError", "ClientPayloadError",
              "ContentTypeError", "ServerDisconnectedError", "ClientOSError", "InvalidURL"):
        names[n] = _type(n, (ClientError,), {})

    class _Ctx:
        def __init__(self, resp):
            self.resp = resp

        def __await__(self):
            if False:
                yield
            return self.resp

        async def __aenter__(self):
            return self.resp

        async def __aexit__(self, *a):
            return False

    class ClientSession(_Lenient):
        def __init__(self, base_url=None, *a, headers=None, **k):
            self.base_url = base_url
            self.headers = _Headers(headers or {})
            self.closed = False

        def request(self, method, url, params=None, headers=None, json=None, data=None, **k):
            _record("aiohttp", method, url, params, _merge(self.headers, headers), json, data, base=self.base_url)
            return _Ctx(_AResp(_safe(url), method))

        async def close(self):
            self.closed = True

        async def __aenter__(self):
            return self

        async def __aexit__(self, *a):
            return False

        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False


    for m in ("get", "post", "put", "patch", "delete", "head", "options"):
        setattr(ClientSession, m, (lambda _m: lambda self, url, **k: self.request(_m.upper(), url, **k))(m))

    def request(method, url, **k):
        return ClientSession().request(method, url, **k)

    attrs = {"ClientSession": ClientSession, "request": request, "ClientTimeout": _Any(), "TCPConnector": _Any(),
             "FormData": _Any(), "BasicAuth": _Any(), "ClientResponse": _AResp, "__version__": "3.9.0"}
    attrs.update(names)
    return {"aiohttp": _module("aiohttp", attrs, package=True)}


def _make_urllib():
    class Request:
        def __init__(self, url, data=None, headers=None, origin_req_host=None, unverifiable=False, method=None):
            self.full_url = url
            self.data = data
            self.headers = _dict(headers or {})
            self.method = method

        def add_header(self, k, v):
            self.headers[k] = v

        def get_method(self):
            return self.method or ("POST" if self.data is not None else "GET")

        def get_full_url(self):
            return self.full_url

    def urlopen(url, data=None, timeout=None, **k):
        if _isinstance(url, Request):
            d = url.data if url.data is not None else data
            m = url.method or ("POST" if d is not None else "GET")
            _record("urllib", m, url.full_url, None, url.headers, None, d)
            return _Resp(_safe(url.full_url))
        _record("urllib", "POST" if data is not None else "GET", url, None, None, None, data)
        return _Resp(_safe(url))

    class _Opener:
        addheaders = []

        def open(self, url, data=None, timeout=None):
            return urlopen(url, data)

    def build_opener(*a, **k):
        return _Opener()

    attrs = {"Request": Request, "urlopen": urlopen, "build_opener": build_opener,
             "install_opener": lambda *a, **k: None, "HTTPHandler": _Any(), "HTTPSHandler": _Any(),
             "ProxyHandler": _Any()}
    return {"urllib.request": _module("urllib.request", attrs)}


def _make_httpclient():
    class HTTPConnection:
        scheme = "http"

        def __init__(self, host, port=None, *a, **k):
            self.host = _safe(host)
            self.port = port
            self._resp = None

        def request(self, method, url, body=None, headers=None, **k):
            full = url
            if "://" not in _safe(url):
                full = self.scheme + "://" + self.host + (":%s" % self.port if self.port else "") + _safe(url)
            _record("http.client", method, full, None, headers, None, body)

        def putrequest(self, method, url, *a, **k):
            self.request(method, url)

        def putheader(self, *a):
            pass

        def endheaders(self, *a):
            pass

        def send(self, *a):
            pass

        def getresponse(self):
            return _Resp()

        def set_debuglevel(self, *a):
            pass

        def close(self):
            pass

    class HTTPSConnection(HTTPConnection):
        scheme = "https"

    class HTTPException(Exception):
        pass

    attrs = {"HTTPConnection": HTTPConnection, "HTTPSConnection": HTTPSConnection, "HTTPResponse": _Resp,
             "HTTPException": HTTPException, "OK": 200, "responses": _ADict()}
    return {"http.client": _module("http.client", attrs)}


def _make_urllib3():
    class PoolManager:
        def __init__(self, *a, headers=None, **k):
            self.headers = headers or {}

        def request(self, method, url, fields=None, headers=None, body=None, json=None, **k):
            _record("urllib3", method, url, fields if method.upper() in ("GET", "HEAD", "DELETE") else None,
                    _merge(self.headers, headers), json, body if body is not None else (
                        fields if method.upper() not in ("GET", "HEAD", "DELETE") else None))
            return _Resp(_safe(url), method)

        def urlopen(self, method, url, **k):
            return self.request(method, url, **k)

    return {"urllib3": _module("urllib3", {"PoolManager": PoolManager, "disable_warnings": lambda *a: None,
                                           "exceptions": _Any(), "Retry": _Any()}, package=True)}


_FAKES = {}
for _mk in (_make_requests, _make_httpx, _make_aiohttp, _make_urllib, _make_httpclient, _make_urllib3):
    _FAKES.update(_mk())

_bootstrap = sys.modules["_frozen_importlib"]
_ModuleSpec = _bootstrap.ModuleSpec


class _FakeLoader:
    @staticmethod
    def create_module(spec):
        return _FAKES.get(spec.name) or _StubModule(spec.name)

    @staticmethod
    def exec_module(module):
        if not hasattr(module, "__path__"):
            module.__path__ = []


class _FakeFinder:
    """First on sys.meta_path: the HTTP clients are always the recorders."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name in _FAKES:
            return _ModuleSpec(name, _FakeLoader, is_package=hasattr(_FAKES[name], "__path__"))
        top = name.split(".", 1)[0]
        if top in ("requests", "httpx", "aiohttp", "urllib3"):
            return _ModuleSpec(name, _FakeLoader, is_package=True)
        return None

    @staticmethod
    def invalidate_caches():
        pass


_stubbed = []
_STDLIB = _getattr(sys, "stdlib_module_names", frozenset())


class _StubFinder:
    """Last on sys.meta_path: whatever is not installed becomes a permissive stub."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name.split(".", 1)[0] in _STDLIB:
            return None  # a missing stdlib module (nt, _winapi) must stay missing
        f = sys._getframe(1)
        while f is not None and f.f_code.co_filename.startswith("<frozen"):
            f = f.f_back
        if f is None or f.f_code.co_filename != "<generation>":
            return None  # optional imports inside the standard library keep failing
        if _len(_stubbed) < 500:
            _stubbed.append(name)
        return _ModuleSpec(name, _FakeLoader, is_package=True)

    @staticmethod
    def invalidate_caches():
        pass


# ---------------------------------------------------------------- static facts
def _facts(tree):
    imports, defs = [], []
    loaded, stored = set(), set()
    Name, Store, Del, arg = _ast.Name, _ast.Store, _ast.Del, _ast.arg
    alias, ExceptHandler, Global, Nonlocal = _ast.alias, _ast.ExceptHandler, _ast.Global, _ast.Nonlocal
    has_try = has_status = False
    stack = [tree]
    Import, ImportFrom, Try = _ast.Import, _ast.ImportFrom, _ast.Try
    TryStar = _getattr(_ast, "TryStar", Try)
    Attribute, FunctionDef, AsyncFunctionDef, ClassDef = _ast.Attribute, _ast.FunctionDef, _ast.AsyncFunctionDef, _ast.ClassDef
    AST = _ast.AST
    Subscript, Constant = _ast.Subscript, _ast.Constant
    while stack:
        n = stack.pop()
        t = _type(n)
        if t is Subscript and _type(n.slice) is Constant and _type(n.slice.value) is _str:
            k = n.slice.value
            if _len(_sub_keys) < 10 and k.isidentifier() and k not in _sub_keys:
                _sub_keys.append(k)
        if t is Name:
            (stored if _type(n.ctx) in (Store, Del) else loaded).add(n.id)
        elif t is arg:
            stored.add(n.arg)
        elif t is alias:
            stored.add((n.asname or n.name).split(".", 1)[0])
        elif t in (FunctionDef, AsyncFunctionDef, ClassDef):
            stored.add(n.name)
        elif t is ExceptHandler and n.name:
            stored.add(n.name)
        elif t is Global or t is Nonlocal:
            stored.update(n.names)
        if t is Import:
            for a in n.names:
                imports.append(a.name)
        elif t is ImportFrom:
            imports.append("." * n.level + (n.module or ""))
        elif t is Try or t is TryStar:
            if n.handlers:
                has_try = True
        elif t is Attribute:
            if n.attr in ("status_code", "raise_for_status", "ok", "status", "is_success", "is_error", "getcode"):
                has_status = True
        for f in n._fields:
            v = _getattr(n, f, None)
            if _type(v) is _list:
                for x in v:
                    if _isinstance(x, AST):
                        stack.append(x)
            elif _isinstance(v, AST):
                stack.append(v)
    calls = {}
    for n in tree.body:
        if _type(n) in (FunctionDef, AsyncFunctionDef):
            if _is_setup_hook(n):
                _setup_hooks.append(n.name)
            defs.append(n.name)
            calls[n.name] = _called(n)
            _dict_keys[n.name] = _literal_keys(n)
            _kw_keys[n.name] = _kwarg_keys(n)
        elif _type(n) is ClassDef:
            for m in n.body:
                if _type(m) in (FunctionDef, AsyncFunctionDef):
                    defs.append(n.name + "." + m.name)
                    calls[n.name + "." + m.name] = _called(m)
                    _dict_keys[m.name] = _literal_keys(m)
                    _kw_keys[m.name] = _kwarg_keys(m)
    # A definition reaches a request when it calls an HTTP verb or client, or calls a
    # definition that does.
    reach = set(d for d in defs if calls[d] & _HTTPISH)
    changed = True
    while changed:
        changed = False
        for d in defs:
            if d not in reach and any(d2.rsplit(".", 1)[-1] in calls[d] for d2 in reach):
                reach.add(d)
                changed = True
    free = sorted(x for x in loaded - stored if not hasattr(builtins, x) and x not in ("__file__", "__name__"))
    return {"syntax": True, "imports": imports, "has_try": has_try, "has_status_check": has_status, "defs": defs,
            "reach": [d for d in defs if d in reach], "free": free[:100]}


_HTTPISH = frozenset(("get", "post", "put", "patch", "delete", "head", "options", "request", "urlopen", "send",
                      "stream", "getresponse", "Request", "ClientSession", "Client", "AsyncClient", "Session",
                      "HTTPSConnection", "HTTPConnection", "PoolManager", "fetch"))


# string keys the code indexes anything with (`row["review"]`): the columns of the
# dummy input file
_sub_keys = []
# top-level functions an application runs before it serves: a FastAPI/Starlette
# lifespan (an async context manager taking the app) and startup handlers
_setup_hooks = []


def _is_setup_hook(fn):
    for dec in fn.decorator_list:
        t = _type(dec)
        if t is _ast.Call and _type(dec.func) is _ast.Attribute and dec.func.attr == "on_event":
            a = dec.args[0] if dec.args else None
            if _type(a) is _ast.Constant and a.value == "startup":
                return True
        name = dec.id if t is _ast.Name else (dec.attr if t is _ast.Attribute else "")
        if name == "asynccontextmanager" and fn.args.args and (fn.args.args[0].arg == "app" or "lifespan" in fn.name):
            return True
    return False


# string keys of the dict literals in each definition, by function name: dummy
# values of last resort, for code that looks its input up in a table of its own
_dict_keys = {}


# string keys a definition looks up in its **kwargs mapping (`context["ds"]`,
# `opts.get("limit")`), by function name: passed as keyword arguments with dummies
_kw_keys = {}


def _kwarg_keys(fn):
    kw = fn.args.kwarg
    if kw is None:
        return ()
    name = kw.arg
    out = []
    stack = [fn]
    Subscript, Call, Attribute, Name, Constant, AST = _ast.Subscript, _ast.Call, _ast.Attribute, _ast.Name, _ast.Constant, _ast.AST
    while stack and _len(out) < 20:
        n = stack.pop()
        t = _type(n)
        key = None
        if t is Subscript and _type(n.value) is Name and n.value.id == name:
            key = n.slice
        elif (t is Call and _type(n.func) is Attribute and n.func.attr in ("get", "pop", "setdefault")
              and _type(n.func.value) is Name and n.func.value.id == name and n.args):
            key = n.args[0]
        if _type(key) is Constant and _type(key.value) is _str and key.value.isidentifier() and key.value not in out:
            out.append(key.value)
        for fld in n._fields:
            v = _getattr(n, fld, None)
            if _type(v) is _list:
                stack.extend(x for x in v if _isinstance(x, AST))
            elif _isinstance(v, AST):
                stack.append(v)
    return out


def _literal_keys(fn):
    out = []
    stack = [fn]
    Dict, Constant, AST = _ast.Dict, _ast.Constant, _ast.AST
    while stack and _len(out) < 3:
        n = stack.pop(0)
        if _type(n) is Dict:
            for k in n.keys:
                if _type(k) is Constant and _type(k.value) is _str and k.value:
                    out.append(k.value)
                    break
        for fld in n._fields:
            v = _getattr(n, fld, None)
            if _type(v) is _list:
                stack.extend(x for x in v if _isinstance(x, AST))
            elif _isinstance(v, AST):
                stack.append(v)
    return out


def _called(fn):
    """The names a definition calls: plain names and attribute names."""
    out = set()
    stack = [fn]
    Call, Name, Attribute, AST = _ast.Call, _ast.Name, _ast.Attribute, _ast.AST
    while stack:
        n = stack.pop()
        if _type(n) is Call:
            f = n.func
            if _type(f) is Name:
                out.add(f.id)
            elif _type(f) is Attribute:
                out.add(f.attr)
        for fld in n._fields:
            v = _getattr(n, fld, None)
            if _type(v) is _list:
                for x in v:
                    if _isinstance(x, AST):
                        stack.append(x)
            elif _isinstance(v, AST):
                stack.append(v)
    return out


# ---------------------------------------------------------------- dummy arguments
def _dummy(name, ann, cls_hint=None):
    n = (name or "").lower()
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
        return ["test"]
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
        return ["test"]
    if n.endswith("s") and n not in ("address", "status", "news", "class", "alias", "bus", "os", "is", "has",
                                      "symbols_str") and _len(n) > 3:
        return ["test"]
    if "path" in n or "file" in n:
        return _SCRATCH + "/input.txt"
    if n in ("lang", "language", "locale", "source_lang", "target_lang"):
        return "en"
    if "country" in n:
        return "US"
    if n in ("city", "location", "place", "address", "region", "state"):
        return "London"
    if "id" in n:
        return "1"
    return "test"


def _call_with_dummies(fn, skip_first, mode=0):
    """Calls fn with dummy arguments. mode 0 keeps defaults; mode 1 replaces None
    defaults by dummies too; mode 3 is mode 1 with strings taken from the keys of the
    function's own dict literals; mode 4 is mode 1 with numeric strings ("1" for an
    id) as numbers; mode 2 passes permissive stubs for everything. A **kwargs
    parameter gets the keys the function looks up in it."""
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
    if mode == 3:
        if not keys:
            raise _NoMode()

        def dummy(name, ann):
            d = _dummy(name, ann)
            if _type(d) is _str:
                return keys[0]
            if _type(d) is _list and d and _type(d[0]) is _str:
                return [keys[0]]
            return d
    for i, name in enumerate(names):
        if i == 0 and skip_first:
            continue
        if mode == 2:
            args.append(_Any())
        elif i >= first_default and (mode == 0 or defaults[i - first_default] is not None):
            args.append(defaults[i - first_default])
        else:
            args.append(dummy(name, ann.get(name)))
    kw = {}
    for name in kwonly:
        if mode == 2:
            kw[name] = _Any()
        elif name not in kwdefaults or (mode != 0 and kwdefaults[name] is None):
            kw[name] = dummy(name, ann.get(name))
    if code.co_flags & 0x08:  # CO_VARKEYWORDS
        for name in _kw_keys.get(_getattr(sig, "__name__", ""), ()):
            if name not in kw and name not in names:
                kw[name] = _Any() if mode == 2 else dummy(name, None)
    if mode == 4 and not numeric[0]:
        raise _NoMode()
    return fn(*args, **kw) if not skip_first else fn.__func__(fn.__self__, *args, **kw)


# ---------------------------------------------------------------- driving
def _drive(res):
    """Runs a coroutine, async generator or generator the code returned."""
    tn = _type(res).__name__
    if tn == "coroutine":
        return _run_coro(res)
    if tn == "async_generator":
        async def consume():
            i = 0
            async for _ in res:
                i += 1
                if i > 50:
                    break
        return _run_coro(consume())
    if tn == "generator":
        i = 0
        for _ in res:
            i += 1
            if i > 50:
                break
    return res


def _run_coro(coro):
    if "asyncio" in sys.modules or "asyncio" in _CODE:
        import asyncio

        async def _no_sleep(delay=0, result=None):
            return result

        asyncio.sleep = _no_sleep
        return asyncio.run(coro)
    # No event loop needed when nothing awaited suspends: drive it by hand.
    try:
        while True:
            y = coro.send(None)
            if y is not None:
                coro.close()
                import asyncio
                raise RuntimeError("coroutine awaited a real future; needs an event loop")
    except StopIteration as e:
        return e.value


class _Globals(dict):
    """Module globals where an undefined name is a permissive stub, not a NameError."""

    def __missing__(self, k):
        try:
            return _getattr(builtins, k)
        except AttributeError:
            pass
        if k[:2] == "__" and k[-2:] == "__":
            raise KeyError(k)
        # Code that forgot an import: an HTTP client is its recorder, a standard
        # module the real one; anything else a stub.
        if k in _FAKES:
            return _FAKES[k]
        if k in _STDLIB and k[:1] != "_" and k not in _NO_AUTO_IMPORT:
            try:
                __import__(k)
                return sys.modules[k]
            except _BaseException:
                pass
        if _len(_undefined) < 50 and k not in _undefined:
            _undefined.append(k)
        return _Any()


_undefined = []


_NO_AUTO_IMPORT = frozenset(("this", "antigravity", "idlelib", "tkinter", "turtle", "test", "site"))


# ---------------------------------------------------------------- isolation
import builtins  # noqa: E402  (already loaded; bound late to keep the header short)


def _limit(which, v):
    if v > 0:
        try:
            resource.setrlimit(which, (v, v))
        except (ValueError, OSError):
            pass


def _abspath(p):
    try:
        if _type(p) is _bytes:
            p = p.decode("utf-8", "replace")
        elif _type(p) is not _str:
            p = posix.fspath(p)
            if _type(p) is _bytes:
                p = p.decode("utf-8", "replace")
    except _BaseException:
        return None
    if not p.startswith("/"):
        p = posix.getcwd() + "/" + p
    parts = []
    for seg in p.split("/"):
        if seg in ("", "."):
            continue
        if seg == "..":
            if parts:
                parts.pop()
            continue
        parts.append(seg)
    return "/" + "/".join(parts)


_W = posix.O_WRONLY | posix.O_RDWR | posix.O_CREAT | posix.O_TRUNC | posix.O_APPEND
_BLOCK = frozenset((
    "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "os.kill", "os.killpg",
    "subprocess.Popen", "pty.spawn", "socket.connect", "socket.bind", "socket.getaddrinfo",
    "socket.gethostbyname", "socket.sendto", "socket.sendmsg", "ctypes.dlopen", "ctypes.dlsym",
    "ctypes.call_function", "resource.setrlimit", "resource.prlimit", "gc.get_objects", "gc.get_referrers",
    "gc.get_referents", "sys._current_frames", "os.setuid", "os.setgid", "os.chroot", "mmap.__new__",
    "fcntl.ioctl", "os.add_dll_directory", "signal.pthread_kill", "sqlite3.enable_load_extension",
    "sqlite3.load_extension",
))
_PATHS = frozenset(("os.remove", "os.rmdir", "os.rename", "shutil.rmtree", "os.chmod", "os.chown", "os.mkdir",
                    "os.symlink", "os.link", "os.truncate", "os.utime", "shutil.copyfile", "shutil.move",
                    "os.chflags", "os.setxattr", "os.removexattr", "os.mknod", "os.mkfifo"))


# positions of dir_fd arguments in the audit events of path operations
_DIRFD = {"os.remove": (1,), "os.rmdir": (1,), "os.rename": (2, 3), "os.mkdir": (2,), "os.chmod": (2,),
          "os.chown": (3,), "os.symlink": (2,), "os.link": (2, 3), "os.utime": (3,), "shutil.rmtree": (1,),
          "os.mknod": (3,), "os.mkfifo": (2,)}


def _inside(p):
    a = _abspath(p)
    return a is not None and (a == _SCR or a.startswith(_SCR + "/"))


def _audit(event, args):
    if event == "open":
        path, mode, flags = args[0], args[1], args[2]
        if _type(path) is _int:
            return
        write = (mode is not None and any(c in mode for c in "wax+")) or (mode is None and _type(flags) is _int and flags & _W)
        a = _abspath(path)
        if a is None:
            raise PermissionError("sandbox: unreadable path")
        if write and not (a == _SCR or a.startswith(_SCR + "/") or a == "/dev/null"):
            raise PermissionError("sandbox: write outside the scratch directory: " + a)
        if a.startswith("/proc/") and not a.startswith("/proc/self/") or a.endswith("/environ"):
            raise PermissionError("sandbox: no access to " + a)
        return
    if event == "import":
        m = args[0] if args and _type(args[0]) is _str else ""
        if m in ("_ctypes", "ctypes") or m.startswith("ctypes."):
            # a foreign function built from a raw address is called without any
            # audit event: ctypes would undo every guard here
            raise PermissionError("sandbox: ctypes is not allowed")
        return
    if event == "socket.__new__":
        if _len(args) > 1 and args[1] == 1:  # AF_UNIX: asyncio's self-pipe (connect and bind stay blocked)
            return
        raise PermissionError("sandbox: sockets are not allowed")
    if event == "sqlite3.connect":
        db = args[0] if args else ""
        if _type(db) is _str and (db == ":memory:" or db == "" or db.startswith("file::memory:")):
            return
        if _type(db) is _str and db.startswith("file:"):
            raise PermissionError("sandbox: sqlite3 URIs are not allowed")
        if not _inside(db):
            raise PermissionError("sandbox: sqlite3 database outside the scratch directory")
        return
    if event in _BLOCK:
        raise PermissionError("sandbox: %s is not allowed" % event)
    if event in _PATHS:
        for i in _DIRFD.get(event, ()):
            if i < _len(args) and args[i] is not None and args[i] != -1:  # -1: no dir_fd
                raise PermissionError("sandbox: %s relative to a directory descriptor is not allowed" % event)
        for p in args[:2]:
            if _type(p) in (_str, _bytes) and not _inside(p):
                raise PermissionError("sandbox: %s outside the scratch directory" % event)


def _prepare_stdlib():
    """Before the hook: the dummy input file a path argument names, and permissive
    edges of the standard modules the code uses."""
    cols = _sub_keys or ["test"]
    fd = posix.open(_SCRATCH + "/input.txt", posix.O_WRONLY | posix.O_CREAT | posix.O_TRUNC, 0o600)
    posix.write(fd, (",".join(cols) + "\n" + ",".join("test" for _ in cols) + "\n").encode())
    posix.close(fd)
    if "dump" in _CODE:  # json.dumps / json.dump: only then is json worth importing here
        import json
        orig = json.JSONEncoder.default

        def default(self, o):  # a stub in a JSON body serializes as a string
            if _isinstance(o, _Any):
                return _str(o)
            return orig(self, o)
        json.JSONEncoder.default = default
    if "sqlite3" in _CODE:
        import sqlite3
        real = sqlite3.connect

        def connect(database, *a, **k):
            # a database the code cannot open (outside the scratch directory, or a
            # directory that is not there) is a permissive stub, as a missing module is
            try:
                return real(database, *a, **k)
            except (sqlite3.Error, PermissionError):
                return _Any()
        sqlite3.connect = connect


def _main():
    global _ast
    import _ast
    try:
        tree = compile(_CODE, "<generation>", "exec", 0x400, dont_inherit=True)
    except _BaseException as e:
        _send("facts", {"syntax": False, "error": _type(e).__name__ + ": " + _safe(e)})
        _send("end", {"status": "error", "error": "syntax"})
        _exit(0)
    facts = _facts(tree)
    _send("facts", facts)

    sys.meta_path.insert(0, _FakeFinder)
    sys.meta_path.append(_StubFinder)
    import os
    import time
    time.sleep = lambda *a, **k: None
    builtins.input = lambda *a, **k: "test"

    class _Env(dict):
        def __missing__(self, k):
            return "test-value"

        def get(self, k, d=None):
            # a missing variable with no useful default reads as set: the code's
            # "is the key configured?" check passes and the request is built
            return dict.get(self, k, d if d else "test-value")

    env = _Env(os.environ)
    env.setdefault("HOME", _SCRATCH)
    os.environ = env
    os.getenv = lambda k, d=None: env.get(k, d)
    sys.modules.setdefault("sccg_user", _module("sccg_user", {}, package=True))
    sys.argv = ["main.py"]
    sys.stdin = None

    _limit(resource.RLIMIT_CPU, _CPU)
    _limit(resource.RLIMIT_AS, _AS)
    _limit(resource.RLIMIT_FSIZE, _FSIZE)
    _limit(resource.RLIMIT_NOFILE, _NOFILE)
    _limit(resource.RLIMIT_NPROC, _NPROC)
    _limit(resource.RLIMIT_CORE, 0)
    _signal.signal(_signal.SIGXFSZ, _signal.SIG_IGN)
    # The "open" audit event does not carry dir_fd: refuse it at the function.
    real_open = posix.open

    def safe_open(path, flags, mode=0o777, *, dir_fd=None):
        if dir_fd is not None:
            raise PermissionError("sandbox: open relative to a directory descriptor is not allowed")
        return real_open(path, flags, mode)

    posix.open = os.open = safe_open
    _prepare_stdlib()
    sys.addaudithook(_audit)

    g = _Globals({"__name__": "sccg_user.main", "__package__": "sccg_user", "__builtins__": builtins,
                  "__file__": _SCRATCH + "/main.py"})
    errors = []
    Module = _ast.Module

    def note(where, e):
        if _isinstance(e, MemoryError):
            _send("end", {"status": "oom", "error": where + ": MemoryError"})
            _exit(0)
        if _len(errors) < 20:
            errors.append(where + ": " + _type(e).__name__ + ": " + _safe(e)[:300])

    enough = False
    for node in tree.body:
        try:
            exec(compile(Module(body=[node], type_ignores=[]), "<generation>", "exec", dont_inherit=True), g)
        except _Enough:
            enough = True
            break
        except _BaseException as e:
            note("line %d" % _getattr(node, "lineno", 0), e)
    if "http" in sys.modules and "http.client" not in sys.modules:
        # `import http` alone: the real http.client would have been loaded by now
        sys.modules["http.client"] = _FAKES["http.client"]
        sys.modules["http"].client = _FAKES["http.client"]

    def _attempts(fn, bound):
        """Calls fn; when a call sends nothing, tries again with other dummies."""
        first = None
        for mode in (0, 1, 3, 4, 2):
            before = _nreq[0]
            try:
                _drive(_call_with_dummies(fn, bound, mode))
            except (_NoMode, _Enough):
                if _nreq[0] >= _MAXREQ:
                    raise _Enough()
                continue
            except _BaseException as e:
                if _isinstance(e, MemoryError):
                    raise
                if first is None:
                    first = e
            if _nreq[0] > before:
                return
        if first is not None:
            raise first

    targets = []
    defs = facts["defs"]
    want = _FUNC.strip()
    chosen = [d for d in defs if d == want or d.endswith("." + want)] if want else []
    for d in (chosen or facts["reach"])[:40]:
        if not enough:
            targets.append(d)
    for d in _setup_hooks:
        # what the application does before it serves (fill a dict of clients) is
        # done before the target runs; a hook that fails is no fault of the target
        if enough or d in targets:
            continue
        try:
            cm = _call_with_dummies(g.get(d), False)
            if _getattr(_type(cm), "__aenter__", None) is not None:
                async def enter(cm=cm):
                    return await cm.__aenter__()
                _drive(enter())
            else:
                _drive(cm)
        except _Enough:
            enough = True
        except _BaseException:
            pass
    called = 0
    instances = {}
    for d in targets:
        try:
            if "." in d:
                cname, mname = d.split(".", 1)
                cls = g.get(cname)
                if not _isinstance(cls, _type):
                    continue
                if cname not in instances:
                    if "__getattr__" not in cls.__dict__:
                        try:
                            cls.__getattr__ = lambda self, n: _Any() if n[:2] != "__" else (_ for _ in ()).throw(AttributeError(n))
                        except _BaseException:
                            pass
                    try:
                        init = cls.__init__
                        if _getattr(init, "__code__", None) is not None:
                            inst = cls.__new__(cls)
                            _drive(_call_with_dummies(init.__get__(inst, cls), True))
                        else:
                            inst = cls()
                    except _BaseException as e:
                        note(cname + ".__init__", e)
                        try:
                            inst = object.__new__(cls)
                        except _BaseException:
                            inst = None
                    instances[cname] = inst
                inst = instances[cname]
                raw = cls.__dict__.get(mname)
                if _isinstance(raw, staticmethod):
                    fn, bound = raw.__func__, False
                elif _isinstance(raw, classmethod):
                    fn, bound = raw.__func__.__get__(cls, _type(cls)), True
                elif inst is not None:
                    fn, bound = _getattr(inst, mname), True
                else:
                    continue
                if _type(fn).__name__ == "method" and not bound:
                    bound = True
                called += 1
                _attempts(fn, bound)
            else:
                fn = g.get(d)
                if fn is None or not callable(fn):
                    continue
                called += 1
                _attempts(fn, _type(fn).__name__ == "method")
        except _Enough:
            break
        except _BaseException as e:
            note(d, e)
        if _nreq[0] >= _MAXREQ:
            break

    out = {"status": "error" if errors else "ok", "called": called, "stubbed": _stubbed[:50], "undefined": _undefined}
    if errors:
        out["error"] = errors[0]
        out["errors"] = errors
    _send("end", out)
    for f in (sys.__stdout__, sys.__stderr__):  # what the code printed, for diagnostics
        try:
            f.flush()
        except _BaseException:
            pass
    _exit(0)


def _run():
    try:
        _main()
    except MemoryError:
        _send("end", {"status": "oom", "error": "MemoryError"})
    except _BaseException as e:
        _send("end", {"status": "error", "error": "harness: " + _type(e).__name__ + ": " + _safe(e)})
    _exit(0)


# Modules a warm server imports before it forks: the harness's own needs and what
# generated code imports most. It never runs generated code itself.
_WARM = ("_ast", "os", "json", "re", "time", "datetime", "typing", "collections", "urllib", "urllib.parse",
         "base64", "hashlib", "random", "math", "logging", "dataclasses", "pathlib", "enum", "functools",
         "string", "uuid", "csv", "io", "traceback", "argparse", "copy", "http", "email.utils")


# Namespaces each forked child unshares before it reads its job: user (so no
# privilege is needed, and none is kept), network (no interface but a loopback that
# is down: nothing to reach, not even a sibling), IPC and UTS. Not mount (a copy of
# the same tree isolates nothing; the audit hook guards writes) and not PID (it
# would only apply to the child's own children, and process creation is blocked).
_CLONE_NEWUSER, _CLONE_NEWNET, _CLONE_NEWIPC, _CLONE_NEWUTS = 0x10000000, 0x40000000, 0x08000000, 0x04000000
_NS_FLAGS = _CLONE_NEWUSER | _CLONE_NEWNET | _CLONE_NEWIPC | _CLONE_NEWUTS
# Addresses of libc's unshare and capset, looked up once by the server. Only the
# _ctypes extension is loaded for it (and dropped from sys.modules in each child,
# so the audit hook refuses to import it again), never the ctypes package, whose
# ready-made helpers (memmove, string_at) reach memory without an audit event.
_UNSHARE = _CAPSET = 0


def _isolate():
    """Moves this (single-threaded, freshly forked) process into new user, network,
    IPC and UTS namespaces, maps its own uid and gid, and drops every capability.
    Runs before the audit hook is armed and before any generated code; raises on
    any failure, so a child never runs code without the isolation reported."""
    import _ctypes
    uid, gid = posix.getuid(), posix.getgid()
    if _ctypes.call_function(_UNSHARE, (_NS_FLAGS,)) != 0:
        raise OSError("unshare(user, net, ipc, uts) refused")
    for name, text in (("setgroups", "deny"), ("uid_map", "%d %d 1" % (uid, uid)), ("gid_map", "%d %d 1" % (gid, gid))):
        fd = posix.open("/proc/self/" + name, posix.O_WRONLY)
        try:
            posix.write(fd, text.encode())
        finally:
            posix.close(fd)
    # capset(2): a version-3 header for this process, then all sets empty
    hdr = (0x20080522).to_bytes(4, sys.byteorder) + _bytes(4)
    if _ctypes.call_function(_CAPSET, (hdr, _bytes(24))) != 0:
        raise OSError("capset refused")


def _probe_isolation():
    """Forks a child that isolates itself and exits: "" when that works, else why not."""
    global _UNSHARE, _CAPSET
    try:
        import _ctypes
        h = _ctypes.dlopen(None, 2)
        _UNSHARE, _CAPSET = _ctypes.dlsym(h, "unshare"), _ctypes.dlsym(h, "capset")
    except _BaseException as e:
        return "no libc unshare: " + _safe(e)
    r, w = posix.pipe()
    pid = posix.fork()
    if pid == 0:
        posix.close(r)
        try:
            _isolate()
            posix.write(w, b"ok")
        except _BaseException as e:
            posix.write(w, _safe(e).encode("utf-8", "replace")[:200])
        _exit(0)
    posix.close(w)
    got = posix.read(r, 256).decode("utf-8", "replace")
    posix.close(r)
    posix.waitpid(pid, 0)
    return "" if got == "ok" else (got or "probe child died")


def _serve(ctrl, want_ns):
    """Fork server: for each job message on the control socket (scratch, limits and
    the report pipe's descriptor), fork a child that runs the job, report its pid,
    wait for it and report its wait status. It never runs generated code itself;
    with want_ns each child gets fresh namespaces (see _isolate) before its job."""
    for m in _WARM:
        try:
            __import__(m)
        except ImportError:
            pass
    import socket
    import os
    per_child = False
    if want_ns:
        why = _probe_isolation()
        per_child = not why
    sock = socket.socket(fileno=ctrl)
    if per_child:
        sock.send(b"ready ns")
    elif want_ns:
        sock.send(("ready nons " + why).encode("utf-8", "replace")[:250])
    else:
        sock.send(b"ready off")
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(sock, 65536, 4)
        except OSError:
            _exit(0)
        if not msg:
            _exit(0)
        fields = msg.decode("utf-8", "replace").split("\t")
        if _len(fields) != 6 or not fds:
            for f in fds:
                posix.close(f)
            sock.send(b"error bad message")
            continue
        scratch, limits, rfd = fields[0], fields[1:6], fds[0]
        for f in fds[1:]:
            posix.close(f)
        pid = posix.fork()
        if pid == 0:
            try:
                posix.close(ctrl)
                posix.setpgid(0, 0)
                if per_child:
                    try:
                        _isolate()
                    except _BaseException:
                        _exit(71)  # no job runs without the isolation reported
                    # as in an exec'd run, importing ctypes must reach the audit hook
                    sys.modules.pop("_ctypes", None)
                posix.chdir(scratch)
                _setup(rfd, scratch, limits, _read_job(scratch))
                _run()
            finally:
                _exit(70)
        try:
            posix.setpgid(pid, pid)
        except OSError:
            pass
        posix.close(rfd)
        sock.send(b"pid %d" % pid)
        _, status = posix.waitpid(pid, 0)
        sock.send(b"status %d" % status)


def _read_job(scratch):
    """Reads the job the Go side left in the scratch directory, and removes it so the
    code cannot read the report nonce."""
    jf = scratch + "/job.txt"
    fd = posix.open(jf, posix.O_RDONLY)
    chunks = []
    while True:
        b = posix.read(fd, 1 << 20)
        if not b:
            break
        chunks.append(b)
    posix.close(fd)
    posix.unlink(jf)
    return b"".join(chunks).decode("utf-8", "replace")

