package realcall

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"sccg/evaluate"
	"sccg/release"
)

// service is one API while planning.
type service struct {
	Service
	cred     credentials
	gold     *planned   // the gold request that screens it
	pos      []*planned // sampled Mock-positive requests
	neg      []*planned
	goldX    []string // why gold candidates could not be sent (the first maxGoldNotes)
	goldN    int      // how many distinct ones there were
	goldSeen map[string]bool
}

// planned is a request that may be sent, with the items it stands for.
type planned struct {
	req   *request
	key   string
	dest  string // the base URL Resolve maps its host to, or ""
	group string
	api   string
	items []int // indexes into the report's Items
	call  *Call
}

// api is what the plan knows of an API from the benchmark.
type api struct {
	name, host, pricing string
	docHeaders          []string // documented credential headers
}

// plan decides, without sending anything, what would be sent: every result's
// request is rebuilt and filtered, each service gets its gold request and a
// sample of each group, and every item not sent gets its reason.
func plan(o *Options, rep *Report) []*service {
	recs := map[string]*release.Record{}
	apis := map[string]*api{}
	for i := range o.Bench {
		r := &o.Bench[i]
		if _, dup := recs[r.SampleID]; dup {
			rep.Problems = append(rep.Problems, fmt.Sprintf("benchmark: sample_id %q appears twice; the first record is used", r.SampleID))
			continue
		}
		recs[r.SampleID] = r
		name := release.APIKey(r)
		a := apis[name]
		if a == nil {
			a = &api{name: name, host: normHost(r.APIHost)}
			apis[name] = a
		}
		if a.pricing == "" {
			a.pricing = recordPricing(r)
		}
		for _, h := range credentialHeaders(r) {
			if !slices.Contains(a.docHeaders, h) {
				a.docHeaders = append(a.docHeaders, h)
			}
		}
	}
	svcs := map[string]*service{}
	svcOf := func(a *api) *service {
		if s := svcs[a.name]; s != nil {
			return s
		}
		s := &service{Service: Service{API: a.name, Host: a.host, Pricing: a.pricing}}
		if s.Pricing == "" && o.Pricing != nil {
			s.Pricing = strings.ToUpper(o.Pricing(a.host))
		}
		switch {
		case slices.Contains(o.AllowHosts, a.host):
			s.Allowed = "allow-host"
		case s.Pricing == "FREE":
			s.Allowed = "free"
		}
		s.cred = credentials{key: o.Key, env: o.KeyEnv, header: a.docHeaders}
		svcs[a.name] = s
		return s
	}
	exclude := func(it Item, reason, detail string) {
		it.Reason, it.Detail = reason, detail
		rep.Items = append(rep.Items, it)
	}
	// candidates by service and group, in the results' order
	type cand struct {
		p  *planned
		it Item
	}
	cands := map[string]map[string][]cand{}
	// Given gold results only, the run is a screen: every service with a gold
	// request that may be sent is called with it (which services still answer?).
	rep.ScreenOnly = len(o.Results) > 0 && !slices.ContainsFunc(o.Results, func(r evaluate.Result) bool { return !isGold(r) })
	results := slices.Clone(o.Results)
	slices.SortStableFunc(results, func(a, b evaluate.Result) int {
		return cmp.Or(cmp.Compare(a.SampleID, b.SampleID), cmp.Compare(a.Setting, b.Setting), cmp.Compare(a.Model, b.Model),
			cmp.Compare(a.SampleIndex, b.SampleIndex))
	})
	for _, res := range results {
		it := Item{SampleID: res.SampleID, Setting: res.Setting, Model: res.Model, SampleIndex: res.SampleIndex}
		rec := recs[res.SampleID]
		gold := isGold(res)
		switch {
		case gold:
			it.Group = GroupGold
		case res.Mock == 1:
			it.Group = GroupPositive
		default:
			it.Group = GroupNegative
		}
		if rec == nil {
			exclude(it, ReasonUnknownSample, res.SampleID)
			continue
		}
		a := apis[release.APIKey(rec)]
		it.API = a.name
		s := svcOf(a)
		c, reason, detail := pick(res, rec, it.Group, a.host)
		if reason != "" {
			if gold {
				s.noteGold(res.SampleID, reasonDetail(reason, detail))
			}
			exclude(it, reason, detail)
			continue
		}
		req, x := rebuild(c, s.cred)
		if x != nil {
			if gold {
				s.noteGold(res.SampleID, reasonDetail(x.Reason, x.Detail))
			}
			exclude(it, x.Reason, x.Detail)
			continue
		}
		dest := o.Resolve[req.Host]
		p := &planned{req: req, dest: dest, key: req.key(dest), group: it.Group, api: a.name}
		if cands[a.name] == nil {
			cands[a.name] = map[string][]cand{}
		}
		cands[a.name][it.Group] = append(cands[a.name][it.Group], cand{p, it})
	}

	names := make([]string, 0, len(svcs))
	for n := range svcs {
		names = append(names, n)
	}
	slices.Sort(names)
	var out []*service
	for _, n := range names {
		s := svcs[n]
		byGroup := cands[n]
		all := func(f func(c cand)) {
			for _, g := range []string{GroupGold, GroupPositive, GroupNegative} {
				for _, c := range byGroup[g] {
					f(c)
				}
			}
		}
		if s.Allowed == "" {
			pricing := s.Pricing
			if pricing == "" {
				pricing = "unknown"
			}
			s.Status, s.Reason, s.Detail = ServiceScreened, ReasonNotFree, "pricing "+pricing
			all(func(c cand) { exclude(c.it, ReasonNotFree, "pricing "+pricing) })
			out = append(out, s)
			continue
		}
		// one call per distinct request in a group: the first gold request that may
		// be sent screens the service
		seen := map[string]*planned{}
		var golds, pos, neg []*planned
		for _, g := range []string{GroupGold, GroupPositive, GroupNegative} {
			for _, c := range byGroup[g] {
				k := g + "\x00" + c.p.key
				if prev := seen[k]; prev != nil {
					exclude(c.it, ReasonDuplicate, "same as "+itemName(rep.Items[prev.items[0]]))
					continue
				}
				seen[k] = c.p
				c.p.items = append(c.p.items, len(rep.Items))
				rep.Items = append(rep.Items, c.it)
				switch g {
				case GroupGold:
					golds = append(golds, c.p)
				case GroupPositive:
					pos = append(pos, c.p)
				default:
					neg = append(neg, c.p)
				}
			}
		}
		pos = sample(pos, o.Positives, o.Seed, rep, ReasonNotSampled)
		neg = sample(neg, o.Negatives, o.Seed, rep, ReasonNotSampled)
		for i, g := range golds {
			if i == 0 {
				s.gold = g
				continue
			}
			markItems(rep, g, ReasonDuplicate, "the service is screened by the gold request of "+rep.Items[golds[0].items[0]].SampleID)
		}
		s.pos, s.neg = pos, neg
		s.Positives, s.Negatives = len(pos), len(neg)
		switch {
		case s.gold == nil:
			detail := "no gold result among the results (evaluate with sccg eval --gold and pass its output)"
			if len(s.goldX) > 0 {
				detail = "its gold requests may not be sent: " + strings.Join(s.goldX, "; ")
				if s.goldN > len(s.goldX) {
					detail += fmt.Sprintf("; and %d more", s.goldN-len(s.goldX))
				}
			}
			s.Status, s.Reason, s.Detail = ServiceScreened, ReasonNoGold, detail
			for _, p := range append(pos, neg...) {
				markItems(rep, p, ReasonNoGold, "")
			}
			s.pos, s.neg = nil, nil
		case len(pos)+len(neg) == 0 && !rep.ScreenOnly:
			s.Status, s.Detail = ServiceNotChecked, "no Mock-positive or Mock-negative request of it may be sent"
			markItems(rep, s.gold, ReasonNotScreened, "")
			s.gold = nil
		default:
			s.Status = ServicePlanned
		}
		out = append(out, s)
	}
	return out
}

