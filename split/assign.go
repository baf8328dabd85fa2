package split

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"sccg/minhash"
	"sccg/release"
	"sccg/store"
)

// Unit is one sample as the splitter sees it.
type Unit struct {
	RowID          int64  // samples.id
	SampleID       string // SCG-000001
	API            string // release.APIKey of the sample
	Host           string
	Provider       string // who publishes the API (a RapidAPI owner), "" when unknown
	Cluster        int64  // near-duplicate cluster from align, 0 when none
	DocMatchType   string
	CommentsSource string
	Method         string
	// AuthoredAt is when the sample's function first appeared (its
	// function_authored_at, ISO 8601 UTC), "" when unknown; DateUnknown says why.
	AuthoredAt  string
	DateUnknown string
}

// DefaultRatios are the published train / validation / test proportions
// (2,257 / 266 / 612 of 3,135 samples).
var DefaultRatios = [3]float64{0.72, 0.085, 0.195}

// DefaultNameSimilarity is the token-set Jaccard similarity at or above which two
// API names are one family.
const DefaultNameSimilarity = 0.75

// Options configure Assign.
type Options struct {
	Seed   int64
	Ratios [3]float64 // train, validation, test; over samples, not APIs
	// NameSimilarity is the token-set Jaccard threshold for near-identical API
	// names; 0 means DefaultNameSimilarity, a value above 1 turns it off.
	NameSimilarity float64
	// TimeCutoff, when set (ParseCutoff), makes a live test split: it holds only
	// samples whose function was authored on or after it. APIs stay disjoint, so
	// a test API's older samples, and those whose date is unknown, are left out of
	// every split with their reason (ReasonBeforeCutoff, ReasonDateUnknown).
	TimeCutoff string
}

// Why a sample is left out of every split by a time cutoff.
const (
	// ReasonBeforeCutoff: the sample's API is in the test split, and its function
	// was authored before the cutoff.
	ReasonBeforeCutoff = "before_cutoff"
	// ReasonDateUnknown prefixes why: the sample's API is in the test split, and
	// when its function was written is unknown.
	ReasonDateUnknown = "date_unknown"
)

// ParseCutoff reads a time cutoff, a date (2024-06-01) or an RFC 3339 time, as
// the ISO 8601 UTC form the records' dates have.
func ParseCutoff(s string) (string, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{"2006-01-02", time.RFC3339} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC().Format("2006-01-02T15:04:05Z"), nil
		}
	}
	return "", fmt.Errorf("time cutoff %q: want a date like 2024-06-01 or an RFC 3339 time", s)
}

// newer reports whether u's function was authored on or after the cutoff.
func (u Unit) newer(cutoff string) bool { return u.AuthoredAt != "" && u.AuthoredAt >= cutoff }

// leftOutReason is why a test API's sample u is left out under a cutoff.
func (u Unit) leftOutReason(cutoff string) string {
	if u.AuthoredAt != "" {
		return fmt.Sprintf("%s: its function was authored %s, before the time cutoff %s, and its API is in the test split",
			ReasonBeforeCutoff, u.AuthoredAt, cutoff)
	}
	why := u.DateUnknown
	if why == "" {
		why = "the record has no function_authored_at"
	}
	return ReasonDateUnknown + ": " + why + "; its API is in the test split"
}

// withDefaults resolves the ratios and the name similarity, so a run records what
// it really used.
func (o Options) withDefaults() Options {
	if o.Ratios == [3]float64{} {
		o.Ratios = DefaultRatios
	}
	if o.NameSimilarity == 0 {
		o.NameSimilarity = DefaultNameSimilarity
	}
	return o
}

// RunArgs are the resolved options as a run records them.
func (o Options) RunArgs() map[string]any {
	o = o.withDefaults()
	args := map[string]any{"seed": o.Seed, "ratios": o.Ratios[:], "name_similarity": o.NameSimilarity}
	if o.TimeCutoff != "" {
		args["time_cutoff"] = o.TimeCutoff
	}
	return args
}

// Plan is the outcome of Assign: a split and a family for every unit.
type Plan struct {
	Split  map[int64]string // by RowID; "" for a unit left out (LeftOut)
	Family map[int64]string // by RowID
	// LeftOut says why a unit is in no split (a time cutoff), by RowID.
	LeftOut  map[int64]string
	Families int
	Report   Report
}

// Counts are the plan's figures as a run records them: the families and each
// split's samples.
func (p *Plan) Counts() map[string]int64 {
	c := map[string]int64{"families": int64(p.Families)}
	for _, sr := range p.Report.Splits {
		c[sr.Name] = int64(sr.Samples)
	}
	for why, n := range p.Report.LeftOut {
		c["left_out_"+why] = int64(n)
	}
	return c
}

