package python

import (
	"slices"
	"strings"

	"sccg/lang"
)

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
	f.def.Walk(func(n *node) bool {
		switch n.Type {
		case "attribute":
			a := n.Child("attribute").Text(src)
			if responseAttrs[a] {
				ck.HasResponseHandling = true
			}
			if dbAttrs[a] && n.Parent != nil && n.Parent.Type == "call" {
				ck.HasDatabaseCall = true
			}
			if a == "objects" {
				ck.HasDatabaseCall = true
			}
		case "identifier":
			t := n.Text(src)
			for _, d := range dbModules {
				if t == d {
					ck.HasDatabaseCall = true
				}
			}
		case "call":
			if d := x.m.dotted(n.Child("function"), f); d == "json.loads" {
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
	f.outer.Walk(func(n *node) bool {
		if n.Type == "attribute" {
			if o := n.Child("object"); o.Type == "identifier" {
				t := o.Text(src)
				if unres[t] && (isStdlib(t) || commonModuleAliases[t]) {
					ck.MissingImports = appendOnce(ck.MissingImports, t)
				}
			}
		}
		return true
	})

	hasReal := slices.ContainsFunc(facts.Comments, func(cm lang.Text) bool { return !isPlaceholder(cm.Text) })
	return lang.Score(*ck, lang.QualitySignals{Try: try, StatusCheck: status, EffectiveLOC: facts.EffectiveLOC,
		Stars: x.opts.Stars, Forks: x.opts.Forks, RealComments: hasReal})
}

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
	n.Walk(func(c *node) bool {
		if c.Parent == nil || c.Parent.Type != "block" || !c.Named || c.Type == "comment" {
			return true
		}
		i := int(c.Start)
		for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t') {
			i--
		}
		if i > 0 && src[i-1] != '\n' {
			return true // not the first thing on its line
		}
		indent := src[i:c.Start]
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
