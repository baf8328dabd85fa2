package python

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

// ImportedModules returns the top-level modules the Python code imports anywhere
// (at module level, inside functions, under try), once each, in source order.
// Relative imports are left out; imports inside strings and comments are not imports.
func ImportedModules(ctx context.Context, code []byte) ([]string, error) {
	root, err := parse(ctx, code)
	if err != nil {
		return nil, fmt.Errorf("imports: %w", err)
	}
	var out []string
	seen := map[string]bool{}
	add := func(mod string) {
		mod = strings.Join(strings.Fields(mod), "")
		if mod == "" || strings.HasPrefix(mod, ".") {
			return
		}
		mod, _, _ = strings.Cut(mod, ".")
		if !seen[mod] {
			seen[mod] = true
			out = append(out, mod)
		}
	}
	root.Walk(func(n *node) bool {
		switch n.Type {
		case "import_statement":
			for _, c := range n.Children {
				switch c.Type {
				case "dotted_name":
					add(c.Text(code))
				case "aliased_import":
					add(c.Child("name").Text(code))
				}
			}
			return false
		case "import_from_statement":
			if mn := n.Child("module_name"); mn != nil {
				add(mn.Text(code))
			}
			return false
		case "future_import_statement":
			add("__future__")
			return false
		}
		return true
	})
	return out, nil
}

// requestInComment matches a request call written in a comment: a client's
// get/post/… call, urlopen, or an http.client request.
var requestInComment = regexp.MustCompile(`\b(?:requests|httpx|session|sess|s|client|aiohttp|conn)\.(?:get|post|put|patch|delete|head|request)\s*\(|\burlopen\s*\(`)

// CommentedRequests returns the lines (1-based) of the comments in the code that
// hold a request call: a request that was commented out.
func CommentedRequests(ctx context.Context, code []byte) ([]int, error) {
	root, err := parse(ctx, code)
	if err != nil {
		return nil, fmt.Errorf("comments: %w", err)
	}
	var lines []int
	root.Walk(func(n *node) bool {
		if n.Type == "comment" && requestInComment.MatchString(n.Text(code)) {
			lines = append(lines, n.Row+1)
		}
		return true
	})
	return lines, nil
}
