package pyast

import (
	"math"
	"slices"
	"strings"

	"sccg/lang"
)

// Quality component weights; the positive ones sum to 100.
const (
	wSyntax           = 20
	wAPICall          = 20
	wResponse         = 15
	wErrorTry         = 10
	wErrorStatus      = 5
	wLength           = 10
	wRepo             = 10
	wComments         = 5
	wDocstring        = 5
	penDatabase       = -10
	penIndentation    = -10
	penMissingImports = -10
)

// qualityComponents names every component of Quality.Components.
var qualityComponents = []string{"syntax", "api_call", "response_handling", "error_handling", "length", "repo_signals",
	"comments", "docstring", "database_call", "indentation", "missing_imports"}

var responseAttrs = map[string]bool{"json": true, "text": true, "content": true, "read": true, "iter_content": true,
	"iter_lines": true, "status_code": true, "status": true, "raise_for_status": true, "ok": true, "getresponse": true,
	"getcode": true, "aread": true, "body": true}

var dbAttrs = map[string]bool{"execute": true, "executemany": true, "commit": true, "cursor": true, "insert_one": true,
	"insert_many": true, "update_one": true, "update_many": true, "find_one": true, "bulk_write": true, "to_sql": true}

var dbModules = []string{"sqlite3", "psycopg2", "pymysql", "pymongo", "sqlalchemy", "mysql", "MySQLdb", "redis", "motor", "asyncpg"}

// commonModuleAliases are names that, used unbound as name.attr, are missing imports.
var commonModuleAliases = wordSet("requests httpx aiohttp pd np plt tf torch bs4 pandas numpy dotenv yaml boto3 openai")

// quality scores a function on its own body: the response handling, status checks,
// try statements and database calls of the same-file helpers its self-contained
// code pulls in are theirs, so a caller never outranks the function it calls with
// what it pulled in. Every component is recorded.
func (x *extractor) quality(f *fnInfo, facts *lang.Facts, imports lang.Imports) lang.Quality {
	src := x.m.src
	q := lang.Quality{Components: map[string]float64{}}
	ck := &q.Checks
	ck.IsSyntacticallyValid = facts.SyntaxOK
	ck.HasAPICall = len(facts.Calls) > 0
	ck.HasImports = len(imports.Stdlib)+len(imports.ThirdParty)+len(imports.Local) > 0
	status, try := x.statusCheck([]*fnInfo{f}), x.exceptionHandling(f, nil)
	ck.HasErrorHandling = try || status
	ck.HasDocstring = facts.Docstring != nil
	ck.HasComments = len(facts.Comments) > 0 || ck.HasDocstring
	for _, c := range facts.Comments {
		ck.CommentLines += c.EndLine - c.StartLine + 1
	}
	if facts.Docstring != nil {
		ck.CommentLines += facts.Docstring.EndLine - facts.Docstring.StartLine + 1
	}
	f.def.walk(func(n *node) bool {
		switch n.typ {
		case "attribute":
			a := n.child("attribute").text(src)
			if responseAttrs[a] {
				ck.HasResponseHandling = true
			}
			if dbAttrs[a] && n.parent != nil && n.parent.typ == "call" {
				ck.HasDatabaseCall = true
			}
			if a == "objects" {
				ck.HasDatabaseCall = true
			}
		case "identifier":
			t := n.text(src)
			for _, d := range dbModules {
				if t == d {
					ck.HasDatabaseCall = true
				}
			}
		case "call":
			if d := x.m.dotted(n.child("function"), f); d == "json.loads" {
				ck.HasResponseHandling = true
			}
		}
		return true
	})
	ck.HasIndentationIssue = mixedIndentation(src, f.outer)
	unres := map[string]bool{}
	for _, u := range facts.Unresolved {
		unres[u] = true
	}
	f.outer.walk(func(n *node) bool {
		if n.typ == "attribute" {
			if o := n.child("object"); o.typ == "identifier" {
				t := o.text(src)
				if unres[t] && (isStdlib(t) || commonModuleAliases[t]) {
					ck.MissingImports = appendOnce(ck.MissingImports, t)
				}
			}
		}
		return true
	})

	c := q.Components
	c["syntax"] = boolScore(ck.IsSyntacticallyValid, wSyntax)
	c["api_call"] = boolScore(ck.HasAPICall, wAPICall)
	c["response_handling"] = boolScore(ck.HasResponseHandling, wResponse)
	c["error_handling"] = boolScore(try, wErrorTry) + boolScore(status, wErrorStatus)
	switch loc := facts.EffectiveLOC; {
	case loc >= 4 && loc <= 60:
		c["length"] = wLength
	case loc >= 2 && loc <= 150:
		c["length"] = wLength / 2
	default:
		c["length"] = 0
	}
	signal := (math.Log10(1+float64(x.opts.Stars)) + 0.5*math.Log10(1+float64(x.opts.Forks))) / 3
	c["repo_signals"] = round1(wRepo * math.Min(1, signal))
	hasReal := slices.ContainsFunc(facts.Comments, func(cm lang.Text) bool { return !isPlaceholder(cm.Text) })
	c["comments"] = boolScore(hasReal, wComments)
	c["docstring"] = boolScore(ck.HasDocstring, wDocstring)
	c["database_call"] = boolScore(ck.HasDatabaseCall, penDatabase)
	c["indentation"] = boolScore(ck.HasIndentationIssue, penIndentation)
	c["missing_imports"] = boolScore(len(ck.MissingImports) > 0, penMissingImports)
	total := 0.0
	for _, v := range c {
		total += v
	}
	q.Score = round1(math.Max(0, math.Min(100, total)))
	return q
}

func boolScore(b bool, w float64) float64 {
	if b {
		return w
	}
	return 0
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

func appendOnce(xs []string, s string) []string {
	if slices.Contains(xs, s) {
		return xs
	}
	return append(xs, s)
}

// mixedIndentation reports statements of n indented with tabs and others with
// spaces, or an indentation mixing both: what Python 3 rejects with TabError. Lines
// continued inside brackets do not count.
func mixedIndentation(src []byte, n *node) bool {
	tabs, spaces, mixed := false, false, false
	n.walk(func(c *node) bool {
		if c.parent == nil || c.parent.typ != "block" || !c.named || c.typ == "comment" {
			return true
		}
		i := int(c.start)
		for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t') {
			i--
		}
		if i > 0 && src[i-1] != '\n' {
			return true // not the first thing on its line
		}
		indent := src[i:c.start]
		hasTab, hasSpace := strings.Contains(string(indent), "\t"), strings.Contains(string(indent), " ")
		switch {
		case hasTab && hasSpace:
			mixed = true
		case hasTab:
			tabs = true
		case hasSpace:
			spaces = true
		}
		return true
	})
	return mixed || (tabs && spaces)
}
