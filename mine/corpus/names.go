package corpus

import (
	"path/filepath"
	"strings"
)

// Root is the part of a corpus glob before its first wildcard, up to a separator:
// the directory shard names are given relative to.
func Root(glob string) string {
	i := strings.IndexAny(glob, "*?[{")
	if i < 0 {
		i = len(glob)
		if j := strings.LastIndexAny(glob, `/\`); j >= 0 {
			return glob[:j+1]
		}
		return ""
	}
	if j := strings.LastIndexAny(glob[:i], `/\`); j >= 0 {
		return glob[:j+1]
	}
	return ""
}

// ShardName is a shard's name relative to the corpus root, slash-separated.
func ShardName(root, name string) string {
	rel := strings.TrimPrefix(name, root)
	if rel == "" {
		rel = filepath.Base(name)
	}
	return filepath.ToSlash(rel)
}

// Label names a corpus in a manifest and a run: a remote glob as it is, a local
// one from its root directory's base name on, so no local path is recorded.
func Label(glob string) string {
	if strings.Contains(glob, "://") {
		return glob
	}
	root := Root(glob)
	base := filepath.Base(filepath.Clean(root))
	if root == "" || base == "." || base == string(filepath.Separator) {
		return filepath.ToSlash(strings.TrimPrefix(glob, root))
	}
	return base + "/" + filepath.ToSlash(strings.TrimPrefix(glob, root))
}
