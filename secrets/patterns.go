// Package secrets finds and redacts credentials and personal data in code of any
// language (through its frontend's tree and grammar) and in text: typed placeholders (<REDACTED_RAPIDAPI_KEY>, <REDACTED_EMAIL>, …) replace
// what value patterns recognise anywhere in string literals and comments, and what
// the syntax says is a credential (the value of a key-like header, argument,
// variable or parameter default). Redacted code still parses.
package secrets

import (
	"regexp"
	"slices"
	"strings"
)

// Kinds of finding. Placeholder(kind) is the text that replaces one.
const (
	KindRapidAPIKey     = "RAPIDAPI_KEY"
	KindOpenAIKey       = "OPENAI_KEY"
	KindGitHubToken     = "GITHUB_TOKEN"
	KindGoogleAPIKey    = "GOOGLE_API_KEY"
	KindAWSAccessKey    = "AWS_ACCESS_KEY"
	KindSlackToken      = "SLACK_TOKEN"
	KindStripeKey       = "STRIPE_KEY"
	KindPrivateKey      = "PRIVATE_KEY"
	KindAccessToken     = "ACCESS_TOKEN"
	KindJWT             = "JWT"
	KindBasicCredential = "BASIC_CREDENTIAL"
	KindCookie          = "COOKIE"
	KindPassword        = "PASSWORD"
	KindSecret          = "SECRET"
	KindAPIKey          = "API_KEY"
	KindEmail           = "EMAIL"
	KindUser            = "USER"
)

// Placeholder is the typed placeholder that replaces a finding of kind.
func Placeholder(kind string) string { return "<REDACTED_" + kind + ">" }

// pattern recognises a value by its shape; group (0 for the whole match) is the
// part to replace.
type pattern struct {
	kind  string
	re    *regexp.Regexp
	group int
}

// patterns are tried in order; earlier ones win where matches overlap.
var patterns = []pattern{
	{KindPrivateKey, regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)`), 0},
	{KindRapidAPIKey, regexp.MustCompile(`\b[0-9a-zA-Z]{8,12}msh[0-9a-zA-Z]{12,18}p[0-9a-zA-Z]{5,8}jsn[0-9a-zA-Z]{10,14}\b`), 0},
	{KindJWT, regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`), 0},
	{KindGitHubToken, regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})`), 0},
	{KindStripeKey, regexp.MustCompile(`\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}`), 0},
	{KindOpenAIKey, regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`), 0},
	{KindGoogleAPIKey, regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`), 0},
	{KindAWSAccessKey, regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`), 0},
	{KindSlackToken, regexp.MustCompile(`\bxox[abprs]-[A-Za-z0-9-]{10,}`), 0},
	{KindBasicCredential, regexp.MustCompile(`(?i)\bbasic\s+([A-Za-z0-9+/]{12,}={0,2})`), 1},
	{KindAccessToken, regexp.MustCompile(`(?i)\b(?:bearer|token)\s+([A-Za-z0-9\-._~+/]{16,}=*)`), 1},
	{KindBasicCredential, regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://([^/\s:@{}'"<>]+:[^/\s@{}'"<>]+)@`), 1},
	{KindEmail, regexp.MustCompile(`\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b`), 0},
	{KindUser, regexp.MustCompile(`(?:^|[^A-Za-z0-9_.~-])/(?:home|Users)/([^/\s'"{}<>$%~\\]+)`), 1},
	{KindUser, regexp.MustCompile(`(?i)\b[A-Z]:(?:\\\\|\\|/)Users(?:\\\\|\\|/)([^\\/\s'"{}<>$%]+)`), 1},
}

// exampleEmail matches addresses at domains reserved for examples (RFC 2606).
var exampleEmail = regexp.MustCompile(`(?i)@(?:[a-z0-9-]+\.)*(?:example\.(?:com|org|net)|example|test|invalid|localhost)$`)

// Finding is one credential or personal datum. Start and End are byte offsets of
// the part to replace in the scanned text; the value itself is never stored.
type Finding struct {
	Kind  string `json:"kind"`
	Rule  string `json:"rule"` // pattern | header | argument | variable | parameter | default
	Line  int    `json:"line"`
	Start int    `json:"-"`
	End   int    `json:"-"`
}

// FindText finds credentials and personal data in free text (a comment, an intent,
// a metadata field) by value patterns alone. base is added to the offsets.
func FindText(s string) []Finding {
	return findPatterns(s, 0)
}

