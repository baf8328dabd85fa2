package prompts

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"sccg/evaluate"
	"sccg/evaluate/answer"
	"sccg/internal/atomicfile"
	"sccg/lang"
	"sccg/release"
)

// candidates are the gold doc and up to max-1 other endpoints of the same API (the
// docs on its host), in an order fixed by the sample id.
func candidates(cat *Catalog, r release.Record, gold Doc, max int) []Candidate {
	var others []Doc
	for _, d := range cat.OnHost(gold.Host) {
		if docKey(d) != docKey(gold) {
			others = append(others, d)
		}
	}
	slices.SortStableFunc(others, func(a, b Doc) int { return cmp.Compare(docKey(a), docKey(b)) })
	h := fnv.New64a()
	h.Write([]byte(r.SampleID))
	rng := rand.New(rand.NewPCG(h.Sum64(), 0x5e1ec7))
	rng.Shuffle(len(others), func(i, j int) { others[i], others[j] = others[j], others[i] })
	if len(others) > max-1 {
		others = others[:max-1]
	}
	docs := append(others, gold)
	rng.Shuffle(len(docs), func(i, j int) { docs[i], docs[j] = docs[j], docs[i] })
	out := make([]Candidate, len(docs))
	for i, d := range docs {
		out[i] = Candidate{ID: fmt.Sprintf("E%d", i+1), Doc: d}
	}
	return out
}

func selectMessages(intent, fn string, cands []Candidate) []Message {
	var b strings.Builder
	b.WriteString("Task:\n" + intent + "\n\nFunction name: " + fn + "\n\nCandidate endpoints:\n")
	for _, c := range cands {
		fmt.Fprintf(&b, "\n[%s]\n%s", c.ID, Render(c.Doc))
	}
	return []Message{{Role: "system", Content: selectSystemPrompt}, {Role: "user", Content: strings.TrimRight(b.String(), "\n")}}
}

var idRE = regexp.MustCompile(`\bE\d+\b`)

