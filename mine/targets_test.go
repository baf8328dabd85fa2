package mine

import (
	"reflect"
	"testing"

	"sccg/store"
)

func TestHostTargets(t *testing.T) {
	api := store.API{ID: 1, Slug: "wx", Host: "api.wx.test"}
	ep := func(host, route string, current bool) store.Endpoint {
		return store.Endpoint{Host: host, Route: route, IsCurrent: current}
	}
	tests := []struct {
		name  string
		eps   []store.Endpoint
		want  map[string][]string // host → routes, in target order below
		hosts []string
	}{
		{"one host", []store.Endpoint{ep("api.wx.test", "/a", true), ep("api.wx.test", "/b", true)},
			map[string][]string{"api.wx.test": {"/a", "/b"}}, []string{"api.wx.test"}},
		{"servers per path and a second server", []store.Endpoint{ep("api.wx.test", "/forecast", true),
			ep("archive.wx.test", "/archive", true), ep("customer.wx.test", "/forecast", true)},
			map[string][]string{"api.wx.test": {"/forecast"}, "archive.wx.test": {"/archive"}, "customer.wx.test": {"/forecast"}},
			[]string{"api.wx.test", "archive.wx.test", "customer.wx.test"}},
		{"older versions stay with the API's host", []store.Endpoint{ep("old.wx.test", "/v0", false), ep("api.wx.test", "/v1", true)},
			map[string][]string{"api.wx.test": {"/v0", "/v1"}}, []string{"api.wx.test"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := hostTargets(api, tc.eps)
			var hosts []string
			routes := map[string][]string{}
			for _, g := range got {
				hosts = append(hosts, g.Host)
				for _, e := range g.Endpoints {
					routes[g.Host] = append(routes[g.Host], e.Route)
				}
				if g.API.ID != api.ID {
					t.Errorf("target %s has API %d", g.Host, g.API.ID)
				}
			}
			if !reflect.DeepEqual(hosts, tc.hosts) || !reflect.DeepEqual(routes, tc.want) {
				t.Errorf("targets %v %v, want %v %v", hosts, routes, tc.hosts, tc.want)
			}
		})
	}
}
