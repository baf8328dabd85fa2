package javascript

import (
	"regexp"
	"strings"

	"sccg/lang"
	"sccg/lang/internal/tstree"
)

// pragma matches comments addressed to tools, not people: linters, formatters,
// type checkers, coverage, bundlers, editors' regions.
var pragma = regexp.MustCompile(`(?i)^\s*(eslint|prettier|@ts-|istanbul|c8 |jshint|jslint|global\s|@flow|@jsx|#region|#endregion|webpack|@vite|@refresh|tslint|sourceMappingURL|@license|@preserve)`)

// codeLike matches commented-out JavaScript.
var codeLike = regexp.MustCompile(`^[\w$.\[\]'"]+\s*(=[^=]|\(|\.\w)|^(import|export|const|let|var|return|function|if|for|await|async|console\.|}|\))|;\s*$`)

// isPlaceholder reports a comment that carries no intent: boilerplate, pragmas,
// or commented-out code.
func isPlaceholder(t string) bool {
	return lang.PlaceholderText(t) || pragma.MatchString(t) || codeLike.MatchString(t)
}

// comments fills Comments, Docstring, CommentsPlaceholder and CommentsStateGoal.
// The JSDoc block (/** … */) directly above the definition is the docstring; the
// other comments directly above, and the block the body opens with when it stands
// apart, speak for the whole function; comments among the statements are Inline.
func (x *extractor) comments(f *fnInfo, facts *lang.Facts) {
	src := x.m.src
	var above []*node
	row := f.outer.Row
	for i := len(x.m.comments) - 1; i >= 0; i-- {
		c := x.m.comments[i]
		if c.Start >= f.outer.Start {
			continue
		}
		if c.EndRow == row-1 && c.StartsLine(src) {
			above = append([]*node{c}, above...)
			row = c.Row
			continue
		}
		if c.EndRow < row-1 {
			break
		}
	}
	if len(above) > 0 {
		last := above[len(above)-1]
		if strings.HasPrefix(last.Text(src), "/**") {
			t := commentText(last, src)
			facts.Docstring = &t
			above = above[:len(above)-1]
		}
	}
	for _, c := range above {
		facts.Comments = append(facts.Comments, commentText(c, src))
	}
	var first *node // the body's first statement
	if body := f.node.Child("body"); body != nil && body.Type == "statement_block" {
		for _, st := range body.NamedKids() {
			if st.Type != "comment" {
				first = st
				break
			}
		}
	}
	facts.Comments = append(facts.Comments, tstree.BodyComments(x.m.comments, f.outer, first, func(c *node) lang.Text { return commentText(c, src) })...)
	doc := ""
	if facts.Docstring != nil {
		// a JSDoc block's @param and @returns lines describe the signature
		doc = jsdocDescription(facts.Docstring.Text)
	}
	facts.CommentsPlaceholder, facts.CommentsStateGoal = lang.JudgeComments(facts.Comments, doc, isPlaceholder)
}

// jsdocDescription is a JSDoc block's text before its first @tag.
func jsdocDescription(t string) string {
	var out []string
	for _, l := range strings.Split(t, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "@") {
			break
		}
		out = append(out, l)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// commentText is a comment's text without its markers: // and /* */, and the
// leading * of a block's lines.
func commentText(c *node, src []byte) lang.Text {
	return lang.Text{Text: commentBody(c.Text(src)), StartLine: c.Row + 1, EndLine: c.EndRow + 1}
}

func commentBody(t string) string {
	switch {
	case strings.HasPrefix(t, "//"):
		return strings.TrimSpace(strings.TrimPrefix(t, "//"))
	case strings.HasPrefix(t, "/*"):
		t = strings.TrimSuffix(strings.TrimPrefix(t, "/*"), "*/")
		t = strings.TrimPrefix(t, "*")
		lines := strings.Split(t, "\n")
		var out []string
		for _, l := range lines {
			l = strings.TrimSpace(l)
			l = strings.TrimSpace(strings.TrimPrefix(l, "*"))
			out = append(out, l)
		}
		return strings.TrimSpace(strings.Join(out, "\n"))
	case strings.HasPrefix(t, "<!--"):
		return strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(t, "<!--"), "-->"))
	}
	return strings.TrimSpace(t)
}