// ParseRanking reads a selection answer: JSON {"ranking": [...]} (or a bare list,
// or {"endpoint": id}), possibly fenced or with prose around it; failing JSON, the
// candidate ids in the order they appear. how says which: json, ids or none. An
// empty JSON ranking is a parsed answer that ranks nothing.
func ParseRanking(reply string) (ids []string, how string) {
	text := answer.Extract(reply, "", lang.Python).Text
	for _, cand := range []string{text, reply} {
		for _, open := range []string{"{", "["} {
			i := strings.Index(cand, open)
			if i < 0 {
				continue
			}
			dec := json.NewDecoder(strings.NewReader(cand[i:]))
			var v any
			if dec.Decode(&v) != nil {
				continue
			}
			if got, ok := rankingOf(v); ok {
				return got, "json"
			}
		}
	}
	for _, id := range idRE.FindAllString(reply, -1) {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	if len(ids) > 0 {
		return ids, "ids"
	}
	return nil, "none"
}

// rankingOf reads the ids of a decoded JSON answer; ok is false when it has none
// of the shapes an answer takes.
func rankingOf(v any) ([]string, bool) {
	switch x := v.(type) {
	case []any:
		out := []string{}
		for _, it := range x {
			if s, ok := it.(string); ok && !slices.Contains(out, strings.TrimSpace(s)) {
				out = append(out, strings.TrimSpace(s))
			}
		}
		return out, len(out) == len(x)
	case map[string]any:
		for _, k := range []string{"ranking", "ranked", "candidates", "endpoints", "ids"} {
			if l, ok := x[k].([]any); ok {
				return rankingOf(l)
			}
		}
		for _, k := range []string{"endpoint", "id", "answer", "choice", "best"} {
			if s, ok := x[k].(string); ok && s != "" {
				return []string{strings.TrimSpace(s)}, true
			}
		}
	}
	return nil, false
}

// GoldCandidate is the id of the selection prompt's candidate that documents the
// record's ground truth.
func GoldCandidate(r release.Record, p Prompt) (string, bool) {
	docs := make([]Doc, len(p.Candidates))
	for i, c := range p.Candidates {
		docs[i] = c.Doc
	}
	gold, ok := NewCatalog("candidates", docs).Gold(r)
	if !ok {
		return "", false
	}
	for _, c := range p.Candidates {
		if docKey(c.Doc) == docKey(gold) {
			return c.ID, true
		}
	}
	return "", false
}

// SelectionResult is one scored selection answer.
type SelectionResult struct {
	SampleID    string   `json:"sample_id"`
	Setting     string   `json:"setting"`
	Model       string   `json:"model"`
	SampleIndex int      `json:"sample_index"`
	Gold        string   `json:"gold"` // the gold candidate's id
	Ranking     []string `json:"ranking"`
	Parse       string   `json:"parse"` // json | ids | none
	Candidates  int      `json:"candidates"`
	Top1        float64  `json:"top1"`
	Top3        float64  `json:"top3"`
}

// SelectionGroup summarizes one (setting, model).
type SelectionGroup struct {
	Setting   string  `json:"setting"`
	Model     string  `json:"model"`
	N         int     `json:"n"`
	Top1      float64 `json:"top1"`
	Top3      float64 `json:"top3"`
	Unparsed  int     `json:"unparsed"`
	MeanCands float64 `json:"mean_candidates"`
}

// SelectionOutput is what ScoreSelection produces.
type SelectionOutput struct {
	Results  []SelectionResult `json:"-"`
	Groups   []SelectionGroup  `json:"groups"`
	Problems []string          `json:"problems,omitempty"`
}

// ScoreSelection scores answers of the endpoint-selection task: Top-1 (the gold
// candidate ranked first) and Top-3 (among the first three). The gold candidate is
// the one documenting the record's ground truth.
func ScoreSelection(bench []release.Record, ps []Prompt, gens []evaluate.Generation) (*SelectionOutput, error) {
	recs := map[string]release.Record{}
	for _, r := range bench {
		recs[r.SampleID] = r
	}
	byID := map[string]Prompt{}
	for _, p := range ps {
		if p.Task == TaskSelect {
			byID[p.SampleID] = p
		}
	}
	if len(byID) == 0 {
		return nil, fmt.Errorf("score selection: no %s prompts", TaskSelect)
	}
	out := &SelectionOutput{}
	type gk struct{ setting, model string }
	agg := map[gk]*SelectionGroup{}
	var order []gk
	for _, g := range gens {
		p, ok := byID[g.SampleID]
		r, okr := recs[g.SampleID]
		if !ok || !okr {
			out.Problems = append(out.Problems, fmt.Sprintf("generation %s/%s #%d: no selection prompt or record for %q; skipped", g.Setting, g.Model, g.SampleIndex, g.SampleID))
			continue
		}
		goldID, ok := GoldCandidate(r, p)
		if !ok {
			out.Problems = append(out.Problems, fmt.Sprintf("%s: no candidate documents its ground truth; skipped", g.SampleID))
			continue
		}
		res := SelectionResult{SampleID: g.SampleID, Setting: g.Setting, Model: g.Model, SampleIndex: g.SampleIndex,
			Candidates: len(p.Candidates), Ranking: []string{}, Gold: goldID}
		ids, how := ParseRanking(g.Completion)
		res.Parse = how
		if ids != nil {
			res.Ranking = ids
		}
		for i, id := range ids {
			if id == res.Gold {
				if i == 0 {
					res.Top1 = 1
				}
				if i < 3 {
					res.Top3 = 1
				}
				break
			}
		}
		out.Results = append(out.Results, res)
		k := gk{g.Setting, g.Model}
		a := agg[k]
		if a == nil {
			a = &SelectionGroup{Setting: g.Setting, Model: g.Model}
			agg[k] = a
			order = append(order, k)
		}
		a.N++
		a.Top1 += res.Top1
		a.Top3 += res.Top3
		a.MeanCands += float64(res.Candidates)
		if how == "none" {
			a.Unparsed++
		}
	}
	slices.SortFunc(order, func(a, b gk) int { return cmp.Or(cmp.Compare(a.setting, b.setting), cmp.Compare(a.model, b.model)) })
	for _, k := range order {
		a := *agg[k]
		n := float64(a.N)
		a.Top1, a.Top3, a.MeanCands = a.Top1/n, a.Top3/n, a.MeanCands/n
		out.Groups = append(out.Groups, a)
	}
	slices.SortStableFunc(out.Results, func(a, b SelectionResult) int {
		return cmp.Or(cmp.Compare(a.Model, b.Model), cmp.Compare(a.SampleID, b.SampleID), cmp.Compare(a.SampleIndex, b.SampleIndex))
	})
	return out, nil
}

// WriteSelectionTable renders the selection summary as a Markdown table with
// Wilson 95% intervals.
func WriteSelectionTable(w io.Writer, groups []SelectionGroup) error {
	var b strings.Builder
	b.WriteString("### Endpoint selection (%, Wilson 95% interval)\n\n")
	b.WriteString("| Model | N | Candidates (mean) | Top-1 | Top-3 | Unparsed |\n| --- | ---: | ---: | --- | --- | ---: |\n")
	for _, g := range groups {
		fmt.Fprintf(&b, "| %s | %d | %.1f | %s | %s | %d |\n", g.Model, g.N, g.MeanCands,
			evaluate.FormatRate(g.Top1, g.N), evaluate.FormatRate(g.Top3, g.N), g.Unparsed)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteSelectionOutputs writes DIR/selection.jsonl (one scored answer a line),
// DIR/selection.json (the groups) and DIR/tables.md.
func WriteSelectionOutputs(dir string, out *SelectionOutput) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write selection results: %w", err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, r := range out.Results {
		if err := enc.Encode(r); err != nil {
			return fmt.Errorf("encode selection result %s: %w", r.SampleID, err)
		}
	}
	sj, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return fmt.Errorf("encode selection summary: %w", err)
	}
	var t bytes.Buffer
	if err := WriteSelectionTable(&t, out.Groups); err != nil {
		return err
	}
	for name, data := range map[string][]byte{"selection.jsonl": b.Bytes(), "selection.json": append(sj, '\n'), "tables.md": t.Bytes()} {
		if err := atomicfile.Write(filepath.Join(dir, name), data); err != nil {
			return err
		}
	}
	return nil
}
