package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Upserts here read the row id back with RETURNING: after ON CONFLICT DO UPDATE,
// LastInsertId still holds the previous insert's id on the connection.

// SaveAPI upserts api (keyed by source, owner and slug) and replaces the endpoints
// and parameters of every version that appears in eps; versions not named in eps are
// left alone. Rows that did not change keep their ids, so saving the same API twice
// changes nothing. It sets api.ID and each endpoint's ID and APIID, and returns the
// API's id.
func (t *Tx) SaveAPI(ctx context.Context, api *API, eps []Endpoint) (int64, error) {
	if api.Slug == "" {
		return 0, errors.New("save api: empty slug")
	}
	if api.CrawledAt == "" {
		api.CrawledAt = t.Now()
	}
	extra := []byte("{}")
	if len(api.Extra) > 0 {
		b, err := json.Marshal(api.Extra)
		if err != nil {
			return 0, fmt.Errorf("save api %s/%s: extra: %w", api.Owner, api.Slug, err)
		}
		extra = b
	}
	var blob any
	if api.BlobSHA256 != "" {
		blob = api.BlobSHA256
	}
	var id int64
	err := t.tx.QueryRowContext(ctx, `INSERT INTO apis(source, owner, slug, title, category, description, host, pricing,
		popularity, subscribers, latency_ms, success_rate, version, url, blob_sha256, openapi, extra, crawled_at)
		VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT(source, owner, slug) DO UPDATE SET title=excluded.title, category=excluded.category,
		description=excluded.description, host=excluded.host, pricing=excluded.pricing,
		popularity=excluded.popularity, subscribers=excluded.subscribers, latency_ms=excluded.latency_ms,
		success_rate=excluded.success_rate, version=excluded.version, url=excluded.url,
		blob_sha256=excluded.blob_sha256, openapi=excluded.openapi, extra=excluded.extra,
		crawled_at=excluded.crawled_at RETURNING id`,
		api.Source, api.Owner, api.Slug, api.Title, api.Category, api.Description, strings.ToLower(api.Host), api.Pricing,
		nullFloat(api.Popularity), nullInt(api.Subscribers), nullFloat(api.LatencyMS), nullFloat(api.SuccessRate),
		api.Version, api.URL, blob, api.OpenAPI, string(extra), api.CrawledAt).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("save api %s/%s: %w", api.Owner, api.Slug, err)
	}
	api.ID = id

	// Which endpoints each version keeps: anything else of that version goes.
	keep := map[string]map[int64]bool{}
	for i := range eps {
		ep := &eps[i]
		ep.APIID = id
		ep.Host = strings.ToLower(ep.Host)
		ep.Method = strings.ToUpper(ep.Method)
		if keep[ep.Version] == nil {
			keep[ep.Version] = map[int64]bool{}
		}
		err := t.tx.QueryRowContext(ctx, `INSERT INTO endpoints(api_id, version, is_current, host, endpoint_key, name, description,
			method, route, content_type, body_example) VALUES(?,?,?,?,?,?,?,?,?,?,?)
			ON CONFLICT(api_id, version, host, method, route) DO UPDATE SET is_current=excluded.is_current,
			endpoint_key=excluded.endpoint_key, name=excluded.name,
			description=excluded.description, content_type=excluded.content_type, body_example=excluded.body_example
			RETURNING id`,
			id, ep.Version, ep.IsCurrent, ep.Host, ep.Key, ep.Name, ep.Description, ep.Method, ep.Route, ep.ContentType, ep.BodyExample).Scan(&ep.ID)
		if err != nil {
			return 0, fmt.Errorf("save api %s/%s: endpoint %s %s: %w", api.Owner, api.Slug, ep.Method, ep.Route, err)
		}
		keep[ep.Version][ep.ID] = true
		if err := t.saveParams(ctx, ep.ID, ep.Params); err != nil {
			return 0, fmt.Errorf("save api %s/%s: endpoint %s %s: %w", api.Owner, api.Slug, ep.Method, ep.Route, err)
		}
	}
	for version, ids := range keep {
		rows, err := t.tx.QueryContext(ctx, `SELECT id FROM endpoints WHERE api_id=? AND version=?`, id, version)
		if err != nil {
			return 0, fmt.Errorf("save api %s/%s: %w", api.Owner, api.Slug, err)
		}
		var stale []int64
		for rows.Next() {
			var eid int64
			if err := rows.Scan(&eid); err != nil {
				rows.Close()
				return 0, err
			}
			if !ids[eid] {
				stale = append(stale, eid)
			}
		}
		rows.Close()
		for _, eid := range stale {
			if err := t.dropEndpointRefs(ctx, 0, eid); err != nil {
				return 0, fmt.Errorf("save api %s/%s: %w", api.Owner, api.Slug, err)
			}
			if _, err := t.exec(ctx, `DELETE FROM endpoints WHERE id=?`, eid); err != nil {
				return 0, fmt.Errorf("save api %s/%s: drop stale endpoint: %w", api.Owner, api.Slug, err)
			}
		}
	}
	return id, nil
}