// Report describes a plan: what each split holds and how the strata are spread.
type Report struct {
	Seed     int64         `json:"seed"`
	Ratios   []float64     `json:"ratios"`
	Samples  int           `json:"samples"`
	APIs     int           `json:"apis"`
	Families int           `json:"families"`
	Largest  FamilySummary `json:"largest_family"`
	Splits   []SplitReport `json:"splits"`
	// Within is set when there were fewer families than splits and the APIs of one
	// provider were placed one by one.
	Within *Within `json:"split_within_families,omitempty"`
	// Warnings name each split meant to hold samples that came out empty, with
	// what to do.
	Warnings []string `json:"warnings,omitempty"`
	// TimeCutoff is the cutoff of a live test split, and LeftOut counts the
	// samples of its test APIs left out of every split, by reason
	// (ReasonBeforeCutoff, ReasonDateUnknown).
	TimeCutoff string         `json:"time_cutoff,omitempty"`
	LeftOut    map[string]int `json:"left_out,omitempty"`
	// Newer counts the samples authored on or after the cutoff, in any split, and
	// Undated those whose authoring date is unknown.
	Newer   int `json:"authored_from_cutoff,omitempty"`
	Undated int `json:"authoring_date_unknown,omitempty"`
}

// Within records the decision to split within provider families.
type Within struct {
	Families int    `json:"families"` // families with every join
	Units    int    `json:"units"`    // groups placed instead: families without provider joins
	Splits   int    `json:"splits"`   // splits with a share
	Reason   string `json:"reason"`
}

// FamilySummary names one family of APIs kept in one split.
type FamilySummary struct {
	Name    string   `json:"name"`
	Samples int      `json:"samples"`
	APIs    []string `json:"apis"`
	Why     []string `json:"why,omitempty"` // what joined its APIs: host, provider, name, cluster
}

// SplitReport is what one split holds.
type SplitReport struct {
	Name           string         `json:"name"`
	Samples        int            `json:"samples"`
	Share          float64        `json:"share"`
	Target         float64        `json:"target"`
	APIs           int            `json:"apis"`
	Families       int            `json:"families"`
	DocMatchType   map[string]int `json:"doc_match_type"`
	CommentsSource map[string]int `json:"comments_source"`
	Methods        map[string]int `json:"http_methods"`
}

// FormatRatios writes ratios the way ParseRatios reads them: "0.72,0.085,0.195".
func FormatRatios(r [3]float64) string {
	return strconv.FormatFloat(r[0], 'g', -1, 64) + "," + strconv.FormatFloat(r[1], 'g', -1, 64) + "," +
		strconv.FormatFloat(r[2], 'g', -1, 64)
}

// ParseRatios reads "0.72,0.085,0.195" (any three non-negative numbers; they are
// normalized to sum to one).
func ParseRatios(s string) ([3]float64, error) {
	var r [3]float64
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return r, fmt.Errorf("ratios %q: want three numbers train,validation,test", s)
	}
	sum := 0.0
	for i, p := range parts {
		var v float64
		if _, err := fmt.Sscanf(strings.TrimSpace(p), "%g", &v); err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return r, fmt.Errorf("ratios %q: %q is not a non-negative number", s, p)
		}
		r[i] = v
		sum += v
	}
	if sum == 0 {
		return r, fmt.Errorf("ratios %q: all zero", s)
	}
	for i := range r {
		r[i] /= sum
	}
	return r, nil
}

// unionFind groups API keys.
type unionFind struct{ parent map[string]string }

func (u *unionFind) find(x string) string {
	for u.parent[x] != x {
		u.parent[x] = u.parent[u.parent[x]]
		x = u.parent[x]
	}
	return x
}

func (u *unionFind) union(a, b string) bool {
	ra, rb := u.find(a), u.find(b)
	if ra == rb {
		return false
	}
	if rb < ra { // the smaller key is the root: deterministic family names
		ra, rb = rb, ra
	}
	u.parent[rb] = ra
	return true
}

// nameStop are name tokens that say nothing about which service an API is.
var nameStop = map[string]bool{"api": true, "apis": true, "data": true, "rapidapi": true, "p": true, "com": true,
	"the": true, "official": true, "unofficial": true, "free": true, "service": true, "v": true, "io": true, "net": true, "org": true}

