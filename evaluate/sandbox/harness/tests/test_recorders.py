"""Tests of the recorders: each HTTP library's ways of sending a request are
recorded as the request they would have sent."""
from ..capture import _AResp, _Resp
from ..recorders import _FAKES
from ..values import _Any
from .support import drive, HarnessTest

requests = _FAKES["requests"]
httpx = _FAKES["httpx"]
aiohttp = _FAKES["aiohttp"]
urllib_request = _FAKES["urllib.request"]
http_client = _FAKES["http.client"]
urllib3 = _FAKES["urllib3"]


class RequestsTest(HarnessTest):
    def test_functions(self):
        tests = [
            ("get", lambda: requests.get("https://r/x", params={"q": 1}),
             {"method": "GET", "params": ["q"], "param_values": [["q", "1"]]}),
            ("post json", lambda: requests.post("https://r/x", json={"t": 1}), {"method": "POST", "json": ["t"]}),
            ("post data", lambda: requests.post("https://r/x", data={"f": 1}), {"method": "POST", "data": ["f"]}),
            ("put", lambda: requests.put("https://r/x", data="raw"), {"method": "PUT", "data": "raw"}),
            ("patch", lambda: requests.patch("https://r/x"), {"method": "PATCH"}),
            ("delete", lambda: requests.delete("https://r/x"), {"method": "DELETE"}),
            ("head", lambda: requests.head("https://r/x"), {"method": "HEAD"}),
            ("options", lambda: requests.options("https://r/x"), {"method": "OPTIONS"}),
            ("request", lambda: requests.request("get", "https://r/x", headers={"A": "b"}),
             {"method": "GET", "headers": {"A": "b"}}),
        ]
        for name, call, want in tests:
            with self.subTest(name):
                resp = call()
                self.assertIsInstance(resp, _Resp)
                self.assertEqual(self.requests(), [dict({"lib": "requests", "url": "https://r/x"}, **want)])

    def test_session_merges_its_defaults(self):
        with requests.Session() as s:
            s.headers.update({"X-RapidAPI-Key": "k", "A": "1"})
            s.params = {"lang": "en"}
            s.mount("https://", requests.adapters.HTTPAdapter(max_retries=3))
            s.get("https://r/x", headers={"B": "2"}, params={"q": "x"})
        self.assertEqual(self.requests(), [{"lib": "requests", "method": "GET", "url": "https://r/x",
                                            "params": ["lang", "q"], "param_values": [["lang", "en"], ["q", "x"]],
                                            "headers": {"X-RapidAPI-Key": "<redacted>", "A": "1", "B": "2"}}])

    def test_prepared_request(self):
        req = requests.Request("PUT", "https://r/x", json={"a": 1}, params={"p": 1}).prepare()
        requests.Session().send(req)
        self.assertEqual(self.requests(), [{"lib": "requests", "method": "PUT", "url": "https://r/x",
                                            "params": ["p"], "param_values": [["p", "1"]], "json": ["a"]}])

    def test_exceptions(self):
        exc = requests.exceptions
        self.assertTrue(issubclass(exc.ConnectTimeout, exc.ConnectionError))
        self.assertTrue(issubclass(exc.ConnectTimeout, exc.Timeout))
        self.assertTrue(issubclass(exc.HTTPError, exc.RequestException))
        self.assertTrue(issubclass(exc.RequestException, IOError))
        self.assertIs(requests.HTTPError, exc.HTTPError)
        e = exc.HTTPError("boom")
        self.assertEqual(str(e), "boom")
        self.assertEqual(e.response.status_code, 200)
        self.assertEqual(requests.codes.ok, 200)
        self.assertEqual(requests.codes["ok"], "test")

    def test_submodules(self):
        self.assertIs(requests.sessions.Session, requests.Session)
        self.assertIs(requests.models.Response, _Resp)
        self.assertEqual(requests.__path__, [])
        self.assertIsInstance(requests.utils, _Any)  # what is not faked is a stub


