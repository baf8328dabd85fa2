package python

import "testing"

func TestStdlib(t *testing.T) {
	tests := []struct {
		module   string
		py3, py2 bool
	}{
		{"os", true, false},
		{"_thread", true, false},
		{"urllib", true, false},
		{"urllib2", false, true},
		{"httplib", false, true},
		{"requests", false, false},
		{"distutils", true, false},     // removed in 3.12: code written before still imports the standard library
		{"annotationlib", true, false}, // added in 3.14
		{"", false, false},
		{"py2", false, false},
	}
	for _, tc := range tests {
		if got := IsStdlib(tc.module); got != tc.py3 {
			t.Errorf("IsStdlib(%q) = %v, want %v", tc.module, got, tc.py3)
		}
		if got := IsPython2Stdlib(tc.module); got != tc.py2 {
			t.Errorf("IsPython2Stdlib(%q) = %v, want %v", tc.module, got, tc.py2)
		}
	}
}