func findPatterns(s string, base int) []Finding {
	var out []Finding
	for _, p := range patterns {
		for _, m := range p.re.FindAllStringSubmatchIndex(s, -1) {
			st, en := m[2*p.group], m[2*p.group+1]
			if st < 0 {
				continue
			}
			v := s[st:en]
			if strings.Contains(v, "REDACTED") {
				continue
			}
			switch p.kind {
			case KindEmail:
				if exampleEmail.MatchString(v) {
					continue
				}
			case KindUser:
				if genericUser(v) {
					continue
				}
			}
			out = append(out, Finding{Kind: p.kind, Rule: "pattern", Start: base + st, End: base + en})
		}
	}
	return out
}

// genericUser reports user-path components that name nobody: placeholders and
// template variables.
func genericUser(u string) bool {
	return strings.HasPrefix(u, "<") || strings.HasPrefix(u, "$") || strings.HasPrefix(u, "{") || strings.HasPrefix(u, "%") || u == "*"
}

// Mask shows a value's shape without revealing it: its first two characters, then
// stars, then its length.
func Mask(v string) string {
	r := []rune(v)
	if len(r) <= 4 {
		return strings.Repeat("*", len(r))
	}
	return string(r[:2]) + strings.Repeat("*", min(len(r)-2, 8)) + "(" + itoa(len(r)) + " chars)"
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// nameKind classifies an identifier, header name or dictionary key that names a
// credential; "" when it does not.
func nameKind(name string) string {
	words := splitWords(name)
	joined := strings.Join(words, "")
	has := func(w ...string) bool {
		return slices.ContainsFunc(words, func(x string) bool { return slices.Contains(w, x) })
	}
	if has(notCredentialWords...) {
		return ""
	}
	switch {
	case strings.Contains(joined, "rapidapikey") || (has("rapidapi") && has("key")):
		return KindRapidAPIKey
	case strings.Contains(joined, "password") || strings.Contains(joined, "passwd") || has("pwd", "passphrase", "pass"):
		return KindPassword
	case has("cookie", "cookies") || strings.Contains(joined, "sessionid"):
		return KindCookie
	case has("authorization", "bearer", "auth", "token", "tokens") || strings.HasSuffix(joined, "token"):
		return KindAccessToken
	case has("secret") || strings.HasSuffix(joined, "secret"):
		return KindSecret
	case has("key", "apikey", "apikeys", "subscription", "credential", "credentials") || strings.HasSuffix(joined, "apikey") ||
		strings.HasSuffix(joined, "accesskey") || strings.HasSuffix(joined, "secretkey"):
		return KindAPIKey
	}
	return ""
}

// notCredentialWords mark names that merely mention a credential word: a
// pagination token, a token's type, a key's name or a URL.
var notCredentialWords = []string{"continuation", "cursor", "page", "pagination", "next", "type", "url", "uri", "endpoint",
	"name", "names", "path", "file", "length", "count", "limit", "field", "column", "format", "prefix", "expiry", "expires",
	"expiration", "env", "var", "header", "param"}

// splitWords splits snake_case, kebab-case, dotted and camelCase names into lower
// words.
func splitWords(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ' || r == '/' || r == ':':
			flush()
		case r >= 'A' && r <= 'Z' && i > 0 && rs[i-1] >= 'a' && rs[i-1] <= 'z':
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return words
}

var placeholderValue = regexp.MustCompile(`(?i)(your|xxx|\*\*\*|<[^>]*>|\{[^}]*\}|\$\{|changeme|change_me|placeholder|example|insert|replace|here|dummy|sample|enter_|todo|redacted|\.\.\.|^none$|^null$|^test$|^secret$|^password$|^token$|^(api_?)?key$)`)
var wordsName = regexp.MustCompile(`^[a-z]+(?:[_-][a-z]+)+$`)
var dottedName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$`)
var envName = regexp.MustCompile(`^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$`)

// credentialValue reports whether a literal found in a credential context is worth
// redacting: not a placeholder, not an environment variable's name, and shaped like
// a secret for its kind.
func credentialValue(kind, v string) bool {
	v = strings.TrimSpace(v)
	if v == "" || placeholderValue.MatchString(v) || envName.MatchString(v) || wordsName.MatchString(v) ||
		dottedName.MatchString(v) || strings.ContainsAny(v, "()[]{}'\"`,") {
		return false // a placeholder, a name, or an expression's source text
	}
	switch kind {
	case KindPassword:
		return len(v) >= 3 && !strings.ContainsAny(v, " \t\n")
	case KindCookie:
		return len(v) >= 6
	}
	if len(v) < 8 || strings.ContainsAny(v, " \t\n") && !strings.HasPrefix(strings.ToLower(v), "bearer ") && !strings.HasPrefix(strings.ToLower(v), "basic ") {
		return false
	}
	letters, digits := 0, 0
	for _, r := range v {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			letters++
		}
	}
	return letters > 0 && (digits > 0 || len(v) >= 20)
}