// maxGoldNotes is how many unsendable gold requests a service's reason names.
const maxGoldNotes = 3

// noteGold notes why a gold request of the service may not be sent (once per
// sample: the gold code scored in several settings sends the same request).
func (s *service) noteGold(sampleID, why string) {
	n := sampleID + ": " + why
	if s.goldSeen == nil {
		s.goldSeen = map[string]bool{}
	}
	if s.goldSeen[n] {
		return
	}
	s.goldSeen[n] = true
	s.goldN++
	if len(s.goldX) < maxGoldNotes {
		s.goldX = append(s.goldX, n)
	}
}

// isGold reports whether a result scores a sample's own code: sccg eval --gold,
// or the gold baseline of an experiment.
func isGold(r evaluate.Result) bool { return r.Model == "gold" }

// pick chooses the request of a result that stands for it: for gold and
// Mock-positive results the first request that hits, for Mock-negative ones the
// request the scorer compared (the closest to the ground truth) when it goes to
// the API's host, else the first that does.
func pick(res evaluate.Result, rec *release.Record, group, host string) (evaluate.Captured, string, string) {
	if len(res.Requests) == 0 {
		return evaluate.Captured{}, ReasonNoRequest, res.FailureStage
	}
	truth := evaluate.TruthOf(*rec)
	if group != GroupNegative {
		for _, c := range res.Requests {
			if truth.Agree(c).Hit(&truth) {
				return c, "", ""
			}
		}
		// scored before a change of the ground truth: the closest request stands in
	}
	if i := truth.Best(res.Requests); i >= 0 && res.Requests[i].Host == host {
		return res.Requests[i], "", ""
	}
	for _, c := range res.Requests {
		if c.Host == host {
			return c, "", ""
		}
	}
	return evaluate.Captured{}, ReasonOtherHost, res.Requests[0].Host
}

