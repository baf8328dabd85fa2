package evaluate

import (
	"fmt"
	"slices"
	"strings"

	"sccg/internal/route"
)

// The attribution of a completion whose prompt showed endpoint documents (the
// RAG and oracle settings): where grounding failed, if it did.
const (
	// AttrHit: a Mock hit.
	AttrHit = "hit"
	// AttrRetrievalMiss: the gold endpoint was not among the documents shown.
	AttrRetrievalMiss = "retrieval_miss"
	// AttrSelectionMiss: it was shown, and the code called another endpoint
	// (shown or not) or none.
	AttrSelectionMiss = "selection_miss"
	// AttrGenerationMiss: it was shown and the code called it (its route), and
	// still missed: the method, or the host's spelling. (Parameters never fail
	// Mock; ParamF1 measures them.)
	AttrGenerationMiss = "generation_miss"
)

// Attributions lists the attributions, in the order the tables give them.
var Attributions = []string{AttrHit, AttrRetrievalMiss, AttrSelectionMiss, AttrGenerationMiss}

// Why a completion gets no attribution; each is counted, never dropped silently.
const (
	UnattributedNoPrompt   = "no prompt in the prompts file for its setting and sample"
	UnattributedNoDocs     = "its prompt shows no documents"
	UnattributedHostOnly   = "its prompt's documents name no endpoint (a host only)"
	UnattributedNoEndpoint = "its label names no endpoint"
)

// ShownDoc is an endpoint document a prompt showed, as attribution compares it
// with the ground truth: the source's endpoint id, host, method and route.
type ShownDoc struct {
	Key    string `json:"key,omitempty"`
	Host   string `json:"host"`
	Method string `json:"method,omitempty"`
	Route  string `json:"route,omitempty"`
}

// Shown is what one prompt showed.
type Shown struct {
	// Docs are the endpoint documents it showed, best first.
	Docs []ShownDoc `json:"docs"`
	// Retrieved is true when a retriever chose them (a RAG setting): a prompt
	// whose retriever found none missed at retrieval.
	Retrieved bool `json:"retrieved,omitempty"`
}

// ShownKey is the key of Config.Shown for a setting's prompt of a sample.
func ShownKey(setting, sampleID string) string { return setting + "\x1f" + sampleID }

// AttributionCounts count a group's completions by attribution. Hit,
// RetrievalMiss, SelectionMiss, GenerationMiss and the Unattributed (by reason)
// add up to N, every completion of the group.
type AttributionCounts struct {
	N              int            `json:"n"`
	Hit            int            `json:"hit"`
	RetrievalMiss  int            `json:"retrieval_miss"`
	SelectionMiss  int            `json:"selection_miss"`
	GenerationMiss int            `json:"generation_miss"`
	Unattributed   map[string]int `json:"unattributed,omitempty"`
}

// Count is the number of completions with attribution a.
func (c *AttributionCounts) Count(a string) int {
	switch a {
	case AttrHit:
		return c.Hit
	case AttrRetrievalMiss:
		return c.RetrievalMiss
	case AttrSelectionMiss:
		return c.SelectionMiss
	case AttrGenerationMiss:
		return c.GenerationMiss
	}
	return 0
}

// Attributed is the number of completions with an attribution.
func (c *AttributionCounts) Attributed() int {
	return c.Hit + c.RetrievalMiss + c.SelectionMiss + c.GenerationMiss
}

// AddsUp reports whether the attributed and unattributed completions are N.
func (c *AttributionCounts) AddsUp() bool {
	n := c.Attributed()
	for _, k := range c.Unattributed {
		n += k
	}
	return n == c.N
}

func (c *AttributionCounts) add(r Result) {
	c.N++
	switch r.Attribution {
	case AttrHit:
		c.Hit++
	case AttrRetrievalMiss:
		c.RetrievalMiss++
	case AttrSelectionMiss:
		c.SelectionMiss++
	case AttrGenerationMiss:
		c.GenerationMiss++
	default:
		if c.Unattributed == nil {
			c.Unattributed = map[string]int{}
		}
		c.Unattributed[r.AttributionNote]++
	}
}

