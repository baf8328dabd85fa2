// Package answer takes the code out of a model's answer, as servers return it:
// bare code, code fenced in Markdown with prose around it, several fenced blocks,
// and reasoning models' thoughts before the answer (`<think>…</think>`,
// `<reasoning>…</reasoning>`, or a block whose opening tag the chat template wrote,
// so only its closing tag is in the answer). Every command that reads code from a
// model (eval, the baselines, verify, generate, HyDE) uses Extract, so an answer
// is read the same way everywhere. It reads the answer in the sample's language:
// Python's fences and definitions, or JavaScript's and TypeScript's (```js,
// ```ts, ```tsx …; function declarations, functions bound to names, class
// methods).
package answer

import (
	"fmt"
	"regexp"
	"strings"

	"sccg/lang"
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
	// Blocks is how many fenced blocks of the language (or unlabelled) the answer has; when
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

// syntax is how answers in one language family read.
type syntax struct {
	// fences are the info strings of its fenced blocks ("" is unlabelled).
	fences map[string]bool
	// codeLine matches a line that starts code rather than prose; keyword a line
	// that starts a statement the codeLine patterns leave out (it is not prose).
	codeLine, keyword *regexp.Regexp
	// defines matches a block that defines a function or class; def is the
	// pattern (with %s for the quoted name) of a block that defines the function
	// asked for.
	defines *regexp.Regexp
	def     string
}

func fences(names ...string) map[string]bool {
	m := map[string]bool{"": true}
	for _, n := range names {
		m[n] = true
	}
	return m
}

var (
	python = &syntax{
		fences: fences("python", "py", "python3"),
		// a comment, a decorator, a docstring, an import, a definition, the main
		// guard, an assignment or a call. Statement keywords (if, for, with …) are
		// left out: "for this task, here is the code:" reads as both, and a model's
		// code starts with one of these.
		codeLine: regexp.MustCompile(`^(#|@[A-Za-z_]|"""|'''|import\s+[A-Za-z_]|from\s+[A-Za-z_.][\w.]*\s+import\b|(async\s+)?def\s+[A-Za-z_]|class\s+[A-Za-z_]|if\s+__name__|try:|[A-Za-z_][\w.]*(\[[^\]]*\])?\s*(=|\+=)[^=]|[A-Za-z_][\w.]*\()`),
		keyword:  regexp.MustCompile(`^(if|for|while|with|elif|else|except|finally|return|raise|global|nonlocal|assert|async|await|lambda|del|pass|yield)\b`),
		defines:  regexp.MustCompile(`(?m)^\s*((async\s+)?def|class)\s+[A-Za-z_]`),
		def:      `(?m)^\s*(async\s+)?def\s+%s\s*\(`,
	}
	javascript = &syntax{
		fences: fences("js", "javascript", "jsx", "mjs", "cjs", "node", "nodejs", "ts", "typescript", "tsx"),
		// a comment, a directive, an import or require, a declaration, an export,
		// a definition, an assignment or a call.
		codeLine: regexp.MustCompile(`^(//|/\*|['"]use strict['"]|import\s+[\w${*'"]|(export\s+)?(default\s+)?(async\s+)?function\b|(export\s+)?(abstract\s+)?class\s+[\w$]|(export\s+)?(const|let|var)\s+[\w${\[]|export\s|module\.exports|require\(|(export\s+)?(interface|type|enum)\s+[\w$]|try\s*\{|[\w$][\w$.]*(\[[^\]]*\])?\s*(=|\+=)[^=]|[\w$][\w$.]*\()`),
		keyword:  regexp.MustCompile(`^(if|for|while|do|switch|case|default|else|catch|finally|return|throw|await|async|yield|new|delete|typeof)\b`),
		defines:  regexp.MustCompile(`(?m)^\s*((export\s+)?(default\s+)?(async\s+)?function\b|(export\s+)?(abstract\s+)?class\s+[\w$]|(export\s+)?(const|let|var)\s+[\w$]+\s*(:[^=]+)?=\s*(async\s*)?(function\b|\([^)]*\)\s*(:[^=]+)?=>|[\w$]+\s*=>))`),
		def:      `(?m)^\s*((export\s+)?(default\s+)?(async\s+)?function\s*\*?\s*%[1]s\s*[(<]|(export\s+)?(const|let|var)\s+%[1]s\s*(:[^=]+)?=\s*(async\s*)?(function\b|\(|[\w$]+\s*=>|<)|(static\s+|public\s+|private\s+|protected\s+)*(async\s+)?%[1]s\s*(\([^)]*\)|<)[^;]*\{?\s*$|%[1]s\s*[:=]\s*(async\s*)?(function\b|\([^)]*\)\s*=>))`,
	}
)

// syntaxOf is how answers in language n read (Python for "").
func syntaxOf(n lang.Name) *syntax {
	if lang.Of(string(n)).Family() == lang.JavaScript {
		return javascript
	}
	return python
}

// Extract takes the code of language n (Python for "") out of a model's answer.
// Reasoning blocks go first; then the fenced blocks of the language (or
// unlabelled ones) when there are any — of several, the one that defines function
// (with the blocks before it that define nothing), else all of them joined; else
// the answer from its first line of code. function may be empty.
func Extract(text, function string, n lang.Name) Code {
	sx := syntaxOf(n)
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
			if sx.fences[strings.ToLower(m[1])] {
				blocks = append(blocks, m[2])
			}
		}
		if len(blocks) > 0 {
			c.Blocks, c.Form = len(blocks), FormFenced
			c.Text = pick(sx, blocks, function)
			return c
		}
	}
	lines := strings.SplitAfter(text, "\n")
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if t == "" || !sx.codeLine.MatchString(t) {
			continue
		}
		c.Text, c.Form = text, FormBare
		if prose(sx, lines[:i]) {
			if strings.TrimSpace(strings.Join(lines[:i], "")) != "" {
				c.Text, c.Form = strings.Join(lines[i:], ""), FormTrimmed
			}
		}
		return c
	}
	c.Text, c.Form = text, FormNone
	return c
}

var wordsRE = regexp.MustCompile(`[A-Za-z']+[,;:.!?]?[ \t]+[A-Za-z']+`)

// prose reports whether every non-blank line reads as a sentence rather than as
// code the patterns above do not know (an annotated assignment, a statement): only
// then are the lines dropped.
func prose(sx *syntax, lines []string) bool {
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if !wordsRE.MatchString(t) || sx.keyword.MatchString(t) || strings.Contains(t, "=") {
			return false
		}
	}
	return true
}

// pick is the block that defines function, after the blocks before it that define
// no function or class; with no such block, every block joined.
func pick(sx *syntax, blocks []string, function string) string {
	if len(blocks) == 1 {
		return blocks[0]
	}
	if function != "" {
		def := regexp.MustCompile(fmt.Sprintf(sx.def, regexp.QuoteMeta(function)))
		for i, b := range blocks {
			if !def.MatchString(b) {
				continue
			}
			var keep []string
			for _, prev := range blocks[:i] {
				if !sx.defines.MatchString(prev) {
					keep = append(keep, prev)
				}
			}
			return strings.Join(append(keep, b), "\n")
		}
	}
	return strings.Join(blocks, "\n")
}