// saveParams upserts ps for endpoint eid and deletes the endpoint's other params.
func (t *Tx) saveParams(ctx context.Context, eid int64, ps []Param) error {
	keep := map[int64]bool{}
	for _, p := range ps {
		typ := p.Type
		if typ == "" {
			typ = "string"
		}
		var pid int64
		err := t.tx.QueryRowContext(ctx, `INSERT INTO params(endpoint_id, name, location, type, required, example, default_value, description)
			VALUES(?,?,?,?,?,?,?,?) ON CONFLICT(endpoint_id, location, name) DO UPDATE SET type=excluded.type,
			required=excluded.required, example=excluded.example, default_value=excluded.default_value,
			description=excluded.description RETURNING id`,
			eid, p.Name, p.Location, typ, p.Required, p.Example, p.Default, p.Description).Scan(&pid)
		if err != nil {
			return fmt.Errorf("param %s %s: %w", p.Location, p.Name, err)
		}
		keep[pid] = true
	}
	rows, err := t.tx.QueryContext(ctx, `SELECT id FROM params WHERE endpoint_id=?`, eid)
	if err != nil {
		return err
	}
	var stale []int64
	for rows.Next() {
		var pid int64
		if err := rows.Scan(&pid); err != nil {
			rows.Close()
			return err
		}
		if !keep[pid] {
			stale = append(stale, pid)
		}
	}
	rows.Close()
	for _, pid := range stale {
		if _, err := t.exec(ctx, `DELETE FROM params WHERE id=?`, pid); err != nil {
			return fmt.Errorf("drop stale param: %w", err)
		}
	}
	return nil
}

