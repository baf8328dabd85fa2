package javascript

import (
	"context"
	"fmt"
	"regexp"

	"sccg/lang"
)

// ImportedPackages returns the packages the code imports anywhere (import
// statements, export … from, require and dynamic import), by package name
// (lodash/fp → lodash, @scope/pkg/sub → @scope/pkg, node:fs → fs), once each, in
// source order. Relative specifiers are left out; imports inside strings and
// comments are not imports.
func ImportedPackages(ctx context.Context, d lang.Dialect, code []byte) (out []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("imports panic: %v", r)
		}
	}()
	root, err := parse(ctx, grammarOf(d), code)
	if err != nil {
		return nil, fmt.Errorf("imports: %w", err)
	}
	seen := map[string]bool{}
	for _, s := range importSpecs(root, code) {
		if s == "" || s[0] == '.' || s[0] == '/' {
			continue
		}
		name := packageName(s)
		if IsBuiltin(s) {
			name = packageName(s[len(trimNode(s)):])
		}
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out, nil
}

// trimNode returns the node: scheme of a specifier, if any.
func trimNode(s string) string {
	if len(s) > 5 && s[:5] == "node:" {
		return "node:"
	}
	return ""
}

// requestInComment matches a request call written in a comment.
var requestInComment = regexp.MustCompile(`\b(?:fetch|axios(?:\.(?:get|post|put|patch|delete|head|request))?|` +
	`(?:\$|jQuery)\.(?:ajax|get|getJSON|post)|got(?:\.(?:get|post|put|patch|delete))?|ky\.(?:get|post|put|patch|delete)|` +
	`https?\.(?:get|request)|superagent\.(?:get|post|put|patch|del|delete)|unirest(?:\.(?:get|post|put|patch|delete))?|` +
	`request(?:\.(?:get|post|put|patch|delete))?|(?:api|client|http|instance)\.(?:get|post|put|patch|delete)|xhr\.open)\s*\(`)

// CommentedRequests returns the lines (1-based) of the comments in the code that
// hold a request call: a request that was commented out.
func CommentedRequests(ctx context.Context, d lang.Dialect, code []byte) (lines []int, err error) {
	defer func() {
		if r := recover(); r != nil {
			lines, err = nil, fmt.Errorf("comments panic: %v", r)
		}
	}()
	root, err := parse(ctx, grammarOf(d), code)
	if err != nil {
		return nil, fmt.Errorf("comments: %w", err)
	}
	root.Walk(func(n *node) bool {
		if n.Type == "comment" {
			t := n.Text(code)
			for _, loc := range requestInComment.FindAllStringIndex(t, -1) {
				line := n.Row + 1
				for _, c := range t[:loc[0]] {
					if c == '\n' {
						line++
					}
				}
				if len(lines) == 0 || lines[len(lines)-1] != line {
					lines = append(lines, line)
				}
			}
		}
		return true
	})
	return lines, nil
}
