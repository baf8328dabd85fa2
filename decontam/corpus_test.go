package decontam_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"sccg/align"
	"sccg/decontam"
	"sccg/lang/python"
	"sccg/minhash"
	"sccg/secrets"
	"sccg/store"
)

const corpusDir = "../internal/replay/testdata"

// corpusLabel is one ground-truth entry of the synthetic GitHub corpus.
type corpusLabel struct {
	Repo            string  `json:"repo"`
	Path            string  `json:"path"`
	Function        string  `json:"function"`
	Host            *string `json:"host"`
	Method          *string `json:"method"`
	Route           *string `json:"route"`
	ExpectedMatch   string  `json:"expected_match"`
	Template        bool    `json:"template"`
	TemplateReason  *string `json:"template_reason"`
	DuplicateOf     *string `json:"duplicate_of"`
	NearDuplicateOf *string `json:"near_duplicate_of"`
	HasSecret       bool    `json:"has_hardcoded_secret"`
}

func (l corpusLabel) key() string { return l.Repo + ":" + l.Path + ":" + l.Function }

// corpusStore loads the synthetic catalog and corpus into a fresh store: APIs and
// endpoints from catalog.json, each repository from repo.json, each Python file
// extracted with the Python frontend as the extract stage would.
func corpusStore(t testing.TB) (*store.Store, map[int64]string) {
	t.Helper()
	ctx := context.Background()
	if _, err := os.Stat(filepath.Join(corpusDir, "github", "labels.json")); err != nil {
		t.Skip("synthetic corpus not present")
	}
	s, err := store.Open(ctx, filepath.Join(t.TempDir(), "corpus.db"), store.WithClock(func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	var cat struct {
		APIs []struct {
			Owner, Slug, Title, Category, Host string
			Endpoints                          []struct {
				Method, Route, Name string
				Params              []struct {
					Name, In, Type string
					Required       bool
				}
			}
		} `json:"apis"`
	}
	b, err := os.ReadFile(filepath.Join(corpusDir, "catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &cat); err != nil {
		t.Fatal(err)
	}
	keyOf := map[int64]string{} // function id → label key
	err = s.Update(ctx, func(tx *store.Tx) error {
		for _, a := range cat.APIs {
			var eps []store.Endpoint
			for _, e := range a.Endpoints {
				ep := store.Endpoint{Host: a.Host, Method: e.Method, Route: e.Route, Name: e.Name, IsCurrent: true, Version: "v1"}
				for _, p := range e.Params {
					ep.Params = append(ep.Params, store.Param{Name: p.Name, Location: p.In, Type: p.Type, Required: p.Required})
				}
				eps = append(eps, ep)
			}
			if _, err := tx.SaveAPI(ctx, &store.API{Source: "rapidapi", Owner: a.Owner, Slug: a.Slug, Title: a.Title,
				Category: a.Category, Host: a.Host, Version: "v1", CrawledAt: tx.Now()}, eps); err != nil {
				return err
			}
		}
		repoDirs, _ := filepath.Glob(filepath.Join(corpusDir, "github", "repos", "*", "*"))
		sort.Strings(repoDirs)
		for _, dir := range repoDirs {
			var rj struct {
				FullName    string   `json:"full_name"`
				Description string   `json:"description"`
				Topics      []string `json:"topics"`
				Stars       int      `json:"stargazers_count"`
				Forks       int      `json:"forks_count"`
				CreatedAt   string   `json:"created_at"`
			}
			b, err := os.ReadFile(filepath.Join(dir, "repo.json"))
			if err != nil {
				continue
			}
			if err := json.Unmarshal(b, &rj); err != nil {
				return fmt.Errorf("%s: %w", dir, err)
			}
			rid, err := tx.UpsertRepository(ctx, &store.Repository{FullName: rj.FullName, Source: "github", Description: rj.Description,
				Topics: rj.Topics, Stars: rj.Stars, Forks: rj.Forks, CreatedAt: rj.CreatedAt, FetchedAt: tx.Now()})
			if err != nil {
				return err
			}
			root := filepath.Join(dir, "files")
			err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(p, ".py") {
					return err
				}
				content, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(root, p)
				rel = filepath.ToSlash(rel)
				fid, err := tx.SaveFile(ctx, &store.File{RepoID: rid, Path: rel, FoundAt: tx.Now()}, content)
				if err != nil {
					return err
				}
				res, err := python.Extract(ctx, content, python.Options{Stars: rj.Stars, Forks: rj.Forks})
				if err != nil {
					return nil // the extractor's failures are its own tests' business
				}
				var fns []store.Function
				for _, f := range res.Functions {
					facts, _ := json.Marshal(f.Facts)
					fns = append(fns, store.Function{Name: f.Name, QualName: f.QualName, ClassName: f.ClassName, StartLine: f.StartLine,
						EndLine: f.EndLine, IsAsync: f.IsAsync, Source: f.Source, Code: f.Code, CodeHash: f.CodeHash,
						SyntaxOK: f.Facts.SyntaxOK, Status: f.Status, RejectReason: f.RejectReason, Quality: f.Facts.Quality.Score, Facts: facts})
				}
				if err := tx.SaveFunctions(ctx, fid, fns); err != nil {
					return err
				}
				for _, f := range fns {
					keyOf[f.ID] = rj.FullName + ":" + rel + ":" + f.QualName
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s, keyOf
}

func corpusLabels(t testing.TB) map[string]corpusLabel {
	b, err := os.ReadFile(filepath.Join(corpusDir, "github", "labels.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ls struct{ Functions []corpusLabel }
	if err := json.Unmarshal(b, &ls); err != nil {
		t.Fatal(err)
	}
	out := map[string]corpusLabel{}
	for _, l := range ls.Functions {
		out[l.key()] = l
	}
	return out
}

// TestCorpusAlignDecontam runs align and decontam over the synthetic corpus and
// measures them against its labels: alignment agreement, the template detector's
// precision and recall, duplicate clusters, and that no labeled secret survives.
// Slow: the whole corpus through two stages (3 s under the race detector).
func TestCorpusAlignDecontam(t *testing.T) {
	if testing.Short() {
		t.Skip("runs align and decontam over the whole synthetic corpus")
	}
	ctx := context.Background()
	s, keyOf := corpusStore(t)
	labels := corpusLabels(t)
	ares, err := align.Run(ctx, s, align.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := decontam.Run(ctx, s, decontam.Options{DecideOptions: decontam.DecideOptions{Caps: decontam.CapOptions{PerRepo: -1, PerAPI: -1}}})
	if err != nil {
		t.Fatal(err)
	}
	idOf := map[string]int64{}
	for id, k := range keyOf {
		idOf[k] = id
	}

	// Alignment against expected_match, host, route and method.
	prims, _ := s.PrimaryAlignments(ctx)
	prim := map[int64]store.Alignment{}
	for _, a := range prims {
		prim[a.FunctionID] = a
	}
	var labeled, found, typeOK, routeOK int
	for k, l := range labels {
		if l.ExpectedMatch == "none" || l.Host == nil {
			continue
		}
		labeled++
		id, ok := idOf[k]
		if !ok {
			continue
		}
		a, ok := prim[id]
		if !ok {
			ds, _ := s.Decisions(ctx, "function", fmt.Sprint(id))
			var why []string
			for _, d := range ds {
				if d.Stage == align.Stage {
					why = append(why, fmt.Sprintf("%s %v", d.Reason, d.Evidence))
				}
			}
			t.Logf("not aligned: %s (expected %s): %s", k, l.ExpectedMatch, why)
			continue
		}
		found++
		if a.DocMatchType == l.ExpectedMatch {
			typeOK++
		} else {
			t.Logf("match type %s, label %s: %s", a.DocMatchType, l.ExpectedMatch, k)
		}
		if l.Route == nil || (a.Route == *l.Route && a.Host == *l.Host && (l.Method == nil || a.Method == *l.Method)) {
			routeOK++
		} else {
			t.Logf("endpoint %s %s %s, label %s %s %s: %s", a.Host, a.Method, a.Route, *l.Host, deref(l.Method), *l.Route, k)
		}
	}
	t.Logf("alignment: %d labeled request functions, %d aligned, doc_match_type agrees on %d, host+route+method on %d",
		labeled, found, typeOK, routeOK)

	// Template detector.
	verdict := map[int64]decontam.Verdict{}
	for _, v := range res.Verdicts {
		verdict[v.FunctionID] = v
	}
	var tp, fp, fn, tn int
	for k, l := range labels {
		id, ok := idOf[k]
		v, judged := verdict[id]
		pred := ok && judged && v.Template
		switch {
		case pred && l.Template:
			tp++
		case pred && !l.Template:
			fp++
			t.Logf("false template: %s %v", k, v.Signals)
		case !pred && l.Template:
			fn++
			t.Logf("missed template (%v): %s extracted=%v judged=%v", deref(l.TemplateReason), k, ok, judged)
		default:
			tn++
		}
	}
	precision := float64(tp) / float64(max(tp+fp, 1))
	recall := float64(tp) / float64(max(tp+fn, 1))
	t.Logf("template detector: tp=%d fp=%d fn=%d tn=%d precision=%.3f recall=%.3f signals=%v", tp, fp, fn, tn, precision, recall, res.Signals)
	if tp+fn > 0 && (precision < 0.9 || recall < 0.9) {
		t.Errorf("template detector precision %.3f recall %.3f, want both ≥ 0.9", precision, recall)
	}

	// Duplicate clusters.
	des, _ := s.Dedup(ctx)
	cluster := map[int64]int64{}
	for _, d := range des {
		cluster[d.FunctionID] = d.Cluster
	}
	var pairs, pairsOK, reachable, reachableOK int
	wantTogether := map[[2]int64]bool{}
	for k, l := range labels {
		for _, of := range []*string{l.DuplicateOf, l.NearDuplicateOf} {
			if of == nil {
				continue
			}
			pairs++
			a, b := idOf[k], idOf[*of]
			wantTogether[[2]int64{min(a, b), max(a, b)}] = true
			together := a != 0 && b != 0 && cluster[a] != 0 && cluster[a] == cluster[b]
			if j := pairJaccard(ctx, s, a, b, true); j >= 0.85 {
				reachable++
				if together {
					reachableOK++
				}
			}
			if together {
				pairsOK++
			} else {
				t.Logf("duplicate pair not clustered: %s ~ %s (Jaccard of code %.2f, of source %.2f)", k, *of,
					pairJaccard(ctx, s, a, b, false), pairJaccard(ctx, s, a, b, true))
			}
		}
	}
	// Clusters that join functions no label relates.
	members := map[int64][]int64{}
	for f, c := range cluster {
		members[c] = append(members[c], f)
	}
	falseMerges := 0
	for _, ms := range members {
		for i := range ms {
			for j := range ms[:i] {
				a, b := min(ms[i], ms[j]), max(ms[i], ms[j])
				_, la := labels[keyOf[a]]
				_, lb := labels[keyOf[b]]
				if la && lb && !wantTogether[[2]int64{a, b}] && !relatedViaLabels(labels, keyOf[a], keyOf[b]) {
					falseMerges++
					t.Logf("unlabeled merge: %s ~ %s", keyOf[a], keyOf[b])
				}
			}
		}
	}
	t.Logf("dedup: %d aligned functions, %d clusters, %d exact copies in %d groups, %d near-duplicates in %d clusters; labeled pairs %d/%d clustered; %d unlabeled merges",
		ares.Dedup.Functions, ares.Dedup.Clusters, ares.Dedup.ExactDropped, ares.Dedup.ExactGroups, ares.Dedup.NearDropped,
		ares.Dedup.NearClusters, pairsOK, pairs, falseMerges)
	if reachableOK != reachable {
		t.Errorf("%d of %d labeled duplicate pairs at Jaccard ≥ 0.85 clustered, want all", reachableOK, reachable)
	}
	if falseMerges > 0 {
		t.Errorf("%d clusters join labeled functions that are not duplicates", falseMerges)
	}

	// Every kept function is free of findings; labeled secrets were redacted.
	kept, _ := s.KeptFunctions(ctx)
	sc := secrets.NewScanner(python.Frontend{}, "")
	secretsKept, secretsRedacted := 0, 0
	for _, k := range kept {
		if l, ok := labels[keyOf[k.FunctionID]]; ok && !l.HasSecret && string(k.Redactions) != "[]" {
			t.Logf("redacted without a labeled secret: %s %s", keyOf[k.FunctionID], k.Redactions)
		}
		if l, ok := labels[keyOf[k.FunctionID]]; ok && l.HasSecret {
			secretsKept++
			if string(k.Redactions) != "[]" {
				secretsRedacted++
			} else {
				t.Errorf("labeled secret not redacted in kept %s", keyOf[k.FunctionID])
			}
		}
		fs, err := sc.Find(ctx, []byte(k.Code))
		if err != nil || len(fs) > 0 {
			t.Errorf("kept function %s still has %d findings (%v)", keyOf[k.FunctionID], len(fs), err)
		}
		if _, ffs, err := secrets.RedactJSON(k.Facts); err != nil || len(ffs) > 0 {
			t.Errorf("kept facts of %s still have %d findings (%v)", keyOf[k.FunctionID], len(ffs), err)
		}
	}
	t.Logf("secrets: %d kept functions labeled with a hard-coded secret, %d redacted", secretsKept, secretsRedacted)
	t.Logf("decontam: %d candidates, %d kept, %d rejected %v, redactions %v in %d functions", res.Candidates, res.Kept, res.Rejected, res.Reasons, res.Redactions, res.Redacted)
}

// relatedViaLabels reports whether two functions are duplicates through a chain of
// labels (both copies of a third).
func relatedViaLabels(labels map[string]corpusLabel, a, b string) bool {
	root := func(k string) string {
		for i := 0; i < 10; i++ {
			l, ok := labels[k]
			if !ok {
				return k
			}
			switch {
			case l.DuplicateOf != nil:
				k = *l.DuplicateOf
			case l.NearDuplicateOf != nil:
				k = *l.NearDuplicateOf
			default:
				return k
			}
		}
		return k
	}
	return root(a) == root(b)
}

// pairJaccard is the exact Jaccard similarity of two functions' token 5-gram
// shingles, over their self-contained code or their source as written.
func pairJaccard(ctx context.Context, s *store.Store, a, b int64, source bool) float64 {
	fa, err1 := s.Function(ctx, a)
	fb, err2 := s.Function(ctx, b)
	if err1 != nil || err2 != nil {
		return 0
	}
	ta, tb := fa.Code, fb.Code
	if source {
		ta, tb = fa.Source, fb.Source
	}
	return minhash.Jaccard(minhash.Shingles(minhash.Tokens(ta), 5), minhash.Shingles(minhash.Tokens(tb), 5))
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
