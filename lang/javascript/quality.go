package javascript

import (
	"slices"

	"sccg/lang"
)

// responseAttrs are the response properties and methods whose use handles a
// response: fetch's json/text/blob, axios's data, Node's statusCode and data
// events, XMLHttpRequest's responseText.
var responseAttrs = wordSet("json text blob arrayBuffer formData data body status statusCode statusText ok " +
	"responseText responseJSON response headers on pipe then")

// dbAttrs are methods that write to or query a database.
var dbAttrs = wordSet("query execute insertOne insertMany updateOne updateMany findOne findMany bulkWrite " +
	"collection create save upsert transaction")

// dbModules are database clients' module and variable names.
var dbModules = wordSet("mongoose mongodb prisma knex sequelize pg mysql mysql2 sqlite3 redis ioredis typeorm " +
	"firestore firebase supabase dynamodb")

// commonModules are names that, used unbound as name.member, are missing imports.
var commonModules = wordSet("axios got ky superagent unirest _ lodash moment dayjs dotenv fs path https http " +
	"crypto querystring url util qs cheerio")

// quality scores a function on its own body, like every frontend: the response
// handling, status checks, try/catch and database calls of the helpers its code
// pulls in are theirs. JavaScript has no indentation rule, so the indentation
// penalty never applies.
func (x *extractor) quality(f *fnInfo, facts *lang.Facts) lang.Quality {
	src := x.m.src
	var ck lang.Checks
	ck.IsSyntacticallyValid = facts.SyntaxOK
	ck.HasAPICall = len(facts.Calls) > 0
	ck.HasImports = len(facts.Imports.Stdlib)+len(facts.Imports.ThirdParty)+len(facts.Imports.Local) > 0
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
	unres := map[string]bool{}
	for _, u := range facts.Unresolved {
		unres[u] = true
	}
	f.node.Walk(func(n *node) bool {
		switch n.Type {
		case "member_expression":
			a := n.Child("property").Text(src)
			if responseAttrs[a] {
				ck.HasResponseHandling = true
			}
			if dbAttrs[a] && n.Parent != nil && n.Parent.Type == "call_expression" && n.Field == "function" {
				if b := baseName(n, src); b != "" && (dbModules[b] || b == "db" || b == "client" && a == "query" || b == "pool" || b == "model") {
					ck.HasDatabaseCall = true
				}
			}
			if o := n.Child("object"); o != nil && o.Type == "identifier" {
				t := o.Text(src)
				if unres[t] && (IsBuiltin(t) || commonModules[t]) {
					ck.MissingImports = appendOnce(ck.MissingImports, t)
				}
			}
		case "identifier":
			if dbModules[n.Text(src)] {
				ck.HasDatabaseCall = true
			}
		case "call_expression":
			if d := x.m.dotted(n.Child("function"), f); d == "JSON.parse" {
				ck.HasResponseHandling = true
			}
		}
		return true
	})
	hasReal := slices.ContainsFunc(facts.Comments, func(cm lang.Text) bool { return !isPlaceholder(cm.Text) })
	return lang.Score(ck, lang.QualitySignals{Try: try, StatusCheck: status, EffectiveLOC: facts.EffectiveLOC,
		Stars: x.opts.Stars, Forks: x.opts.Forks, RealComments: hasReal})
}

func appendOnce(xs []string, s string) []string {
	if slices.Contains(xs, s) {
		return xs
	}
	return append(xs, s)
}
