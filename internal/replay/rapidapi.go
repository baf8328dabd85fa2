package replay

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
)

//go:embed testdata/rapidapi
var rapidapiFS embed.FS

// RapidAPIFS is the RapidAPI Hub snapshot: robots.txt, index.json (the listings
// discovery returns, with their scripted faults) and pages/<owner>/<slug>.html
// (playground pages carrying Next.js flight data).
func RapidAPIFS() fs.FS {
	sub, err := fs.Sub(rapidapiFS, "testdata/rapidapi")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return sub
}

// Listing is one API as the hub's search and GraphQL gateway list it.
type Listing struct {
	Owner       string  `json:"owner"`
	Slug        string  `json:"slug"`
	Title       string  `json:"title"`
	Category    string  `json:"category"`
	Description string  `json:"description"`
	Pricing     string  `json:"pricing"`
	Popularity  float64 `json:"popularity"`
	// Faults are answered, one per request and in order, before the page is served.
	Faults []Fault `json:"faults,omitempty"`
	// Redirect, when set, is where the playground URL redirects to (the page is
	// served there).
	Redirect string `json:"redirect,omitempty"`
}

// Fault is one scripted failure answer.
type Fault struct {
	Status     int    `json:"status"`
	RetryAfter string `json:"retry_after,omitempty"`
}

// RapidAPIOptions configures the RapidAPI replay handler.
type RapidAPIOptions struct {
	// FS holds the snapshot; nil means RapidAPIFS().
	FS fs.FS
	// NoFaults serves every page at once, ignoring the snapshot's scripted faults.
	NoFaults bool
	// Faults adds scripted answers by request path (e.g. "/owner/api/slug/playground"),
	// served in order before the normal answer.
	Faults map[string][]Fault
	// PageSize is how many listings a search or GraphQL page holds (default 10).
	PageSize int
}

// CSRFToken is the token the replay gateway hands out and requires on GraphQL calls.
const CSRFToken = "replay-csrf-7f3c9a"

const csrfCookie = "rapidapi-csrf-secret"

// lastModified is the Last-Modified every snapshot page carries.
const lastModified = "Mon, 03 Jun 2024 08:00:00 GMT"

type rapidAPI struct {
	fsys     fs.FS
	listings []Listing
	pageSize int

	mu     sync.Mutex
	faults map[string][]Fault
}

// RapidAPI returns a handler that serves the snapshot as the RapidAPI Hub does:
//
//	GET  /robots.txt
//	GET  /<owner>/api/<slug>/playground   Next.js page with flight data (ETag, 304)
//	GET  /search/<term>?page=N            HTML search results
//	GET  /category/<name>?page=N          HTML category listing
//	GET  /gateway/csrf                    {"csrfToken": …} plus a cookie
//	POST /gateway/graphql                 operation searchApis (needs the token)
//
// Scripted faults (429 with Retry-After, 500) are one-shot per handler.
func RapidAPI(opts RapidAPIOptions) (http.Handler, error) {
	fsys := opts.FS
	if fsys == nil {
		fsys = RapidAPIFS()
	}
	b, err := fs.ReadFile(fsys, "index.json")
	if err != nil {
		return nil, fmt.Errorf("rapidapi replay: %w", err)
	}
	var idx struct {
		APIs []Listing `json:"apis"`
	}
	if err := json.Unmarshal(b, &idx); err != nil {
		return nil, fmt.Errorf("rapidapi replay: index.json: %w", err)
	}
	h := &rapidAPI{fsys: fsys, listings: idx.APIs, pageSize: opts.PageSize, faults: map[string][]Fault{}}
	if h.pageSize <= 0 {
		h.pageSize = 10
	}
	if !opts.NoFaults {
		for _, l := range idx.APIs {
			if len(l.Faults) > 0 {
				p := PlaygroundPath(l.Owner, l.Slug)
				h.faults[p] = append(h.faults[p], l.Faults...)
			}
		}
	}
	for p, fs := range opts.Faults {
		h.faults[p] = append(h.faults[p], fs...)
	}
	return h, nil
}

