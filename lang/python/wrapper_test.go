package python

import (
	"context"
	"testing"
)

// TestPathFrom checks which requests take their whole path, or whole URL, from a
// parameter of the function the facts are about.
func TestPathFrom(t *testing.T) {
	src := `import requests
import http.client
from urllib.parse import urljoin, urlencode
base_url = "https://chat.example.test/api/v10"
H = {"Authorization": "Bot x"}
API = "https://api.codehost.test"
USERS = "https://api.codehost.test/users/"


def getJson(url):
    return requests.get(base_url + url, headers=H).json()


def get_me():
    return getJson("/users/@me")


def pass_on(path):
    return getJson(path)


def get_connection(uri):
    return requests.get(uri)


def segment(endpoint):
    full = f"{base_url}/{endpoint}"
    return requests.get(full)


def commits(repository):
    return requests.get(f"{API}/repos/{repository}/commits").json()


def user(uid):
    return requests.get(USERS + uid)


def user_f(uid):
    return requests.get(f"{API}/users/{uid}")


def joined(path):
    return requests.get(urljoin(API, path))


def search(q):
    return requests.get("https://api.codehost.test/search?q=" + q)


def two(owner, repo):
    return requests.get(f"{API}/{owner}/{repo}")


def with_default(url="https://api.codehost.test/meta"):
    return requests.get(url)


def raw(path):
    conn = http.client.HTTPSConnection("api.codehost.test")
    conn.request("GET", path)
    return conn.getresponse()


def with_query(path, **params):
    url = API + path
    if params:
        url += "?" + urlencode(params)
    return requests.get(url)


def grown(path):
    url = API
    url += path
    return requests.get(url)


def formatted(endpoint):
    return requests.get("{}{}".format(API, endpoint))


def formatted_named(endpoint):
    return requests.get("{base}/{ep}".format(base=API, ep=endpoint))


def formatted_item(uid):
    return requests.get("{}/users/{}".format(API, uid))


class Hub:
    def __init__(self):
        self._host = "api.codehost.test/"
        self._user_url = "users/%s"

    def _build_url(self, target):
        return "https://%s%s" % (self._host, target)

    def _fetch(self, url, params=None):
        url = self._build_url(url)
        return requests.get(url, params=params)

    def user(self, name):
        return self._fetch(self._user_url % name)


def percent(path):
    return requests.get("%s%s" % (API, path))


class Client:
    def __init__(self):
        self.base = "https://api.codehost.test"

    def _get(self, path, **kw):
        return requests.get(self.base + path, **kw)

    def repo(self, owner, name):
        return self._get(f"/repos/{owner}/{name}")
`
	want := map[string]string{
		"getJson": "url", "get_me": "", "pass_on": "path", "get_connection": "uri", "segment": "endpoint",
		"commits": "", "user": "", "user_f": "", "joined": "path", "search": "", "two": "", "with_default": "",
		"raw": "path", "Client._get": "path", "Client.repo": "",
		"Hub._fetch": "url", "Hub.user": "", "percent": "path",
		"with_query": "path", "grown": "path", "formatted": "endpoint", "formatted_named": "endpoint", "formatted_item": "",
	}
	res, err := Extract(context.Background(), []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range res.Functions {
		w, ok := want[f.QualName]
		if !ok {
			continue
		}
		seen[f.QualName] = true
		if len(f.Facts.Calls) != 1 {
			t.Errorf("%s: %d calls", f.QualName, len(f.Facts.Calls))
			continue
		}
		if got := f.Facts.Calls[0].PathFrom; got != w {
			t.Errorf("%s (URL %q): PathFrom = %q, want %q", f.QualName, f.Facts.Calls[0].URL, got, w)
		}
	}
	for q := range want {
		if !seen[q] {
			t.Errorf("%s was not extracted", q)
		}
	}
}