class HttpxTest(HarnessTest):
    def test_client(self):
        with httpx.Client(base_url="https://h.example.com", headers={"A": "1"}, params={"k": 1}) as c:
            r = c.get("/v1/x", params={"q": 2})
            c.post("/v1/y", content=b"body")
        self.assertIsInstance(r, _Resp)
        self.assertEqual(self.requests(), [
            {"lib": "httpx", "method": "GET", "url": "https://h.example.com/v1/x", "params": ["k", "q"],
             "param_values": [["k", "1"], ["q", "2"]], "headers": {"A": "1"}},
            {"lib": "httpx", "method": "POST", "url": "https://h.example.com/v1/y", "params": ["k"],
             "param_values": [["k", "1"]], "headers": {"A": "1"},
             "data": "body"},
        ])

    def test_async_client(self):
        async def go():
            async with httpx.AsyncClient(base_url="https://h.example.com") as c:
                r = await c.put("/x", json={"a": 1})
                return await r.json()

        drive(go())
        self.assertEqual(self.requests(), [{"lib": "httpx", "method": "PUT", "url": "https://h.example.com/x", "json": ["a"]}])

    def test_functions_and_exceptions(self):
        httpx.delete("https://h/x")
        self.assertEqual(self.requests(), [{"lib": "httpx", "method": "DELETE", "url": "https://h/x"}])
        self.assertTrue(issubclass(httpx.ReadTimeout, httpx.TimeoutException))
        self.assertTrue(issubclass(httpx.ConnectError, httpx.TransportError))
        self.assertTrue(issubclass(httpx.TransportError, httpx.RequestError))
        self.assertTrue(issubclass(httpx.HTTPStatusError, httpx.HTTPError))


class AiohttpTest(HarnessTest):
    def test_session(self):
        async def go():
            async with aiohttp.ClientSession("https://a.example.com", headers={"A": "1"}) as s:
                async with s.post("/v1/x", data={"q": 1}) as resp:
                    body = await resp.json()
                resp2 = await s.get("/v1/y", params={"p": 1})
                return body, resp2

        body, resp2 = drive(go())
        self.assertIsInstance(resp2, _AResp)
        self.assertEqual(self.requests(), [
            {"lib": "aiohttp", "method": "POST", "url": "https://a.example.com/v1/x", "headers": {"A": "1"}, "data": ["q"]},
            {"lib": "aiohttp", "method": "GET", "url": "https://a.example.com/v1/y", "params": ["p"],
             "param_values": [["p", "1"]], "headers": {"A": "1"}},
        ])

    def test_exceptions(self):
        self.assertTrue(issubclass(aiohttp.ClientConnectorError, aiohttp.ClientError))
        e = aiohttp.ClientResponseError(status=404)
        self.assertEqual(e.status, 404)


class UrllibTest(HarnessTest):
    def test_urlopen(self):
        urllib_request.urlopen("https://u/x")
        urllib_request.urlopen("https://u/y", data=b"a=1")
        req = urllib_request.Request("https://u/z", headers={"A": "1"}, method="PUT")
        req.add_header("B", "2")
        with urllib_request.urlopen(req) as r:
            self.assertEqual(r.read(), b"{}")
        urllib_request.build_opener().open(urllib_request.Request("https://u/w", data=b"d"))
        self.assertEqual(self.requests(), [
            {"lib": "urllib", "method": "GET", "url": "https://u/x"},
            {"lib": "urllib", "method": "POST", "url": "https://u/y", "data": "a=1"},
            {"lib": "urllib", "method": "PUT", "url": "https://u/z", "headers": {"A": "1", "B": "2"}},
            {"lib": "urllib", "method": "POST", "url": "https://u/w", "data": "d"},
        ])
        self.assertEqual(urllib_request.Request("https://u/").get_method(), "GET")


class HttpClientTest(HarnessTest):
    def test_connections(self):
        c = http_client.HTTPSConnection("c.example.com", 8443)
        c.request("GET", "/p?q=1", headers={"A": "1"})
        self.assertEqual(c.getresponse().status, 200)
        http_client.HTTPConnection("c.example.com").request("POST", "/x", body="{}")
        http_client.HTTPSConnection("c.example.com").request("GET", "https://other.example.com/full")
        self.assertEqual(self.requests(), [
            {"lib": "http.client", "method": "GET", "url": "https://c.example.com:8443/p?q=1", "headers": {"A": "1"}},
            {"lib": "http.client", "method": "POST", "url": "http://c.example.com/x", "data": "{}"},
            {"lib": "http.client", "method": "GET", "url": "https://other.example.com/full"},
        ])


class Urllib3Test(HarnessTest):
    def test_pool_manager(self):
        h = urllib3.PoolManager(headers={"A": "1"})
        h.request("GET", "https://p/g", fields={"a": 1})
        h.request("POST", "https://p/p", fields={"b": 2})
        h.request("POST", "https://p/b", body=b"raw", fields={"ignored": 1})
        self.assertEqual(self.requests(), [
            {"lib": "urllib3", "method": "GET", "url": "https://p/g", "params": ["a"],
             "param_values": [["a", "1"]], "headers": {"A": "1"}},
            {"lib": "urllib3", "method": "POST", "url": "https://p/p", "headers": {"A": "1"}, "data": ["b"]},
            {"lib": "urllib3", "method": "POST", "url": "https://p/b", "headers": {"A": "1"}, "data": "raw"},
        ])
