package jsast

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"sccg/lang"
)

// extractOne extracts src in dialect d and returns its functions by qualname.
func extractOne(t *testing.T, d lang.Dialect, src string) map[string]lang.Function {
	t.Helper()
	res, err := Extract(context.Background(), []byte(src), Options{Dialect: d})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]lang.Function{}
	for _, f := range res.Functions {
		out[f.QualName] = f
	}
	return out
}

// callLine renders what alignment reads of a call, on one line.
func callLine(c lang.Call) string {
	var ps []string
	for _, p := range c.Params {
		s := p.Location + ":" + p.Name
		if p.Literal {
			s += "=" + p.Example
		}
		ps = append(ps, s)
	}
	s := fmt.Sprintf("%s %s %s host=%s path=%s params=[%s]", c.Library, c.Method, c.URL, c.Host, c.Path, strings.Join(ps, " "))
	if c.Callback != "" {
		s += " in=" + c.Callback
	}
	if c.InHelper != "" {
		s += " via=" + strings.Join(c.Via, ">")
	}
	if c.HasRapidAPIKey || c.HasRapidAPIHost {
		s += fmt.Sprintf(" rapidapi=%v/%v", c.HasRapidAPIHost, c.HasRapidAPIKey)
	}
	return s
}

func TestExtractForms(t *testing.T) {
	for _, tc := range []struct {
		name    string
		d       lang.Dialect
		src     string
		want    map[string][]string // qualname → calls
		rejects map[string]string   // qualname → reason
	}{
		{
			name: "fetch with template literal and options",
			src: `const BASE = "https://api.example.com";
async function getUser(id) {
  const res = await fetch(` + "`${BASE}/users/${id}?full=1`" + `, { method: "post", headers: { "X-Api-Key": KEY }, body: JSON.stringify({ name: "a", age }) });
  return res.json();
}`,
			want: map[string][]string{"getUser": {"fetch POST https://api.example.com/users/{id}?full=1 host=api.example.com path=/users/{id} params=[path:id query:full=1 json:name=a json:age header:X-Api-Key]"}},
		},
		{
			name: "window.fetch and concatenation",
			src:  "function load(q) { return window.fetch('https://x.example.com/search?q=' + q).then(r => r.json()); }",
			want: map[string][]string{"load": {"fetch GET https://x.example.com/search?q={q} host=x.example.com path=/search params=[query:q]"}},
		},
		{
			name: "axios verbs, config and url+config",
			src: `import axios from "axios";
export const a = (id) => axios.get("https://api.example.com/items/" + id, { params: { lang: "en" } });
export function b(data) { return axios.post("https://api.example.com/items", { title: data.t, n: 1 }); }
export async function c() { return axios({ method: "delete", url: "https://api.example.com/items/1" }); }
export async function d() { return axios.request({ url: "https://api.example.com/x", params: { q: "s" } }); }
export async function e() { return axios("https://api.example.com/y", { method: "PUT" }); }`,
			want: map[string][]string{
				"a": {"axios GET https://api.example.com/items/{id} host=api.example.com path=/items/{id} params=[path:id query:lang=en]"},
				"b": {"axios POST https://api.example.com/items host=api.example.com path=/items params=[json:title json:n=1]"},
				"c": {"axios DELETE https://api.example.com/items/1 host=api.example.com path=/items/1 params=[]"},
				"d": {"axios GET https://api.example.com/x host=api.example.com path=/x params=[query:q=s]"},
				"e": {"axios PUT https://api.example.com/y host=api.example.com path=/y params=[]"},
			},
		},
		{
			name: "axios instance with baseURL and headers",
			src: `const axios = require("axios");
const client = axios.create({ baseURL: "https://weather.p.rapidapi.com/v1", headers: { "x-rapidapi-host": "weather.p.rapidapi.com", "x-rapidapi-key": process.env.KEY } });
module.exports.forecast = async function (city, days = 3) {
  const { data } = await client.get("/forecast", { params: { city, days } });
  return data;
};`,
			want: map[string][]string{"forecast": {"axios GET https://weather.p.rapidapi.com/v1/forecast host=weather.p.rapidapi.com path=/v1/forecast params=[query:city query:days] rapidapi=true/true"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.d
			if d == "" {
				d = lang.DialectJS
			}
			fns := extractOne(t, d, tc.src)
			for q, want := range tc.want {
				f, ok := fns[q]
				if !ok {
					t.Errorf("no function %s; got %v", q, slices.Sorted(maps.Keys(fns)))
					continue
				}
				var got []string
				for _, c := range f.Facts.Calls {
					got = append(got, callLine(c))
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s calls:\n got %q\nwant %q", q, got, want)
				}
				if r, ok := tc.rejects[q]; ok {
					if f.Status != lang.StatusRejected || f.RejectReason != r {
						t.Errorf("%s: %s %q, want rejected %q", q, f.Status, f.RejectReason, r)
					}
				} else if f.Status != lang.StatusCandidate {
					t.Errorf("%s rejected: %s\n%s", q, f.RejectReason, f.Code)
				}
			}
			for q := range fns {
				if _, ok := tc.want[q]; !ok {
					t.Errorf("unexpected function %s", q)
				}
			}
		})
	}
}