// PlaygroundPath is the path of an API's playground page.
func PlaygroundPath(owner, slug string) string {
	return "/" + owner + "/api/" + slug + "/playground"
}

// fault pops the next scripted fault for path, if any.
func (h *rapidAPI) fault(path string) (Fault, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	q := h.faults[path]
	if len(q) == 0 {
		return Fault{}, false
	}
	h.faults[path] = q[1:]
	return q[0], true
}

func (h *rapidAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if f, ok := h.fault(r.URL.Path); ok {
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		http.Error(w, http.StatusText(f.Status), f.Status)
		return
	}
	p := r.URL.Path
	switch {
	case p == "/robots.txt":
		h.serveFile(w, r, "robots.txt", "text/plain; charset=utf-8")
	case p == "/gateway/csrf":
		http.SetCookie(w, &http.Cookie{Name: csrfCookie, Value: "s3cr3t", Path: "/gateway"})
		rapidWriteJSON(w, http.StatusOK, map[string]string{"csrfToken": CSRFToken})
	case p == "/gateway/graphql":
		h.graphql(w, r)
	case strings.HasPrefix(p, "/search/"):
		term, _ := url.PathUnescape(strings.TrimPrefix(p, "/search/"))
		h.listPage(w, r, "Search results for "+term, func(l Listing) bool { return matchTerm(l, term) })
	case strings.HasPrefix(p, "/category/"):
		name, _ := url.PathUnescape(strings.TrimPrefix(p, "/category/"))
		h.listPage(w, r, name+" APIs", func(l Listing) bool { return strings.EqualFold(l.Category, name) })
	default:
		h.playground(w, r)
	}
}

func (h *rapidAPI) playground(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if len(parts) < 4 || parts[1] != "api" || parts[3] != "playground" || r.Method != http.MethodGet {
		http.NotFound(w, r)
		return
	}
	owner, slug := parts[0], parts[2]
	var l *Listing
	for i := range h.listings {
		if h.listings[i].Owner == owner && h.listings[i].Slug == slug {
			l = &h.listings[i]
		}
	}
	if l == nil {
		http.NotFound(w, r)
		return
	}
	if l.Redirect != "" && len(parts) == 4 {
		http.Redirect(w, r, l.Redirect, http.StatusFound)
		return
	}
	if l.Redirect != "" && r.URL.Path != l.Redirect {
		http.NotFound(w, r)
		return
	}
	h.serveFile(w, r, "pages/"+owner+"/"+slug+".html", "text/html; charset=utf-8")
}

