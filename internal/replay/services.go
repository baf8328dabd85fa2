package replay

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"

	"sccg/internal/route"
)

//go:embed testdata/catalog.json
var catalogJSON []byte

// ServiceEndpoint is one documented endpoint of a stand-in service.
type ServiceEndpoint struct {
	Method string         `json:"method"`
	Route  string         `json:"route"`
	Name   string         `json:"name"`
	Params []ServiceParam `json:"params"`
}

// ServiceParam is one documented parameter.
type ServiceParam struct {
	Name     string `json:"name"`
	In       string `json:"in"` // query | path | header | body
	Required bool   `json:"required"`
}

// ServiceAPI is one service as the catalog describes it.
type ServiceAPI struct {
	Owner     string            `json:"owner"`
	Slug      string            `json:"slug"`
	Host      string            `json:"host"`
	Endpoints []ServiceEndpoint `json:"endpoints"`
}

// Catalog is the snapshot's services (testdata/catalog.json): the APIs the
// RapidAPI pages document and the GitHub corpus calls.
func Catalog() ([]ServiceAPI, error) {
	var c struct {
		APIs []ServiceAPI `json:"apis"`
	}
	if err := json.Unmarshal(catalogJSON, &c); err != nil {
		return nil, fmt.Errorf("services replay: catalog.json: %w", err)
	}
	return c.APIs, nil
}

// ServicesOptions script the stand-in services.
type ServicesOptions struct {
	// Down are hosts whose every request is answered 503 (a service that is gone).
	Down []string
	// Faults are answered, one per request and in order, to a host's requests
	// before the normal answer.
	Faults map[string][]Fault
	// Key is the RapidAPI key the services accept; "" accepts any non-empty one.
	Key string
}

type services struct {
	apis   map[string]*serviceAPI
	down   map[string]bool
	key    string
	mu     sync.Mutex
	faults map[string][]Fault
}

type serviceAPI struct {
	ServiceAPI
	routes []*route.Route
}

// Services returns a handler standing in for the snapshot's real services, the
// way a RapidAPI gateway answers them: it tells services apart by the Host
// header, wants X-RapidAPI-Key (401 without it) and X-RapidAPI-Host naming the
// host (403 otherwise), answers a documented endpoint with its method 200 (a small
// JSON body naming it) when its required query parameters are there (400
// otherwise), another method 405 and anything else 404.
func Services(opts ServicesOptions) (http.Handler, error) {
	apis, err := Catalog()
	if err != nil {
		return nil, err
	}
	h := &services{apis: map[string]*serviceAPI{}, down: map[string]bool{}, key: opts.Key, faults: map[string][]Fault{}}
	for _, a := range apis {
		sa := &serviceAPI{ServiceAPI: a}
		for _, e := range a.Endpoints {
			sa.routes = append(sa.routes, route.Compile(e.Route))
		}
		h.apis[strings.ToLower(a.Host)] = sa
	}
	for _, d := range opts.Down {
		h.down[strings.ToLower(d)] = true
	}
	for host, fs := range opts.Faults {
		h.faults[strings.ToLower(host)] = append([]Fault(nil), fs...)
	}
	return h, nil
}

func (h *services) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host := strings.ToLower(r.Host)
	if hh, _, err := net.SplitHostPort(host); err == nil {
		host = hh
	}
	a := h.apis[host]
	if a == nil {
		writeJSON(w, http.StatusNotFound, map[string]any{"message": "no such service: " + host})
		return
	}
	h.mu.Lock()
	var fault *Fault
	if fs := h.faults[host]; len(fs) > 0 {
		fault, h.faults[host] = &fs[0], fs[1:]
	}
	h.mu.Unlock()
	switch {
	case fault != nil:
		if fault.RetryAfter != "" {
			w.Header().Set("Retry-After", fault.RetryAfter)
		}
		writeJSON(w, fault.Status, map[string]any{"message": http.StatusText(fault.Status)})
		return
	case h.down[host]:
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"message": "service unavailable"})
		return
	}
	key := r.Header.Get("X-RapidAPI-Key")
	switch {
	case key == "" || (h.key != "" && key != h.key):
		writeJSON(w, http.StatusUnauthorized, map[string]any{"message": "Invalid API key. Go to https://docs.rapidapi.com/docs/keys for more info."})
		return
	case !strings.EqualFold(r.Header.Get("X-RapidAPI-Host"), host):
		writeJSON(w, http.StatusForbidden, map[string]any{"message": "You are not subscribed to this API."})
		return
	}
	methodOK := false
	for i, e := range a.Endpoints {
		if !a.routes[i].Match(r.URL.Path) {
			continue
		}
		if !strings.EqualFold(e.Method, r.Method) && !(r.Method == http.MethodHead && e.Method == http.MethodGet) {
			methodOK = true
			continue
		}
		q := r.URL.Query()
		for _, p := range e.Params {
			if p.In == "query" && p.Required && q.Get(p.Name) == "" {
				writeJSON(w, http.StatusBadRequest, map[string]any{"message": "missing required parameter: " + p.Name})
				return
			}
		}
		writeJSON(w, http.StatusOK, map[string]any{"api": a.Slug, "endpoint": e.Name, "path": r.URL.Path,
			"params": len(q)})
		return
	}
	if methodOK {
		writeJSON(w, http.StatusMethodNotAllowed, map[string]any{"message": "method not allowed"})
		return
	}
	writeJSON(w, http.StatusNotFound, map[string]any{"message": "Endpoint '" + r.URL.Path + "' does not exist"})
}