// sample keeps at most n of ps, chosen by a hash of seed and each call's key (so
// the choice does not depend on the order of the results); the rest are marked.
func sample(ps []*planned, n int, seed uint64, rep *Report, reason string) []*planned {
	if len(ps) <= n {
		return ps
	}
	rank := func(p *planned) uint64 {
		h := fnv.New64a()
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], seed)
		h.Write(b[:])
		h.Write([]byte(p.key))
		return h.Sum64()
	}
	sorted := slices.Clone(ps)
	slices.SortStableFunc(sorted, func(a, b *planned) int { return cmp.Compare(rank(a), rank(b)) })
	for _, p := range sorted[n:] {
		markItems(rep, p, reason, fmt.Sprintf("%d of %d distinct requests sampled", n, len(ps)))
	}
	keep := sorted[:n]
	// back in the results' order
	slices.SortStableFunc(keep, func(a, b *planned) int { return cmp.Compare(a.items[0], b.items[0]) })
	return keep
}

func markItems(rep *Report, p *planned, reason, detail string) {
	for _, i := range p.items {
		rep.Items[i].Reason, rep.Items[i].Detail = reason, detail
	}
}

func itemName(it Item) string {
	return fmt.Sprintf("%s %s/%s #%d", it.SampleID, it.Setting, it.Model, it.SampleIndex)
}

func reasonDetail(reason, detail string) string {
	if detail == "" {
		return reason
	}
	return reason + " (" + detail + ")"
}

func normHost(h string) string {
	h = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(h)), ".")
	if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.Contains(h[i:], "]") {
		h = h[:i]
	}
	return h
}

// recordPricing is the pricing plan a built record's api_info names (upper case),
// or "" (a published release carries none).
func recordPricing(r *release.Record) string {
	var info struct {
		Pricing string `json:"pricing"`
	}
	if raw, ok := r.Extra["api_info"]; ok && json.Unmarshal(raw, &info) == nil {
		return strings.ToUpper(strings.TrimSpace(info.Pricing))
	}
	return ""
}

// credentialHeaders are the headers a record documents for a credential: the
// names in api_metadata.headers and header_params that name one.
func credentialHeaders(r *release.Record) []string {
	var out []string
	for k := range r.APIMetadata.Headers {
		if credName(k) {
			out = append(out, k)
		}
	}
	var hp []json.RawMessage
	if json.Unmarshal(r.APIMetadata.HeaderParams, &hp) == nil {
		for _, raw := range hp {
			var name string
			if json.Unmarshal(raw, &name) != nil {
				var obj struct {
					Name string `json:"name"`
				}
				if json.Unmarshal(raw, &obj) != nil {
					continue
				}
				name = obj.Name
			}
			if name != "" && credName(name) {
				out = append(out, name)
			}
		}
	}
	slices.Sort(out)
	return out
}