func nullFloat(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func nullInt(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

const apiColumns = `id, source, owner, slug, title, category, description, host, pricing, popularity, subscribers,
	latency_ms, success_rate, version, url, COALESCE(blob_sha256,''), openapi, extra, crawled_at`

func scanAPI(sc interface{ Scan(...any) error }) (*API, error) {
	var a API
	var pop, lat, succ sql.NullFloat64
	var subs sql.NullInt64
	var extra string
	err := sc.Scan(&a.ID, &a.Source, &a.Owner, &a.Slug, &a.Title, &a.Category, &a.Description, &a.Host, &a.Pricing,
		&pop, &subs, &lat, &succ, &a.Version, &a.URL, &a.BlobSHA256, &a.OpenAPI, &extra, &a.CrawledAt)
	if err != nil {
		return nil, err
	}
	if pop.Valid {
		a.Popularity = &pop.Float64
	}
	if subs.Valid {
		a.Subscribers = &subs.Int64
	}
	if lat.Valid {
		a.LatencyMS = &lat.Float64
	}
	if succ.Valid {
		a.SuccessRate = &succ.Float64
	}
	if extra != "" && extra != "{}" {
		_ = json.Unmarshal([]byte(extra), &a.Extra)
	}
	return &a, nil
}

// APIs returns every API in the store, ordered by id.
func (s *Store) APIs(ctx context.Context) ([]API, error) {
	return queryList(ctx, s, "list apis", deref(scanAPI), `SELECT `+apiColumns+` FROM apis ORDER BY id`)
}

// API returns the API with id, or an error wrapping ErrNotFound.
func (s *Store) API(ctx context.Context, id int64) (*API, error) {
	a, err := scanAPI(s.read.QueryRowContext(ctx, `SELECT `+apiColumns+` FROM apis WHERE id=?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("api %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("api %d: %w", id, err)
	}
	return a, nil
}

// APIBySlug returns the API with owner and slug (from any source, the lowest id
// first), or an error wrapping ErrNotFound.
func (s *Store) APIBySlug(ctx context.Context, owner, slug string) (*API, error) {
	a, err := scanAPI(s.read.QueryRowContext(ctx, `SELECT `+apiColumns+` FROM apis WHERE owner=? AND slug=? ORDER BY id LIMIT 1`, owner, slug))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("api %s/%s: %w", owner, slug, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("api %s/%s: %w", owner, slug, err)
	}
	return a, nil
}

// Endpoints returns the endpoints of API apiID with their params, every version:
// the current version first, then older versions (by name, descending), each by
// route and method.
func (s *Store) Endpoints(ctx context.Context, apiID int64) ([]Endpoint, error) {
	return s.endpoints(ctx, `e.api_id=?`, apiID)
}

// EndpointsByHost returns the endpoints served by host (case-insensitive) with their
// params, every version of every API on that host: current versions first, then by
// API id, version (descending), route and method.
func (s *Store) EndpointsByHost(ctx context.Context, host string) ([]Endpoint, error) {
	return s.endpoints(ctx, `e.host=?`, strings.ToLower(host))
}

// CurrentEndpoints returns the endpoints of every API's current version with their
// params, by API id, route and method: the documented endpoints a retriever searches.
func (s *Store) CurrentEndpoints(ctx context.Context) ([]Endpoint, error) {
	return s.endpoints(ctx, `e.is_current=?`, 1)
}

func (s *Store) endpoints(ctx context.Context, where string, arg any) ([]Endpoint, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT e.id, e.api_id, e.version, e.is_current, e.host, e.endpoint_key, e.name,
		e.description, e.method, e.route, e.content_type, e.body_example FROM endpoints e WHERE `+where+`
		ORDER BY e.is_current DESC, e.api_id, e.version DESC, e.route, e.method, e.id`, arg)
	if err != nil {
		return nil, fmt.Errorf("list endpoints: %w", err)
	}
	var out []Endpoint
	idx := map[int64]int{}
	for rows.Next() {
		var e Endpoint
		if err := rows.Scan(&e.ID, &e.APIID, &e.Version, &e.IsCurrent, &e.Host, &e.Key, &e.Name, &e.Description,
			&e.Method, &e.Route, &e.ContentType, &e.BodyExample); err != nil {
			rows.Close()
			return nil, fmt.Errorf("list endpoints: %w", err)
		}
		e.Params = []Param{}
		idx[e.ID] = len(out)
		out = append(out, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list endpoints: %w", err)
	}
	if len(out) == 0 {
		return out, nil
	}
	prows, err := s.read.QueryContext(ctx, `SELECT p.endpoint_id, p.name, p.location, p.type, p.required, p.example,
		p.default_value, p.description FROM params p JOIN endpoints e ON e.id=p.endpoint_id WHERE `+where+` ORDER BY p.id`, arg)
	if err != nil {
		return nil, fmt.Errorf("list params: %w", err)
	}
	defer prows.Close()
	for prows.Next() {
		var eid int64
		var p Param
		if err := prows.Scan(&eid, &p.Name, &p.Location, &p.Type, &p.Required, &p.Example, &p.Default, &p.Description); err != nil {
			return nil, fmt.Errorf("list params: %w", err)
		}
		if i, ok := idx[eid]; ok {
			out[i].Params = append(out[i].Params, p)
		}
	}
	if err := prows.Err(); err != nil {
		return nil, fmt.Errorf("list params: %w", err)
	}
	for i := range out {
		sortParams(out[i].Params)
	}
	return out, nil
}

// locationOrder puts path parameters first, then query, header, body and form.
var locationOrder = map[string]int{"path": 0, "query": 1, "header": 2, "body": 3, "form": 4}

// sortParams orders params by location (path, query, header, body, form), then by
// name, so listings are stable whatever order they were saved in.
func sortParams(ps []Param) {
	slices.SortStableFunc(ps, func(a, b Param) int {
		return cmp.Or(cmp.Compare(locationOrder[a.Location], locationOrder[b.Location]), cmp.Compare(a.Name, b.Name))
	})
}

// dropEndpointRefs deletes the alignments that name API apiID (when endpointID is 0)
// or endpoint endpointID, with the kept rows made from them (a built sample made
// from one loses its alignment until the sample builder runs): they describe
// documentation that is gone, and the functions they belong to are aligned again
// against what remains.
func (t *Tx) dropEndpointRefs(ctx context.Context, apiID, endpointID int64) error {
	where, arg := `api_id=?`, apiID
	if endpointID != 0 {
		where, arg = `endpoint_id=?`, endpointID
	}
	if _, err := t.exec(ctx, `UPDATE samples SET alignment_id=NULL WHERE alignment_id IN (SELECT id FROM alignments WHERE `+where+`)`, arg); err != nil {
		return fmt.Errorf("drop samples of stale alignments: %w", err)
	}
	if _, err := t.exec(ctx, `DELETE FROM alignments WHERE `+where, arg); err != nil {
		return fmt.Errorf("drop stale alignments: %w", err)
	}
	return nil
}

// DeleteAPI deletes API id with its endpoints and parameters, the search hits that
// name it, and the alignments (with their kept rows) bound to it;
// files it found stay, found by no API until another finds them. It is for a
// description that was removed or no longer defines the API.
func (t *Tx) DeleteAPI(ctx context.Context, id int64) error {
	if err := t.dropEndpointRefs(ctx, id, 0); err != nil {
		return fmt.Errorf("delete api %d: %w", id, err)
	}
	for _, q := range []string{
		`UPDATE samples SET alignment_id=NULL WHERE alignment_id IN (SELECT a.id FROM alignments a JOIN endpoints e ON e.id=a.endpoint_id WHERE e.api_id=?)`,
		`DELETE FROM alignments WHERE endpoint_id IN (SELECT id FROM endpoints WHERE api_id=?)`,
		`DELETE FROM file_hits WHERE api_id=?`,
		`UPDATE files SET api_id=NULL WHERE api_id=?`,
		`DELETE FROM apis WHERE id=?`,
	} {
		if _, err := t.exec(ctx, q, id); err != nil {
			return fmt.Errorf("delete api %d: %w", id, err)
		}
	}
	return nil
}
