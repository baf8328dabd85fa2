package lang

import "testing"

func TestLineTextAndDedent(t *testing.T) {
	src := []byte("x = 1\n    def f():\n        pass\n")
	start := 10
	if got := LineText(src, start, len(src)-1); got != "    def f():\n        pass" {
		t.Errorf("LineText after indentation = %q", got)
	}
	if got := LineText(src, 4, 5); got != "1" {
		t.Errorf("LineText after code on its line = %q", got)
	}
	if StartsLine(src, 4) || !StartsLine(src, start) || !StartsLine(src, 0) {
		t.Error("StartsLine")
	}
	if got := Dedent("    a\n\t  b\n c", 4); got != "a\nb\nc" {
		t.Errorf("Dedent = %q", got)
	}
}

func TestApplyEdits(t *testing.T) {
	src := []byte("abcdef")
	out, n := ApplyEdits(src, []Edit{{Start: 4, End: 5, New: "E"}, {Start: 0, End: 2, New: "X"}, {Start: 1, End: 3, New: "overlap"}})
	if string(out) != "XcdEf" || n != 2 {
		t.Errorf("ApplyEdits = %q, %d", out, n)
	}
}

func TestPlaceEdits(t *testing.T) {
	got := PlaceEdits([]Edit{{Start: 0, End: 2, New: "x"}, {Start: 2, End: 9, New: "long"}, {Start: 3, End: 1}, {Start: 1, End: 3, New: "no"}}, 10, 3,
		func(e Edit) bool { return e.New != "no" })
	if len(got) != 1 || got[0] != (Edit{Start: 10, End: 12, New: "x"}) {
		t.Errorf("PlaceEdits = %+v", got)
	}
}
