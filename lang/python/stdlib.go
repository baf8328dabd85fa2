package python

import (
	_ "embed"
	"strings"
)

//go:embed stdlib_modules.txt
var stdlibList string

// stdlib3 and stdlib2 are the standard library's top-level modules in Python 3.11
// and the versions after it (3.12–3.14 added a few, removed some; both count), and
// those of Python 2 only.
var stdlib3, stdlib2 = loadStdlib(stdlibList)

func loadStdlib(list string) (py3, py2 map[string]bool) {
	py3, py2 = map[string]bool{}, map[string]bool{}
	for _, l := range strings.Split(list, "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) == 0 || strings.HasPrefix(f[0], "#"):
		case len(f) > 1 && f[1] == "py2":
			py2[f[0]] = true
		default:
			py3[f[0]] = true
		}
	}
	return py3, py2
}

// IsStdlib reports whether Python 3's standard library provides the top-level
// module named (private modules such as _thread included).
func IsStdlib(module string) bool { return stdlib3[module] }

// IsPython2Stdlib reports whether the module is one of Python 2's standard library
// that Python 3 no longer has (urllib2, httplib, …).
func IsPython2Stdlib(module string) bool { return stdlib2[module] }
