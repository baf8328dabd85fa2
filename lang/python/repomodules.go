package python

import (
	"path"
	"slices"
	"strings"
)

// RepoModules lists the top-level modules an import in the file at file (a path
// in its repository) finds in the repository's own files, repoPaths: those beside
// the file (the script's directory comes first on sys.path), at the repository's
// root and under src/ — a module x.py or a package x/ holding Python files. So
// "import models" in app/views.py is the repository's when app/models.py,
// models.py or models/ exists, whatever package of the same name PyPI has.
func RepoModules(file string, repoPaths []string) []string {
	roots := []string{path.Dir(file), ".", "src"}
	var out []string
	for _, p := range repoPaths {
		for _, r := range roots {
			rel := p
			if r != "." {
				if !strings.HasPrefix(p, r+"/") {
					continue
				}
				rel = strings.TrimPrefix(p, r+"/")
			}
			first, rest, nested := strings.Cut(rel, "/")
			name := first
			if !nested {
				name = strings.TrimSuffix(first, ".py")
				if name == first || name == "__init__" || name == "__main__" {
					continue
				}
			} else if rest == "" {
				continue
			}
			if isIdentifier(name) && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	slices.Sort(out)
	return out
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r != '_' && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