// attributeAll labels every result with what its prompt showed (shown, by
// ShownKey); results is changed in place.
func attributeAll(results []Result, samples map[string]*sampleInfo, shown map[string]Shown) {
	for i := range results {
		r := &results[i]
		sh, prompted := shown[ShownKey(r.Setting, r.SampleID)]
		var truth GroundTruth
		endpointID := ""
		if s := samples[r.SampleID]; s != nil {
			truth, endpointID = s.truth, s.rec.APIMetadata.EndpointID
		}
		r.Attribution, r.AttributionNote, r.ShownRank = attribute(r, &truth, endpointID, sh, prompted)
	}
}

// attribute labels one scored completion: its attribution (or "" and why it has
// none), a note saying what it was, and the rank (from 1) of the gold endpoint
// among the documents shown (0 when it was not shown).
func attribute(r *Result, t *GroundTruth, endpointID string, sh Shown, prompted bool) (string, string, int) {
	docs := sh.Docs
	switch {
	case !prompted:
		return "", UnattributedNoPrompt, 0
	case len(docs) == 0 && !sh.Retrieved:
		return "", UnattributedNoDocs, 0
	case !t.HasEndpoint():
		// scored on host and method alone, apart from the tables' samples
		return "", UnattributedNoEndpoint, 0
	case len(docs) > 0 && !slices.ContainsFunc(docs, func(d ShownDoc) bool { return d.Route != "" }):
		return "", UnattributedHostOnly, 0
	}
	rank := 0
	for i, d := range docs {
		if isGoldDoc(d, t, endpointID) {
			rank = i + 1
			break
		}
	}
	if r.Mock == 1 {
		return AttrHit, "", rank
	}
	if rank == 0 && len(docs) == 0 {
		return AttrRetrievalMiss, "the retriever found no document to show", 0
	}
	if rank == 0 {
		note := fmt.Sprintf("its endpoint (%s %s) is not among the %d documents shown", t.Method, t.Route, len(docs))
		for _, d := range docs {
			if onHost(d.Host, t) && sameTemplate(d.Route, t.Route) {
				note += fmt.Sprintf("; its route was shown with the method %s", d.Method)
				break
			}
		}
		return AttrRetrievalMiss, note, 0
	}
	if len(r.Requests) == 0 {
		why := "the code sent no request"
		if r.Syntax == 0 {
			why = "the code does not parse"
		}
		return AttrSelectionMiss, why, rank
	}
	// a request to the gold route: on a gold host with another method, or on
	// another host that no shown document names
	for _, c := range r.Requests {
		if t.route == nil || !t.route.Match(c.Path) {
			continue
		}
		if onHost(c.Host, t) {
			return AttrGenerationMiss, fmt.Sprintf("it called its endpoint with the method %s, not %s", c.Method, t.Method), rank
		}
		if _, ok := shownCall(docs, c); !ok {
			return AttrGenerationMiss, fmt.Sprintf("it called its route on the host %s, not %s", c.Host, strings.Join(t.Hosts, " or ")), rank
		}
	}
	for _, c := range r.Requests {
		if d, ok := shownCall(docs, c); ok {
			return AttrSelectionMiss, fmt.Sprintf("it called another shown endpoint (%s %s%s)", d.Method, d.Host, d.Route), rank
		}
	}
	c := r.Requests[0]
	return AttrSelectionMiss, fmt.Sprintf("it called an endpoint not shown (%s %s%s)", c.Method, c.Host, c.Path), rank
}

// isGoldDoc reports whether a shown document is the gold endpoint: on a gold
// host, with the label's endpoint id, or with its method and route template.
func isGoldDoc(d ShownDoc, t *GroundTruth, endpointID string) bool {
	if !onHost(d.Host, t) {
		return false
	}
	if endpointID != "" && d.Key == endpointID {
		return true
	}
	return d.Route != "" && strings.EqualFold(d.Method, t.Method) && sameTemplate(d.Route, t.Route)
}

func onHost(h string, t *GroundTruth) bool { return slices.Contains(t.Hosts, normHost(h)) }

// sameTemplate reports whether two route templates name the same endpoint: each
// matches the other, so their literals agree and their holes are in the same
// places, whatever the holes are called.
func sameTemplate(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	return route.Compile(a).Match(b) && route.Compile(b).Match(a)
}

// shownCall finds the shown document a request calls: its host and method, and
// a route template its path fits.
func shownCall(docs []ShownDoc, c Captured) (ShownDoc, bool) {
	for _, d := range docs {
		if d.Route != "" && normHost(d.Host) == c.Host && strings.EqualFold(d.Method, c.Method) && route.Compile(d.Route).Match(c.Path) {
			return d, true
		}
	}
	return ShownDoc{}, false
}