func (h *rapidAPI) serveFile(w http.ResponseWriter, r *http.Request, name, ctype string) {
	b, err := fs.ReadFile(h.fsys, name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	sum := sha256.Sum256(b)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	w.Header().Set("ETag", etag)
	w.Header().Set("Last-Modified", lastModified)
	w.Header().Set("Content-Type", ctype)
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Write(b)
}

func matchTerm(l Listing, term string) bool {
	t := strings.ToLower(strings.TrimSpace(term))
	if t == "" {
		return true
	}
	return strings.Contains(strings.ToLower(l.Slug+" "+l.Title+" "+l.Description+" "+l.Category), t)
}

// page cuts list into the 1-based page n.
func (h *rapidAPI) page(list []Listing, n int) (items []Listing, hasNext bool) {
	n = max(n, 1)
	from := (n - 1) * h.pageSize
	if from >= len(list) {
		return nil, false
	}
	to := min(from+h.pageSize, len(list))
	return list[from:to], to < len(list)
}

func (h *rapidAPI) filter(keep func(Listing) bool) []Listing {
	var out []Listing
	for _, l := range h.listings {
		if keep(l) {
			out = append(out, l)
		}
	}
	return out
}

func (h *rapidAPI) listPage(w http.ResponseWriter, r *http.Request, title string, keep func(Listing) bool) {
	n, _ := strconv.Atoi(r.URL.Query().Get("page"))
	n = max(n, 1)
	items, next := h.page(h.filter(keep), n)
	var b strings.Builder
	fmt.Fprintf(&b, "<!DOCTYPE html><html><head><title>%s | RapidAPI</title></head><body><h1>%s</h1><ul class=\"api-list\">\n", html.EscapeString(title), html.EscapeString(title))
	for _, l := range items {
		fmt.Fprintf(&b, "<li class=\"api-card\" data-category=\"%s\"><a href=\"%s\">%s</a><p>%s</p></li>\n",
			html.EscapeString(l.Category), PlaygroundPath(l.Owner, l.Slug), html.EscapeString(l.Title), html.EscapeString(l.Description))
	}
	b.WriteString("</ul>")
	if next {
		fmt.Fprintf(&b, "<a rel=\"next\" href=\"%s?page=%d\">Next</a>", r.URL.Path, n+1)
	}
	b.WriteString("</body></html>\n")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write([]byte(b.String()))
}

// graphqlRequest is the body the hub's frontend posts to /gateway/graphql.
type graphqlRequest struct {
	OperationName string `json:"operationName"`
	Query         string `json:"query"`
	Variables     struct {
		Where struct {
			Term          string   `json:"term"`
			CategoryNames []string `json:"categoryNames"`
		} `json:"searchApiWhereInput"`
		Pagination struct {
			First int    `json:"first"`
			After string `json:"after"`
		} `json:"paginationInput"`
	} `json:"variables"`
}

func (h *rapidAPI) graphql(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		rapidWriteJSON(w, http.StatusMethodNotAllowed, map[string]any{"errors": []map[string]string{{"message": "POST only"}}})
		return
	}
	c, err := r.Cookie(csrfCookie)
	if err != nil || c.Value == "" || r.Header.Get("csrf-token") != CSRFToken {
		rapidWriteJSON(w, http.StatusForbidden, map[string]any{"errors": []map[string]string{{"message": "invalid csrf token"}}})
		return
	}
	var req graphqlRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req); err != nil {
		rapidWriteJSON(w, http.StatusBadRequest, map[string]any{"errors": []map[string]string{{"message": "bad request body: " + err.Error()}}})
		return
	}
	if req.OperationName != "searchApis" {
		rapidWriteJSON(w, http.StatusOK, map[string]any{"errors": []map[string]string{{"message": "unknown operation " + req.OperationName}}})
		return
	}
	where := req.Variables.Where
	list := h.filter(func(l Listing) bool {
		if !matchTerm(l, where.Term) {
			return false
		}
		if len(where.CategoryNames) == 0 {
			return true
		}
		for _, c := range where.CategoryNames {
			if strings.EqualFold(c, l.Category) {
				return true
			}
		}
		return false
	})
	size := req.Variables.Pagination.First
	if size <= 0 || size > 50 {
		size = h.pageSize
	}
	from := 0
	if a := req.Variables.Pagination.After; a != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(a, "cursor:"))
		if err != nil || n < 0 {
			rapidWriteJSON(w, http.StatusOK, map[string]any{"errors": []map[string]string{{"message": "bad cursor " + a}}})
			return
		}
		from = n
	}
	from = min(from, len(list))
	to := min(from+size, len(list))
	nodes := []map[string]any{}
	for _, l := range list[from:to] {
		nodes = append(nodes, map[string]any{
			"id": "api_" + l.Owner + "_" + l.Slug, "name": l.Slug, "slug": l.Slug, "title": l.Title,
			"description": l.Description, "pricing": l.Pricing, "category": l.Category,
			"user": map[string]string{"username": l.Owner}, "score": map[string]float64{"popularityScore": l.Popularity},
		})
	}
	rapidWriteJSON(w, http.StatusOK, map[string]any{"data": map[string]any{"searchApis": map[string]any{
		"nodes": nodes, "total": len(list),
		"pageInfo": map[string]any{"endCursor": fmt.Sprintf("cursor:%d", to), "hasNextPage": to < len(list)},
	}}})
}

func rapidWriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
