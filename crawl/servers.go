package crawl

import (
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// server is one usable server of a description: the host requests go to and the
// base path every route of it starts with.
type server struct {
	host, path string
}

// serverResolver turns a description's server lists into hosts and base paths:
// variables take their default (or first enum value), relative URLs resolve
// against the file's x-sccg-base-url or host override or the --base-url, and
// servers that cannot be called (no host, a local address, not HTTP) are skipped
// with a warning.
type serverResolver struct {
	rd           *descReader
	file         string
	hostOverride string
	base         string
	unusable     []string // why servers could not be used, for the no-host message
	seen         map[string]bool
}

var serverVar = regexp.MustCompile(`\{([^{}]*)\}`)

// resolve returns the usable servers of list, in order, without repeats. An empty
// list is OpenAPI's default server, "/".
func (sv *serverResolver) resolve(list openapi3.Servers, ptr string) []server {
	if sv.seen == nil {
		sv.seen = map[string]bool{}
	}
	if len(list) == 0 {
		list = openapi3.Servers{{URL: "/"}}
		if sv.base == "" && sv.hostOverride == "" {
			sv.unusable = append(sv.unusable, "it declares no `servers`")
			return nil
		}
	}
	var out []server
	have := map[server]bool{}
	for i, s := range list {
		if s == nil {
			continue
		}
		at := fmt.Sprintf("%s/%d", ptr, i)
		srv, ok := sv.one(s, at)
		if !ok || have[srv] {
			continue
		}
		have[srv] = true
		out = append(out, srv)
	}
	return out
}

// once reports a warning about one server URL only once per file.
func (sv *serverResolver) once(key string) bool {
	if sv.seen[key] {
		return false
	}
	sv.seen[key] = true
	return true
}

func (sv *serverResolver) one(s *openapi3.Server, ptr string) (server, bool) {
	raw := strings.TrimSpace(s.URL)
	expanded := raw
	var missing []string
	expanded = serverVar.ReplaceAllStringFunc(raw, func(m string) string {
		name := m[1 : len(m)-1]
		v := s.Variables[name]
		switch {
		case v != nil && v.Default != "":
			return v.Default
		case v != nil && len(v.Enum) > 0:
			if sv.once("enum " + raw + name) {
				sv.rd.warn(WarnServerVariable, sv.file, ptr, "server variable {%s} has no default; its first value %q is used", name, v.Enum[0])
			}
			return v.Enum[0]
		}
		missing = append(missing, name)
		return m
	})
	if len(missing) > 0 {
		sv.skip(ptr, raw, fmt.Sprintf("server URL %q uses variable(s) {%s} that `variables` does not define", raw, strings.Join(missing, "}, {")))
		return server{}, false
	}
	if strings.HasPrefix(expanded, "//") {
		expanded = "https:" + expanded
	}
	if !strings.Contains(expanded, "://") {
		if first, _, _ := strings.Cut(expanded, "/"); strings.Contains(first, ".") && !strings.HasPrefix(expanded, ".") && hostish(first) {
			if sv.once("scheme " + raw) {
				sv.rd.warn(WarnServerRepaired, sv.file, ptr, "server URL %q has no scheme; read as https://%s", raw, expanded)
			}
			expanded = "https://" + expanded
		} else {
			base := sv.base
			if sv.hostOverride != "" {
				base = "https://" + sv.hostOverride
			}
			if base == "" {
				sv.unusable = append(sv.unusable, fmt.Sprintf("its server URL %q is relative", raw))
				return server{}, false
			}
			b, err := url.Parse(base)
			if err != nil || b.Host == "" {
				sv.skip(ptr, raw, fmt.Sprintf("relative server URL %q cannot be resolved against %q, which is not an absolute URL", raw, base))
				return server{}, false
			}
			if !strings.HasSuffix(b.Path, "/") {
				b.Path += "/"
			}
			rel, err := url.Parse(expanded)
			if err != nil {
				sv.skip(ptr, raw, fmt.Sprintf("server URL %q does not parse: %v", raw, err))
				return server{}, false
			}
			resolved := b.ResolveReference(rel).String()
			if sv.once("rel " + raw) {
				sv.rd.warn(WarnRelativeServer, sv.file, ptr, "relative server URL %q resolved against %s: %s", raw, base, resolved)
			}
			expanded = resolved
		}
	}
	u, err := url.Parse(expanded)
	if err != nil {
		sv.skip(ptr, raw, fmt.Sprintf("server URL %q does not parse: %v", raw, err))
		return server{}, false
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		sv.skip(ptr, raw, fmt.Sprintf("server URL %q is not HTTP", raw))
		return server{}, false
	}
	host := NormalizeHost(u.Host)
	if host == "" {
		sv.skip(ptr, raw, fmt.Sprintf("server URL %q has no host", raw))
		return server{}, false
	}
	if isLocalHost(host) {
		sv.skip(ptr, raw, fmt.Sprintf("server URL %q is a local address, not a public API", raw))
		return server{}, false
	}
	if sv.hostOverride != "" {
		host = sv.hostOverride
	}
	return server{host: host, path: strings.TrimRight(u.Path, "/")}, true
}

func (sv *serverResolver) skip(ptr, raw, why string) {
	sv.unusable = append(sv.unusable, why)
	if sv.once("skip " + raw) {
		sv.rd.warn(WarnServerSkipped, sv.file, ptr, "%s; skipped", why)
	}
}

// why explains, for the no-host rejection, what was wrong with the servers.
func (sv *serverResolver) why() string {
	if len(sv.unusable) == 0 {
		return ""
	}
	seen := map[string]bool{}
	var parts []string
	for _, u := range sv.unusable {
		if !seen[u] && len(parts) < 3 {
			seen[u] = true
			parts = append(parts, u)
		}
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

var hostLabel = regexp.MustCompile(`^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+(:\d+)?$`)

func hostish(s string) bool { return hostLabel.MatchString(s) }

// isLocalHost reports a loopback, unspecified or private-network host: a
// development server, not an API anyone's code calls.
func isLocalHost(host string) bool {
	h := host
	if hh, _, err := net.SplitHostPort(host); err == nil {
		h = hh
	}
	h = strings.Trim(h, "[]")
	if h == "localhost" || strings.HasSuffix(h, ".localhost") || strings.HasSuffix(h, ".local") {
		return true
	}
	if ip := net.ParseIP(h); ip != nil {
		return ip.IsLoopback() || ip.IsUnspecified() || ip.IsPrivate()
	}
	return false
}
