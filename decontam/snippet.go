package decontam

import (
	"strings"

	"sccg/lang"
)

// SignalRapidAPISnippet prefixes the signal of a RapidAPI code snippet pasted as
// it was generated (the playground's "Code Snippets" for JavaScript and Node.js):
// the signal names the snippet's style, "rapidapi_snippet_<style>".
const SignalRapidAPISnippet = "rapidapi_snippet"

// The styles of RapidAPI's JavaScript snippets.
const (
	SnippetFetch    = "fetch"
	SnippetAxios    = "axios"
	SnippetJQuery   = "jquery"
	SnippetXHR      = "xhr"
	SnippetUnirest  = "unirest"
	SnippetRequest  = "request"
	SnippetNodeHTTP = "node_http"
)

// snippetStyle is one generated style: every marker of one of its shapes must be
// in the code (normalized by snippetForm) for the code to be that snippet.
type snippetStyle struct {
	style  string
	shapes [][]string
}

// snippetStyles are the fingerprints of the generator: the boilerplate that turns
// an answer into console output, which code written for a purpose replaces. Code
// that kept a style's setup but does something with the answer is not matched.
var snippetStyles = []snippetStyle{
	{SnippetJQuery, [][]string{{`async:true`, `crossdomain:true`, `$.ajax(settings).done(function(response){console.log(response)})`}}},
	{SnippetXHR, [][]string{{`.withcredentials=true`, `addeventlistener(readystatechange,function(){if(this.readystate===this.done){console.log(this.responsetext)`}}},
	{SnippetUnirest, [][]string{{`=unirest(`, `.end(function(res){if(res.error)thrownewerror(res.error)`}}},
	{SnippetRequest, [][]string{{`request(options,function(error,response,body){if(error)thrownewerror(error)`}}},
	{SnippetNodeHTTP, [][]string{{`res.on(data,function(chunk){chunks.push(chunk)})`, `buffer.concat(chunks)`, `console.log(body.tostring())`}}},
	{SnippetAxios, [][]string{
		{`axios.request(options)`, `console.log(response.data)`, `console.error(error)`},
	}},
	{SnippetFetch, [][]string{
		{`fetch(url,options)`, `response.text()`, `console.log(result)`, `console.error(error)`},
		{`fetch(http`, `.then(response=>{console.log(response)})`, `.catch(err=>{console.error(err)})`},
		{`fetch(http`, `.then(response=>response.json()).then(response=>console.log(response)).catch(err=>console.error(err))`},
	}},
}

// snippetForm is code as the fingerprints are written: lower case, no white
// space, semicolons or quotes (snippets quote object keys or not, with either
// quote), no parentheses around a lone arrow-function parameter.
func snippetForm(code string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(code) {
		switch r {
		case ' ', '\t', '\n', '\r', ';', '\'', '"', '`':
		default:
			b.WriteRune(r)
		}
	}
	s := b.String()
	for _, p := range []string{"response", "err", "error", "res", "result", "data"} {
		s = strings.ReplaceAll(s, "("+p+")=>", p+"=>")
	}
	return s
}

// rapidAPISnippet names the style of RapidAPI's generated JavaScript that code
// is, with the markers found, or "" when it is none: code in the JavaScript
// family that sends RapidAPI's headers and carries every marker of one shape of
// a style.
func rapidAPISnippet(n lang.Name, code string) (string, []string) {
	if n.Family() != lang.JavaScript {
		return "", nil
	}
	form := snippetForm(code)
	if !strings.Contains(form, `x-rapidapi-key`) && !strings.Contains(form, `x-rapidapi-host`) {
		return "", nil
	}
	for _, st := range snippetStyles {
		for _, shape := range st.shapes {
			ok := true
			for _, m := range shape {
				ok = ok && strings.Contains(form, m)
			}
			if ok {
				return st.style, shape
			}
		}
	}
	return "", nil
}
