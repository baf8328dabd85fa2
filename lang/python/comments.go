package python

import (
	"sccg/lang"
	"sccg/lang/internal/tstree"

	"regexp"
	"strings"
)

// isPlaceholder reports a comment that carries no intent: boilerplate, or
// commented-out code.
func isPlaceholder(t string) bool { return lang.PlaceholderText(t) || looksLikeCode(t) }

// comments fills Comments, Docstring, CommentsPlaceholder and CommentsStateGoal.
// Only the docstring and a leading comment speak for the whole function: the block
// directly above the definition, or the block its body opens with when that block
// stands apart (a blank line after it, or no other comment in the body). Comments
// among the statements are marked Inline: they narrate steps ("prints first
// pokemon", "Clears the terminal"), so they never state the goal, whatever verbs
// they use; nor does a section header.
func (x *extractor) comments(f *fnInfo, facts *lang.Facts) {
	src := x.m.src
	// the block of comments directly above the definition
	var above []*node
	row := f.outer.Row
	for i := len(x.m.comments) - 1; i >= 0; i-- {
		c := x.m.comments[i]
		if c.Start >= f.outer.Start {
			continue
		}
		if c.EndRow == row-1 && c.Col == f.outer.Col && c.StartsLine(src) {
			above = append([]*node{c}, above...)
			row = c.Row
			continue
		}
		if c.Row < row-1 {
			break
		}
	}
	for _, c := range above {
		facts.Comments = append(facts.Comments, commentText(c, src))
	}
	var first *node // the body's first statement
	if body := f.def.Child("body"); body != nil {
		for _, st := range body.Children {
			if st.Type == "comment" {
				continue
			}
			if st.Type == "expression_statement" && isDocstring(st) {
				facts.Docstring = &lang.Text{Text: docText(st.NamedKids()[0], src), StartLine: st.Row + 1, EndLine: st.EndRow + 1}
			}
			first = st
			break
		}
	}
	facts.Comments = append(facts.Comments, tstree.BodyComments(x.m.comments, f.outer, first, func(c *node) lang.Text { return commentText(c, src) })...)
	doc := ""
	if facts.Docstring != nil {
		doc = facts.Docstring.Text
	}
	facts.CommentsPlaceholder, facts.CommentsStateGoal = lang.JudgeComments(facts.Comments, doc, isPlaceholder)
}

var codeLike = regexp.MustCompile(`^[\w.\[\]'"]+\s*(=|\(|\.)|^(import|from|print|return|def|if|for)\b`)

// looksLikeCode reports commented-out code.
func looksLikeCode(t string) bool { return codeLike.MatchString(t) }

func commentText(c *node, src []byte) lang.Text {
	t := strings.TrimSpace(strings.TrimLeft(c.Text(src), "#"))
	return lang.Text{Text: t, StartLine: c.Row + 1, EndLine: c.EndRow + 1}
}

func docText(s *node, src []byte) string {
	var b strings.Builder
	for _, c := range s.Children {
		if c.Type == "string_content" || c.Type == "escape_sequence" {
			b.WriteString(c.Text(src))
		}
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(lines, "\n")
}

// effectiveLOC counts the lines of n that hold code: not blank, not only a
// comment, not the docstring.
func effectiveLOC(src []byte, n *node, doc *lang.Text) int {
	lines := strings.Split(n.LineText(src), "\n")
	count := 0
	for i, l := range lines {
		row := n.Row + i + 1
		if doc != nil && row >= doc.StartLine && row <= doc.EndLine {
			continue
		}
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		count++
	}
	return count
}
