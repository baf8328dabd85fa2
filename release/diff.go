package release

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"
)

// CodeKey is a sample's code identity: the function of a file of a repository at
// a commit. Two releases' samples with one key are the same code.
type CodeKey struct {
	Repo     string `json:"repo"`
	Commit   string `json:"commit"`
	File     string `json:"file"`
	Function string `json:"function"`
}

// String is the key on one line: repository@commit:file:function (the commit
// cut to 12 characters).
func (k CodeKey) String() string {
	c := k.Commit
	if len(c) > 12 {
		c = c[:12]
	}
	return k.Repo + "@" + c + ":" + k.File + ":" + k.Function
}

// KeyOf is a record's code identity: its repository (lower-cased), the commit it
// was read at (github_info.commit_sha, else the ref of its file_url), its file and
// its function (source_lines.qualname, else function_name).
func KeyOf(r *Record) CodeKey {
	gi := &r.GitHubInfo
	k := CodeKey{Repo: strings.ToLower(gi.Repo), File: gi.FilePath, Function: r.FunctionName}
	if raw, ok := gi.Extra["commit_sha"]; ok {
		_ = json.Unmarshal(raw, &k.Commit)
	}
	if k.Commit == "" {
		if _, rest, ok := strings.Cut(gi.FileURL, "/blob/"); ok {
			k.Commit, _, _ = strings.Cut(rest, "/")
		}
	}
	var lines struct {
		QualName string `json:"qualname"`
	}
	if raw, ok := r.Extra["source_lines"]; ok && json.Unmarshal(raw, &lines) == nil && lines.QualName != "" {
		k.Function = lines.QualName
	}
	return k
}

// Label is what a sample is labelled with: its API and ground truth.
type Label struct {
	API    string `json:"api"`
	Host   string `json:"host"`
	Method string `json:"method"`
	Route  string `json:"route"`
}

func labelOf(r *Record) Label {
	return Label{API: APIKey(r), Host: strings.ToLower(r.APIHost), Method: strings.ToUpper(r.APIMetadata.Method), Route: r.APIMetadata.Route}
}

// DiffEntry is one code identity as two releases hold it, with both sides'
// sample ids and labels (a side that does not hold it is empty).
type DiffEntry struct {
	Code  CodeKey `json:"code"`
	OldID string  `json:"old_sample_id,omitempty"`
	NewID string  `json:"new_sample_id,omitempty"`
	Old   *Label  `json:"old_label,omitempty"`
	New   *Label  `json:"new_label,omitempty"`
	// Changed names what a relabelling changed: host, route, method.
	Changed []string `json:"changed,omitempty"`
}

// Diff is what changed between two releases: their samples matched by code
// identity (KeyOf) and listed as added (only in the new), retired (only in the
// old), relabelled (host, route or method changed) and unchanged.
type Diff struct {
	Old        string      `json:"old"`
	New        string      `json:"new"`
	OldSamples int         `json:"old_samples"`
	NewSamples int         `json:"new_samples"`
	Added      []DiffEntry `json:"added"`
	Retired    []DiffEntry `json:"retired"`
	Relabelled []DiffEntry `json:"relabelled"`
	Unchanged  []DiffEntry `json:"unchanged"`
}

// Compare matches the samples of two releases by code identity. Where one code
// identity has several samples, those with equal labels are paired first, the
// rest in sample_id order. Every list is in code identity order.
func Compare(oldRecs, newRecs []Record) *Diff {
	d := &Diff{OldSamples: len(oldRecs), NewSamples: len(newRecs), Added: []DiffEntry{}, Retired: []DiffEntry{},
		Relabelled: []DiffEntry{}, Unchanged: []DiffEntry{}}
	type side struct{ old, new []*Record }
	byKey := map[CodeKey]*side{}
	var keys []CodeKey
	at := func(k CodeKey) *side {
		s := byKey[k]
		if s == nil {
			s = &side{}
			byKey[k] = s
			keys = append(keys, k)
		}
		return s
	}
	for i := range oldRecs {
		s := at(KeyOf(&oldRecs[i]))
		s.old = append(s.old, &oldRecs[i])
	}
	for i := range newRecs {
		s := at(KeyOf(&newRecs[i]))
		s.new = append(s.new, &newRecs[i])
	}
	slices.SortFunc(keys, func(a, b CodeKey) int {
		return cmp.Or(cmp.Compare(a.Repo, b.Repo), cmp.Compare(a.Commit, b.Commit), cmp.Compare(a.File, b.File), cmp.Compare(a.Function, b.Function))
	})
	bySampleID := func(a, b *Record) int { return cmp.Compare(a.SampleID, b.SampleID) }
	for _, k := range keys {
		s := byKey[k]
		slices.SortFunc(s.old, bySampleID)
		slices.SortFunc(s.new, bySampleID)
		entry := func(o, n *Record) DiffEntry {
			e := DiffEntry{Code: k}
			if o != nil {
				l := labelOf(o)
				e.OldID, e.Old = o.SampleID, &l
			}
			if n != nil {
				l := labelOf(n)
				e.NewID, e.New = n.SampleID, &l
			}
			return e
		}
		// equal labels first
		var olds []*Record
		for _, o := range s.old {
			j := slices.IndexFunc(s.new, func(n *Record) bool { return sameTruth(labelOf(o), labelOf(n)) })
			if j < 0 {
				olds = append(olds, o)
				continue
			}
			d.Unchanged = append(d.Unchanged, entry(o, s.new[j]))
			s.new = slices.Delete(s.new, j, j+1)
		}
		for i, o := range olds {
			if i >= len(s.new) {
				d.Retired = append(d.Retired, entry(o, nil))
				continue
			}
			e := entry(o, s.new[i])
			e.Changed = changes(*e.Old, *e.New)
			d.Relabelled = append(d.Relabelled, e)
		}
		for i := len(olds); i < len(s.new); i++ {
			d.Added = append(d.Added, entry(nil, s.new[i]))
		}
	}
	return d
}

// sameTruth reports whether two labels name the same endpoint.
func sameTruth(a, b Label) bool { return len(changes(a, b)) == 0 }

// changes names the parts of the ground truth that differ.
func changes(a, b Label) []string {
	var out []string
	if a.Host != b.Host {
		out = append(out, "host")
	}
	if a.Route != b.Route {
		out = append(out, "route")
	}
	if a.Method != b.Method {
		out = append(out, "method")
	}
	return out
}

// ByAPI counts a list's entries by API (the new label's, else the old's).
func ByAPI(es []DiffEntry) map[string]int {
	out := map[string]int{}
	for _, e := range es {
		l := e.New
		if l == nil {
			l = e.Old
		}
		out[l.API]++
	}
	return out
}
