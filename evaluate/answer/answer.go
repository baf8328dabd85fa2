// Package answer takes the code out of a model's answer, as servers return it:
// bare code, code fenced in Markdown with prose around it, several fenced blocks,
// and reasoning models' thoughts before the answer (`<think>…</think>`,
// `<reasoning>…</reasoning>`, or a block whose opening tag the chat template wrote,
// so only its closing tag is in the answer). Every command that reads code from a
// model (eval, the baselines, verify, generate, HyDE) uses Extract, so an answer
// is read the same way everywhere.
package answer

import (
	"regexp"
	"strings"
)

// Form says where the code of an answer came from.
const (
	// FormBare is an answer that is code from its first line.
	FormBare = "bare"
	// FormFenced is code taken from Markdown fences.
	FormFenced = "fenced"
	// FormTrimmed is an answer whose prose before its first line of code was dropped.
	FormTrimmed = "trimmed"
	// FormNone is an answer with no line of code: the text is kept as it is (and
	// fails the syntax check with the parser's message).
	FormNone = "none"
	// FormEmpty is an answer with nothing in it once its reasoning is removed.
	FormEmpty = "empty"
)

// Code is the code of one answer and how it was found.
type Code struct {
	// Text is the code.
	Text string
	// Form is where it came from: FormBare, FormFenced, FormTrimmed, FormNone or
	// FormEmpty.
	Form string
	// Reasoning is true when a reasoning block was removed before the code was
	// looked for.
	Reasoning bool
	// Blocks is how many Python (or unlabelled) fenced blocks the answer has; when
	// there are several, Text is the one that defines the function asked for (with
	// the blocks before it that define nothing, such as imports).
	Blocks int
}

// reasoningTags are the tags reasoning models wrap their thoughts in.
var reasoningTags = []string{"think", "thinking", "reasoning", "thought"}

var (
	// an opening tag starts a line: inside code it would be part of a string
	openRE  = regexp.MustCompile(`(?im)^[ \t]*<(` + strings.Join(reasoningTags, "|") + `)>`)
	closeRE = regexp.MustCompile(`(?i)</(` + strings.Join(reasoningTags, "|") + `)>`)
	endRE   = func() map[string]*regexp.Regexp {
		m := map[string]*regexp.Regexp{}
		for _, t := range reasoningTags {
			m[t] = regexp.MustCompile(`(?i)</` + t + `>`)
		}
		return m
	}()
)

// WithoutReasoning removes the reasoning blocks of an answer and reports whether
// it found one. A block left open (the answer was cut off while thinking) takes
// the rest of the answer; a closing tag with no opening one (the chat template
// wrote the opening tag into the prompt) ends a block that starts the answer.
func WithoutReasoning(text string) (string, bool) {
	found := false
	for {
		o := openRE.FindStringSubmatchIndex(text)
		c := closeRE.FindStringSubmatchIndex(text)
		switch {
		case c != nil && (o == nil || c[0] < o[0]):
			// a closing tag first: its block opened in the prompt
			text = text[c[1]:]
		case o != nil:
			tag := strings.ToLower(text[o[2]:o[3]])
			end := endRE[tag].FindStringIndex(text[o[1]:])
			if end == nil {
				text = text[:o[0]]
			} else {
				text = text[:o[0]] + text[o[1]+end[1]:]
			}
		default:
			return text, found
		}
		found = true
	}
}

var leadingBlankRE = regexp.MustCompile(`^(?:[ \t]*\r?\n)+`)

var fenceRE = regexp.MustCompile("(?s)```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:```|$)")

// codeLineRE matches a line that starts Python code rather than prose: a comment,
// a decorator, a docstring, an import, a definition, the main guard, an assignment
// or a call. Statement keywords (if, for, with …) are left out: "for this task,
// here is the code:" reads as both, and a model's code starts with one of these.
var codeLineRE = regexp.MustCompile(`^(#|@[A-Za-z_]|"""|'''|import\s+[A-Za-z_]|from\s+[A-Za-z_.][\w.]*\s+import\b|(async\s+)?def\s+[A-Za-z_]|class\s+[A-Za-z_]|if\s+__name__|try:|[A-Za-z_][\w.]*(\[[^\]]*\])?\s*(=|\+=)[^=]|[A-Za-z_][\w.]*\()`)

// Extract takes the code out of a model's answer. Reasoning blocks go first; then
// the fenced Python (or unlabelled) blocks when there are any — of several, the one
// that defines function (with the blocks before it that define nothing), else all
// of them joined; else the answer from its first line of code. function may be
// empty.
func Extract(text, function string) Code {
	text, reasoning := WithoutReasoning(text)
	if reasoning {
		// the blank lines the block stood on
		text = leadingBlankRE.ReplaceAllString(text, "")
	}
	c := Code{Reasoning: reasoning}
	if strings.TrimSpace(text) == "" {
		c.Text, c.Form = "", FormEmpty
		return c
	}
	if strings.Contains(text, "```") {
		var blocks []string
		for _, m := range fenceRE.FindAllStringSubmatch(text, -1) {
			switch strings.ToLower(m[1]) {
			case "", "python", "py", "python3":
				blocks = append(blocks, m[2])
			}
		}
		if len(blocks) > 0 {
			c.Blocks, c.Form = len(blocks), FormFenced
			c.Text = pick(blocks, function)
			return c
		}
	}
	lines := strings.SplitAfter(text, "\n")
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if t == "" || !codeLineRE.MatchString(t) {
			continue
		}
		c.Text, c.Form = text, FormBare
		if prose(lines[:i]) {
			if strings.TrimSpace(strings.Join(lines[:i], "")) != "" {
				c.Text, c.Form = strings.Join(lines[i:], ""), FormTrimmed
			}
		}
		return c
	}
	c.Text, c.Form = text, FormNone
	return c
}

var (
	wordsRE   = regexp.MustCompile(`[A-Za-z']+[,;:.!?]?[ \t]+[A-Za-z']+`)
	keywordRE = regexp.MustCompile(`^(if|for|while|with|elif|else|except|finally|return|raise|global|nonlocal|assert|async|await|lambda|del|pass|yield)\b`)
)

// prose reports whether every non-blank line reads as a sentence rather than as
// code the patterns above do not know (an annotated assignment, a statement): only
// then are the lines dropped.
func prose(lines []string) bool {
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if !wordsRE.MatchString(t) || keywordRE.MatchString(t) || strings.Contains(t, "=") {
			return false
		}
	}
	return true
}

// pick is the block that defines function, after the blocks before it that define
// no function or class; with no such block, every block joined.
func pick(blocks []string, function string) string {
	if len(blocks) == 1 {
		return blocks[0]
	}
	if function != "" {
		def := regexp.MustCompile(`(?m)^\s*(async\s+)?def\s+` + regexp.QuoteMeta(function) + `\s*\(`)
		for i, b := range blocks {
			if !def.MatchString(b) {
				continue
			}
			var keep []string
			for _, prev := range blocks[:i] {
				if !definesRE.MatchString(prev) {
					keep = append(keep, prev)
				}
			}
			return strings.Join(append(keep, b), "\n")
		}
	}
	return strings.Join(blocks, "\n")
}

var definesRE = regexp.MustCompile(`(?m)^\s*((async\s+)?def|class)\s+[A-Za-z_]`)
