package evaluate

import "testing"

// The line of a syntax error is read from Python's message and from esbuild's
// (jsbox's); a message without one keeps line 0.
func TestSyntaxErrorLine(t *testing.T) {
	for _, c := range []struct {
		msg, want string
		line      int
	}{
		{"SyntaxError: invalid syntax (<generation>, line 3)", "SyntaxError: invalid syntax (<generation>, line 3)", 3},
		{`SyntaxError: Expected ")" but found "{" (line 12)`, `SyntaxError: Expected ")" but found "{" (line 12)`, 12},
		{"SyntaxError: Unexpected end of file", "SyntaxError: Unexpected end of file", 0},
		{"NameError: name 'line' is not defined (said in line 4 of the notes)", "NameError: name 'line' is not defined (said in line 4 of the notes)", 0},
		{"", "does not compile", 0},
	} {
		got, line := syntaxError(c.msg)
		if got != c.want || line != c.line {
			t.Errorf("syntaxError(%q) = %q, %d; want %q, %d", c.msg, got, line, c.want, c.line)
		}
	}
}
