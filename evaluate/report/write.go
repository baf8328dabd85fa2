package report

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"sccg/internal/atomicfile"
)

// Manifest is what a report holds: manifest.json in its directory.
type Manifest struct {
	Title   string  `json:"title"`
	Tables  []Entry `json:"tables"`
	Figures []Entry `json:"figures"`
	// Omitted say which tables and figures are left out, and why.
	Omitted  []string `json:"omitted,omitempty"`
	Samples  int      `json:"samples"`
	Files    []string `json:"files"` // relative to the report's directory
	Problems []string `json:"problems,omitempty"`
}

// Entry is one table or figure of a report.
type Entry struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	File  string `json:"file,omitempty"`
}

// ManifestFile names the manifest in a report's directory.
const ManifestFile = "manifest.json"

// Write makes the report of d in dir: index.html, report.md, figures/*.svg,
// samples/*.html and manifest.json. Files an earlier report in dir wrote and this
// one does not are removed; nothing else in dir is touched.
func Write(ctx context.Context, d *Data, dir string, o Options) (*Manifest, error) {
	o = o.withDefaults()
	p, err := build(ctx, d, o)
	if err != nil {
		return nil, err
	}
	m := &Manifest{Title: p.Title, Samples: len(p.Samples.Pages), Problems: d.Problems}
	files := map[string][]byte{}
	for _, s := range p.Sections {
		for _, it := range s.Items {
			switch {
			case it.Table != nil:
				m.Tables = append(m.Tables, Entry{ID: it.Table.ID, Title: it.Table.Title})
			case it.Figures != nil:
				for _, f := range it.Figures {
					m.Figures = append(m.Figures, Entry{ID: f.ID, Title: f.Title, File: f.File()})
					files[f.File()] = f.SVG
				}
			default:
				m.Omitted = append(m.Omitted, it.Omitted)
			}
		}
	}
	if files["index.html"], err = renderIndex(p); err != nil {
		return nil, err
	}
	files["report.md"] = renderMarkdown(p)
	for _, sp := range p.Samples.Pages {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if files[sp.File], err = renderSample(p, sp); err != nil {
			return nil, err
		}
	}
	for name := range files {
		m.Files = append(m.Files, name)
	}
	slices.Sort(m.Files)
	mj, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("report: encode manifest: %w", err)
	}
	if err := removeStale(dir, m.Files); err != nil {
		return nil, err
	}
	for _, sub := range []string{"figures", "samples"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
	}
	for _, name := range m.Files {
		if err := atomicfile.Write(filepath.Join(dir, filepath.FromSlash(name)), files[name]); err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
	}
	if err := atomicfile.Write(filepath.Join(dir, ManifestFile), append(mj, '\n')); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	return m, nil
}

// removeStale removes the files an earlier report's manifest lists that the new
// one does not write.
func removeStale(dir string, keep []string) error {
	b, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	var old Manifest
	if json.Unmarshal(b, &old) != nil {
		return nil // not ours to judge: leave the directory as it is
	}
	for _, f := range old.Files {
		if slices.Contains(keep, f) || !filepath.IsLocal(filepath.FromSlash(f)) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(f))); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("report: remove %s: %w", f, err)
		}
	}
	return nil
}
