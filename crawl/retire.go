package crawl

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sccg/store"
)

// A description file's done unit names its content: "<source>:<path>@<sha>", so a
// file edited since it was imported is imported again.
func fileUnit(source, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return source + ":" + path // unreadable: the loader rejects it with the reason
	}
	return source + ":" + path + "@" + store.HashBlob(b)[:16]
}

// importedFiles lists the description files of source imported by earlier runs.
func importedFiles(done map[string]bool, source string) map[string]bool {
	out := map[string]bool{}
	for u := range done {
		if rest, ok := strings.CutPrefix(u, source+":"); ok {
			if i := strings.LastIndexByte(rest, '@'); i >= 0 {
				rest = rest[:i]
			}
			out[rest] = true
		}
	}
	return out
}

// Why an imported API is deleted.
const (
	ReasonDescriptionRemoved  = "description removed: its file is no longer under the given paths"
	ReasonDescriptionRejected = "description rejected: its file no longer imports"
	ReasonDescriptionDropped  = "description changed: its file no longer defines this API"
)

// retire deletes the APIs of source imported from a file under the run's paths that
// no longer stands for them: the file is gone, no longer imports, or now defines
// other APIs. current holds the files whose APIs stand (imported now or unchanged).
// A store built again after a description was removed or changed thus holds what a
// fresh store would.
func (c *crawler) retire(ctx context.Context, source string, current map[string]bool) error {
	apis, err := c.s.APIs(ctx)
	if err != nil {
		return fmt.Errorf("crawl %s: %w", source, err)
	}
	saved := map[int64]bool{}
	for _, id := range c.savedAPIs {
		saved[id] = true
	}
	for _, a := range apis {
		if a.Source != source || !c.underPaths(a.URL) {
			continue
		}
		var reason string
		switch {
		case !fileExists(a.URL):
			reason = ReasonDescriptionRemoved
		case !current[a.URL]:
			reason = ReasonDescriptionRejected
		case c.imported[a.URL] && !saved[a.ID]:
			reason = ReasonDescriptionDropped
		default:
			continue
		}
		err := c.s.Update(ctx, func(tx *store.Tx) error {
			if err := tx.DeleteAPI(ctx, a.ID); err != nil {
				return err
			}
			return tx.RecordDecision(ctx, store.Decision{RunID: c.run, Stage: Stage, SubjectKind: "api", Subject: a.Owner + "/" + a.Slug,
				Verdict: store.Rejected, Reason: reason, Evidence: map[string]any{"file": a.URL, "host": a.Host}})
		})
		if err != nil {
			return fmt.Errorf("crawl %s: remove %s/%s: %w", source, a.Owner, a.Slug, err)
		}
		c.sum.Removed++
		c.sum.Reasons["removed: "+strings.SplitN(reason, ":", 2)[0]]++
	}
	return nil
}

// underPaths reports whether file is one of the run's roots (or paths) or inside
// one of their folders.
func (c *crawler) underPaths(file string) bool {
	roots := c.o.Roots
	if len(roots) == 0 {
		roots = c.o.Paths
	}
	for _, p := range roots {
		if file == p || strings.HasPrefix(file, strings.TrimRight(p, string(filepath.Separator))+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
