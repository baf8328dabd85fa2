package redact

import (
	"strings"

	"sccg/lang"
)

// HumanComment is a function's human comment as redact judges it.
type HumanComment struct {
	// Text is the docstring and the comments, each on its own line: what a sample
	// that keeps its comment publishes, and what LeakCheck reads of it.
	Text string
	// Usable is set when the comment states what the function is for.
	Usable bool
	// Reason says why it is usable or not.
	Reason string
}

// Reasons for the judgement of a human comment.
const (
	CommentStatesGoal   = "states what the function is for"
	CommentNone         = "no comment or docstring"
	CommentPlaceholders = "placeholder comments only"
	CommentNoGoal       = "comments narrate the code without stating its goal"
	CommentInline       = "only inline comments among the statements, which narrate steps; no docstring or leading comment states the goal"
	CommentContentless  = "the comment says nothing beyond a generic verb and words that fit any response"
)

// JudgeComment says whether a function's docstring and comments state its goal,
// from the extractor's flags: a docstring or leading comment with a goal in it
// (CommentsStateGoal) makes it usable, unless it is Contentless ("Gets the data");
// placeholders ("Define the target RapidAPI endpoint URL", "YOUR CODE HERE",
// commented-out code), narration of the steps ("make the request", "parse the
// response") and inline comments among the statements ("prints first pokemon",
// "Clears the terminal") do not.
func JudgeComment(f *lang.Facts) HumanComment {
	var parts, leading []string
	if d := f.Docstring; d != nil && strings.TrimSpace(d.Text) != "" {
		parts = append(parts, strings.TrimSpace(d.Text))
		leading = append(leading, strings.TrimSpace(d.Text))
	}
	for _, c := range f.Comments {
		if t := strings.TrimSpace(c.Text); t != "" {
			parts = append(parts, t)
			if !c.Inline {
				leading = append(leading, t)
			}
		}
	}
	hc := HumanComment{Text: strings.Join(parts, "\n")}
	switch {
	case len(parts) == 0:
		hc.Reason = CommentNone
	case f.CommentsPlaceholder:
		hc.Reason = CommentPlaceholders
	case len(leading) == 0:
		hc.Reason = CommentInline
	case !f.CommentsStateGoal:
		hc.Reason = CommentNoGoal
	case Contentless(strings.Join(leading, "\n")):
		hc.Reason = CommentContentless
	default:
		hc.Usable, hc.Reason = true, CommentStatesGoal
	}
	return hc
}
