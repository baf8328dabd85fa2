package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sccg/release"
)

// publishedDocs are the synthetic descriptions of crawl's tests, one per shape
// descriptions are published in.
var publishedDocs = filepath.Join("..", "..", "crawl", "testdata", "describe")

// callers are Python functions calling an endpoint of each shape: a route whose
// host comes from path-level servers, from the second of an operation's servers,
// from server variables, a 3.1 description, Swagger 2, a description with bad
// examples, one with typos, one whose parameters are $refs to sibling files, and a
// Swagger host written as a URL.
var callers = map[string]string{
	"archive.py": `import requests


def weather_history(day):
    """Fetch the weather history of one day."""
    resp = requests.get("https://archive-api.skyline-weather.test/v1/archive", params={"start_date": day})
    resp.raise_for_status()
    return resp.json()
`,
	"marine.py": `import requests


def marine_forecast_eu():
    """Get the marine forecast from the European server."""
    r = requests.get("https://marine-eu.skyline-weather.test/v1/marine", timeout=10)
    return r.json()["waves"]
`,
	"tides.py": `import requests


def station_tides(station):
    """List the tides at a tide station."""
    url = f"https://eu.tidewatch.test/api/v2/stations/{station}/tides"
    return requests.get(url).json()
`,
	"pokedex.py": `import requests


def creature(name):
    """Look a creature up by name."""
    data = requests.get("https://pokedex.example-games.test/api/v2/pokemon/" + name).json()
    return data.get("id")
`,
	"coins.py": `import requests


def create_alert(symbol, above):
    """Create a price alert for a coin."""
    response = requests.post("https://api.coin-ticker.test/v1/alerts", data={"symbol": symbol, "above": above})
    if response.status_code != 201:
        raise RuntimeError(response.text)
    return response.json()
`,
	"anime.py": `import requests


def search_anime(query, page=1):
    """Search the anime index."""
    hits = requests.get("https://api.anime-index.test/v4/anime", params={"q": query, "page": page}).json()
    return [h["title"] for h in hits.get("data", [])]
`,
	"charts.py": `import requests


def top_tracks(limit=10):
    """Top tracks of the chart."""
    out = requests.get("https://api.chart-tracks.test/tracks", params={"limit": limit})
    return out.json()["tracks"]
`,
	"skycast.py": `import requests


def conditions(city):
    """Current conditions in a city."""
    return requests.get("https://api.skycast.test/v1/now", params={"city": city}).json()["summary"]
`,
	"parcels.py": `import requests


def track(number):
    """Where is my parcel?"""
    res = requests.get(f"https://track.parcelpost.test/api/v2/parcels/{number}")
    res.raise_for_status()
    return res.json()["status"]
`,
}

// gitRepo writes files into a committed git repository at dir.
func gitRepo(t *testing.T, dir, remote string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"remote", "add", "origin", remote}, {"add", "."}, {"commit", "-q", "-m", "calls"}} {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2025-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2025-01-01T00:00:00Z", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// Descriptions as they are published import end to end: every shape is read, its
// warnings are recorded and shown, the files with no usable endpoint are named
// with their reason on stderr, and a function calling each shape becomes a
// sample aligned to the right host and route.
func TestBuildPublishedDescriptions(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end build skipped in -short mode")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	repos := filepath.Join(t.TempDir(), "repos")
	gitRepo(t, filepath.Join(repos, "calls"), "https://github.com/dana/calls.git", callers)
	e, _, errb := newTestEnv(t)
	dir := t.TempDir()
	importTestRun(t, e, 0, "build", "--docs", publishedDocs, "--local", repos, "--out", dir, "--seed", "2",
		"--per-repo", "-1", "--per-api", "-1", "--threshold", "1")
	stderr := errb.String()
	for _, want := range []string{
		// rejections first, with what to add
		"crawl rejected 2 files: no_host", "relative-server.yaml says nowhere which host", "--base-url",
		"crawl rejected 1 file: no_endpoints", "only-webhooks.yaml has no operations",
		"crawl rejected 7 files: not_a_description", "catalog/README.md",
		// warnings by reason, naming the API and the file
		"crawl warning 3 apis: type_repaired", "crawl warning 3 apis: number_as_string_repaired", "crawl warning 1 api: example_mismatch_ignored",
		"crawl warning 1 api: webhooks_ignored", "crawl warning 1 api: host_repaired", "crawl warning 1 api: external_ref_dropped",
		"chart-tracks: typos.yaml line 15 /paths/~1tracks/get/parameters/0/schema/maximum: maximum: \"50\" is a string",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if i, j := strings.Index(stderr, "crawl rejected"), strings.Index(stderr, "[2/9] mine"); i < 0 || j < 0 || i > j {
		t.Errorf("crawl's rejections are not shown before mining starts:\n%s", stderr)
	}
	recs, err := release.ReadFile(filepath.Join(dir, "sccgbench.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		got = append(got, r.APIMetadata.Method+" "+r.APIHost+" "+r.APIMetadata.Route)
	}
	slices.Sort(got)
	want := []string{
		"GET api.anime-index.test /v4/anime",
		"GET api.chart-tracks.test /tracks",
		"GET api.skycast.test /v1/now",
		"GET archive-api.skyline-weather.test /v1/archive",
		"GET eu.tidewatch.test /api/v2/stations/{id}/tides",
		"GET marine-eu.skyline-weather.test /v1/marine",
		"GET pokedex.example-games.test /api/v2/pokemon/{name}",
		"GET track.parcelpost.test /api/v2/parcels/{number}",
		"POST api.coin-ticker.test /v1/alerts",
	}
	if !slices.Equal(got, want) {
		t.Errorf("samples aligned to\n%q\nwant\n%q", got, want)
	}
}