// NameTokens splits an API name or host into the tokens compared for near-identical
// names: lower-cased words, version suffixes and uniqueness digits dropped
// (twitter154 → twitter), generic words (api, data, …) left out.
func NameTokens(name string) []string {
	if strings.HasSuffix(strings.ToLower(name), ".p.rapidapi.com") {
		name = name[:len(name)-len(".p.rapidapi.com")]
	}
	var words []string
	var cur []rune
	prevLower := false
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = cur[:0]
		}
	}
	for _, r := range name {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && prevLower {
				flush()
			}
			cur = append(cur, unicode.ToLower(r))
			prevLower = unicode.IsLower(r)
		default:
			flush()
			prevLower = false
		}
	}
	flush()
	seen := map[string]bool{}
	var out []string
	for _, w := range words {
		w = strings.TrimRightFunc(w, unicode.IsDigit)
		if len(w) > 1 && w[0] == 'v' && strings.TrimLeftFunc(w[1:], unicode.IsDigit) == "" {
			continue
		}
		if w == "" || nameStop[w] || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	sort.Strings(out)
	return out
}

// jaccard is the token-set similarity of two sorted token lists; a name with no
// tokens is like no other.
func jaccard(a, b []string) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	return minhash.Jaccard(a, b)
}

// ProviderOfHost is the provider a host belongs to when the host itself says so:
// its registrable domain (api.example.co.uk → example.co.uk). RapidAPI gateway hosts
// (*.p.rapidapi.com) say nothing about the provider and give "".
func ProviderOfHost(host string) string {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "" || strings.HasSuffix(host, ".rapidapi.com") || strings.Trim(host, "0123456789.") == "" {
		return ""
	}
	labels := strings.Split(host, ".")
	n := 2
	if len(labels) >= 3 && len(labels[len(labels)-1]) == 2 {
		switch labels[len(labels)-2] {
		case "co", "com", "org", "net", "ac", "gov", "edu", "ne", "or":
			n = 3
		}
	}
	if len(labels) < n {
		return host
	}
	return strings.Join(labels[len(labels)-n:], ".")
}

// Families groups the units' APIs into families that must stay in one split: APIs
// sharing a host, hosts of one provider, near-identical names, and APIs whose
// samples share a near-duplicate cluster. It returns the family of every API and,
// for each family, what joined it.
func Families(units []Unit, nameSim float64) (map[string]string, map[string][]string) {
	return families(units, nameSim, true)
}

// families is Families, joining by provider only when byProvider is set.
func families(units []Unit, nameSim float64, byProvider bool) (map[string]string, map[string][]string) {
	if nameSim == 0 {
		nameSim = DefaultNameSimilarity
	}
	uf := &unionFind{parent: map[string]string{}}
	why := map[string]map[string]bool{}
	for _, u := range units {
		uf.parent[u.API] = u.API
	}
	link := func(a, b, reason string) {
		if uf.union(a, b) {
			for _, k := range []string{a, b} {
				if why[k] == nil {
					why[k] = map[string]bool{}
				}
				why[k][reason] = true
			}
		}
	}
	joinBy := func(key func(Unit) string, reason string) {
		first := map[string]string{}
		for _, u := range units {
			k := key(u)
			if k == "" {
				continue
			}
			if f, ok := first[k]; ok {
				link(f, u.API, reason)
			} else {
				first[k] = u.API
			}
		}
	}
	joinBy(func(u Unit) string { return strings.ToLower(u.Host) }, "host")
	if byProvider {
		joinBy(func(u Unit) string {
			if u.Provider != "" {
				return "owner:" + strings.ToLower(u.Provider)
			}
			return ProviderOfHost(u.Host)
		}, "provider")
	}
	joinBy(func(u Unit) string {
		if u.Cluster == 0 {
			return ""
		}
		return fmt.Sprint(u.Cluster)
	}, "near-duplicate cluster")

	// near-identical names, compared through an inverted index of tokens
	apis := slices.Sorted(maps.Keys(uf.parent))
	if nameSim <= 1 {
		toks := make([][]string, len(apis))
		index := map[string][]int{}
		for i, a := range apis {
			toks[i] = NameTokens(a)
			for _, t := range toks[i] {
				index[t] = append(index[t], i)
			}
		}
		for i := range apis {
			done := map[int]bool{}
			for _, t := range toks[i] {
				for _, j := range index[t] {
					if j <= i || done[j] {
						continue
					}
					done[j] = true
					if jaccard(toks[i], toks[j]) >= nameSim {
						link(apis[i], apis[j], "similar name")
					}
				}
			}
		}
	}
	fam := map[string]string{}
	reasons := map[string][]string{}
	for _, a := range apis {
		f := uf.find(a)
		fam[a] = f
		for r := range why[a] {
			if !slices.Contains(reasons[f], r) {
				reasons[f] = append(reasons[f], r)
			}
		}
	}
	for f := range reasons {
		sort.Strings(reasons[f])
	}
	return fam, reasons
}

