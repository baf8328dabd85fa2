"""Recorders in place of the HTTP client libraries: fake requests, httpx, aiohttp,
urllib.request, http.client and urllib3 modules whose every way of sending a
request records it (capture._record) and returns a fake response instead. _FAKES
maps each module name to its fake; the import hooks (stubs) serve them."""
from .capture import _AResp, _Headers, _merge, _record, _Resp
from .report import _safe
from .values import _ADict, _Any, _Lenient, _module

_type, _isinstance, _getattr = type, isinstance, getattr
_dict = dict


def _errors():
    """The exceptions of requests, by name, under RequestException."""
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
