package pyast

import (
	"context"
	"fmt"
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
	root.walk(func(n *node) bool {
		switch n.typ {
		case "import_statement":
			for _, c := range n.children {
				switch c.typ {
				case "dotted_name":
					add(c.text(code))
				case "aliased_import":
					add(c.child("name").text(code))
				}
			}
			return false
		case "import_from_statement":
			if mn := n.child("module_name"); mn != nil {
				add(mn.text(code))
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