// Assign splits units at the API level: every family of APIs goes to one split,
// and the splits' sample counts approach the ratios. The result depends only on
// the units (not their order) and the seed.
func Assign(units []Unit, opt Options) (*Plan, error) {
	if len(units) == 0 {
		return nil, store.ErrNoSamples
	}
	opt = opt.withDefaults()
	ratios := opt.Ratios
	fam, reasons := Families(units, opt.NameSimilarity)
	wanted := 0
	for _, r := range ratios {
		if r > 0 {
			wanted++
		}
	}
	var within *Within
	if n := distinct(fam); n < wanted {
		// Too few families to fill every split. A provider's APIs are different
		// services (api., archive-api. and geocoding-api. of one domain): they may
		// go to different splits, while an API, a host, near-identical names and
		// near-duplicate code still stay together.
		if fine, fineReasons := families(units, opt.NameSimilarity, false); distinct(fine) > n {
			within = &Within{Families: n, Units: distinct(fine), Splits: wanted,
				Reason: "fewer API families than splits: a provider's APIs were placed one by one; each API, host, near-identical name and near-duplicate cluster stays in one split"}
			fam, reasons = fine, fineReasons
		}
	}
	size := map[string]int{}
	fresh := map[string]int{} // samples authored on or after the cutoff, by family
	members := map[string][]string{}
	apiSeen := map[string]bool{}
	for _, u := range units {
		size[fam[u.API]]++
		if opt.TimeCutoff != "" && u.newer(opt.TimeCutoff) {
			fresh[fam[u.API]]++
		}
		if !apiSeen[u.API] {
			apiSeen[u.API] = true
			members[fam[u.API]] = append(members[fam[u.API]], u.API)
		}
	}
	names := slices.Sorted(maps.Keys(size))
	rng := rand.New(rand.NewPCG(uint64(opt.Seed), 0x5cc95e1))
	rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })

	total := float64(len(units))
	var target [3]float64
	minTarget := math.Inf(1)
	for i, r := range ratios {
		target[i] = r * total
		if target[i] > 0 {
			minTarget = min(minTarget, target[i])
		}
	}
	// Families too big to place late go first, largest first; the rest keep the
	// seeded order, so the seed decides where the many small families land.
	big := math.Max(1, minTarget/2)
	slices.SortStableFunc(names, func(a, b string) int {
		ba, bb := float64(size[a]) > big, float64(size[b]) > big
		switch {
		case ba && bb:
			return cmp.Compare(size[b], size[a])
		case ba:
			return -1
		case bb:
			return 1
		}
		return 0
	})
	var count [3]float64
	where := map[string]int{}
	const test = 2
	for _, f := range names {
		s := float64(size[f])
		best, bestDelta, bestRel := -1, math.Inf(1), math.Inf(-1)
		for i := range target {
			if target[i] == 0 {
				continue
			}
			s, loss := s, 0.0
			if i == test && opt.TimeCutoff != "" {
				// a live test split takes only a family's newer samples, and every
				// older one it leaves out counts against placing the family there
				if fresh[f] == 0 {
					continue
				}
				s, loss = float64(fresh[f]), float64(size[f]-fresh[f])
			}
			d := target[i] - count[i]
			delta := math.Abs(d-s) - math.Abs(d) + loss
			rel := d / target[i]
			if delta < bestDelta-1e-9 || (math.Abs(delta-bestDelta) <= 1e-9 && rel > bestRel) {
				best, bestDelta, bestRel = i, delta, rel
			}
		}
		if best < 0 { // only the test split has a share, and the family has nothing new
			best = test
		}
		where[f] = best
		if best == test && opt.TimeCutoff != "" {
			s = float64(fresh[f])
		}
		count[best] += s
	}
	p := &Plan{Split: map[int64]string{}, Family: map[int64]string{}, LeftOut: map[int64]string{}, Families: len(names)}
	for _, u := range units {
		f := fam[u.API]
		p.Split[u.RowID] = release.Names[where[f]]
		p.Family[u.RowID] = f
		if where[f] == test && opt.TimeCutoff != "" && !u.newer(opt.TimeCutoff) {
			p.Split[u.RowID], p.LeftOut[u.RowID] = "", u.leftOutReason(opt.TimeCutoff)
		}
	}
	p.Report = report(units, p, opt.Seed, ratios)
	if opt.TimeCutoff != "" {
		p.Report.TimeCutoff, p.Report.LeftOut = opt.TimeCutoff, map[string]int{}
		for _, why := range p.LeftOut {
			k, _, _ := strings.Cut(why, ":")
			p.Report.LeftOut[k]++
		}
		for _, u := range units {
			switch {
			case u.newer(opt.TimeCutoff):
				p.Report.Newer++
			case u.AuthoredAt == "":
				p.Report.Undated++
			}
		}
	}
	p.Report.Within = within
	p.Report.Warnings = emptySplits(p.Report)
	var largest string
	for _, f := range names {
		if largest == "" || size[f] > size[largest] || (size[f] == size[largest] && f < largest) {
			largest = f
		}
	}
	ms := append([]string(nil), members[largest]...)
	sort.Strings(ms)
	p.Report.Largest = FamilySummary{Name: largest, Samples: size[largest], APIs: ms, Why: reasons[largest]}
	if err := Verify(units, p.Split); err != nil {
		return nil, err
	}
	return p, nil
}

// distinct counts the families of a family map.
func distinct(fam map[string]string) int {
	seen := map[string]bool{}
	for _, f := range fam {
		seen[f] = true
	}
	return len(seen)
}

// emptySplits warns of every split that was meant to hold samples and holds
// none, and says what to do.
func emptySplits(r Report) []string {
	var out []string
	for _, sr := range r.Splits {
		if sr.Target == 0 || sr.Samples > 0 {
			continue
		}
		if sr.Name == release.Test && r.TimeCutoff != "" && r.Newer == 0 {
			msg := fmt.Sprintf("the test split is empty: no sample's function was authored on or after the time cutoff %s "+
				"(mine newer code, or give an earlier cutoff)", r.TimeCutoff)
			if r.Undated > 0 {
				msg += fmt.Sprintf("; %d of the %d samples have no function_authored_at (records built before sccg dated lines, "+
					"or lines that could not be dated: sccg why names the reason)", r.Undated, r.Samples)
			}
			out = append(out, msg)
			continue
		}
		groups := r.Families
		if r.Within != nil {
			groups = r.Within.Units
		}
		out = append(out, fmt.Sprintf("the %s split is empty: its share is %.1f of %d samples, and the %d APIs form %d groups that "+
			"must each stay in one split (an API with its host, provider, near-identical names and near-duplicate code), none of which "+
			"fit it; mine more APIs or repositories, or give the %s split no share (--ratios)",
			sr.Name, sr.Target*float64(r.Samples), r.Samples, r.APIs, groups, sr.Name))
	}
	return out
}

// Verify checks that no API has samples in two splits (a unit in none is left
// out).
func Verify(units []Unit, split map[int64]string) error {
	at := map[string]string{}
	var errs []error
	for _, u := range units {
		s := split[u.RowID]
		if s == "" {
			continue // left out of every split
		}
		if prev, ok := at[u.API]; ok && prev != s {
			errs = append(errs, fmt.Errorf("API %s is in both %s and %s", u.API, prev, s))
			continue
		}
		at[u.API] = s
	}
	return errors.Join(errs...)
}

// report describes how the units of plan p are spread over the splits.
func report(units []Unit, p *Plan, seed int64, ratios [3]float64) Report {
	r := Report{Seed: seed, Ratios: ratios[:], Samples: len(units), Families: p.Families}
	apis := map[string]bool{}
	per := map[string]*SplitReport{}
	fams := map[string]map[string]bool{}
	apisIn := map[string]map[string]bool{}
	for i, n := range release.Names {
		per[n] = &SplitReport{Name: n, Target: round(ratios[i], 4), DocMatchType: map[string]int{}, CommentsSource: map[string]int{}, Methods: map[string]int{}}
		fams[n], apisIn[n] = map[string]bool{}, map[string]bool{}
	}
	for _, u := range units {
		apis[u.API] = true
		n := p.Split[u.RowID]
		sr := per[n]
		if sr == nil {
			continue // left out of every split
		}
		sr.Samples++
		sr.DocMatchType[orUnknown(u.DocMatchType)]++
		sr.CommentsSource[orUnknown(u.CommentsSource)]++
		sr.Methods[orUnknown(strings.ToUpper(u.Method))]++
		fams[n][p.Family[u.RowID]] = true
		apisIn[n][u.API] = true
	}
	r.APIs = len(apis)
	for _, n := range release.Names {
		sr := per[n]
		sr.APIs, sr.Families = len(apisIn[n]), len(fams[n])
		if len(units) > 0 {
			sr.Share = round(float64(sr.Samples)/float64(len(units)), 4)
		}
		r.Splits = append(r.Splits, *sr)
	}
	return r
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func round(x float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(x*p) / p
}
