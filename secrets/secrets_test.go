package secrets

import (
	"context"
	"encoding/json"
	"sccg/lang"
	"sccg/lang/frontends"
	"strings"
	"testing"
)

// Test credentials are assembled at run time so no credential-shaped literal sits in
// the repository.
var (
	rapidKey  = "0884" + "40d910msh" + "ef857391f2fc461p" + "17ae9e" + "jsnaebc918926ff"
	openaiKey = "sk-" + "proj-" + strings.Repeat("Ab3x", 8)
	ghToken   = "ghp_" + strings.Repeat("a1B2", 9)
	googleKey = "AIza" + strings.Repeat("Sy9_k", 7)
	jwt       = "eyJ" + "hbGciOiJIUzI1NiJ9" + ".eyJ" + "zdWIiOiIxMjM0NTY3ODkwIn0" + ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
)

func TestRedact(t *testing.T) {
	tests := []struct {
		name, code, want string
		kinds            []string
	}{
		{
			name:  "rapidapi key in header",
			code:  "headers = {\"X-RapidAPI-Key\": \"" + rapidKey + "\", \"X-RapidAPI-Host\": \"a.p.rapidapi.com\"}\n",
			want:  "headers = {\"X-RapidAPI-Key\": \"<REDACTED_RAPIDAPI_KEY>\", \"X-RapidAPI-Host\": \"a.p.rapidapi.com\"}\n",
			kinds: []string{KindRapidAPIKey},
		},
		{
			name:  "unrecognised value of a key-like header",
			code:  "headers = {'x-rapidapi-key': 'a81b2c3d4e5f60718293'}\n",
			want:  "headers = {'x-rapidapi-key': '<REDACTED_RAPIDAPI_KEY>'}\n",
			kinds: []string{KindRapidAPIKey},
		},
		{
			name: "placeholder values stay",
			code: "headers = {'X-RapidAPI-Key': 'YOUR_RAPIDAPI_KEY', 'Authorization': 'Bearer <token>'}\nkey = os.getenv('RAPIDAPI_KEY')\n",
			want: "headers = {'X-RapidAPI-Key': 'YOUR_RAPIDAPI_KEY', 'Authorization': 'Bearer <token>'}\nkey = os.getenv('RAPIDAPI_KEY')\n",
		},
		{
			name:  "bearer token in authorization header",
			code:  "h = {\"Authorization\": \"Bearer 9f8e7d6c5b4a39281706f5e4\"}\n",
			want:  "h = {\"Authorization\": \"Bearer <REDACTED_ACCESS_TOKEN>\"}\n",
			kinds: []string{KindAccessToken},
		},
		{
			name:  "openai key in variable",
			code:  "openai.api_key = \"" + openaiKey + "\"\n",
			want:  "openai.api_key = \"<REDACTED_OPENAI_KEY>\"\n",
			kinds: []string{KindOpenAIKey},
		},
		{
			name:  "github token and google key anywhere",
			code:  "TOKENS = ['" + ghToken + "', '" + googleKey + "']\n",
			want:  "TOKENS = ['<REDACTED_GITHUB_TOKEN>', '<REDACTED_GOOGLE_API_KEY>']\n",
			kinds: []string{KindGitHubToken, KindGoogleAPIKey},
		},
		{
			name:  "jwt in f-string",
			code:  "url = f\"https://h/x?jwt=" + jwt + "&q={q}\"\n",
			want:  "url = f\"https://h/x?jwt=<REDACTED_JWT>&q={q}\"\n",
			kinds: []string{KindJWT},
		},
		{
			name:  "basic credential in url and auth tuple",
			code:  "r = requests.get('https://bob:hunter22@db.example.net/x', auth=('bob', 'hunter22'))\n",
			want:  "r = requests.get('https://<REDACTED_BASIC_CREDENTIAL>@db.example.net/x', auth=('bob', '<REDACTED_PASSWORD>'))\n",
			kinds: []string{KindBasicCredential, KindPassword},
		},
		{
			name:  "cookie and password",
			code:  "cookies = {'sessionid': 'abc123def456'}\nlogin(user='bob', password='s3cr3t!')\n",
			want:  "cookies = {'sessionid': '<REDACTED_COOKIE>'}\nlogin(user='bob', password='<REDACTED_PASSWORD>')\n",
			kinds: []string{KindCookie, KindPassword},
		},
		{
			name:  "email in comment and user home path",
			code:  "# author: jane.doe@gmail.com\ndf = pd.read_csv('/home/jdoe/data/x.csv')\np = 'C:\\\\Users\\\\Jane\\\\x.txt'\n",
			want:  "# author: <REDACTED_EMAIL>\ndf = pd.read_csv('/home/<REDACTED_USER>/data/x.csv')\np = 'C:\\\\Users\\\\<REDACTED_USER>\\\\x.txt'\n",
			kinds: []string{KindEmail, KindUser, KindUser},
		},
		{
			name: "example addresses and matrix products stay",
			code: "to = 'someone@example.com'\nz = a@b.T\n",
			want: "to = 'someone@example.com'\nz = a@b.T\n",
		},
		{
			name:  "parameter default and environment fallback",
			code:  "def get(city, api_key='9d8c7b6a5f4e3d2c1b0a'):\n    tok = os.environ.get('SERVICE_TOKEN', 'f00dfeed12345678')\n",
			want:  "def get(city, api_key='<REDACTED_API_KEY>'):\n    tok = os.environ.get('SERVICE_TOKEN', '<REDACTED_ACCESS_TOKEN>')\n",
			kinds: []string{KindAPIKey, KindAccessToken},
		},
		{
			name: "non-secret values of key-like names stay",
			code: "sort_key = 'name'\nparams = {'keyword': 'hello world 2024', 'token_type': 'bearer'}\n",
			want: "sort_key = 'name'\nparams = {'keyword': 'hello world 2024', 'token_type': 'bearer'}\n",
		},
		{
			name:  "subscript assignment",
			code:  "headers['X-Api-Key'] = 'Zx81Qw72Er63Ty54'\n",
			want:  "headers['X-Api-Key'] = '<REDACTED_API_KEY>'\n",
			kinds: []string{KindAPIKey},
		},
	}
	sc := pythonScanner()
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, fs, err := sc.Redact(ctx, []byte(tt.code))
			if err != nil {
				t.Fatalf("Redact: %v", err)
			}
			if string(got) != tt.want {
				t.Errorf("Redact:\n got %q\nwant %q", got, tt.want)
			}
			var kinds []string
			for _, f := range fs {
				kinds = append(kinds, f.Kind)
			}
			if strings.Join(kinds, ",") != strings.Join(tt.kinds, ",") {
				t.Errorf("kinds %v, want %v", kinds, tt.kinds)
			}
			// Redacting again finds nothing: no literal survived.
			if again, _ := sc.Find(ctx, got); len(again) != 0 {
				t.Errorf("redacted code still has findings: %+v", again)
			}
		})
	}
}

func TestRedactedCodeParses(t *testing.T) {
	code := "import requests\n\ndef f(q, key=\"" + rapidKey + "\"):\n    \"\"\"Mail alice@corp.io for access.\"\"\"\n" +
		"    h = {'Authorization': 'Bearer " + jwt + "', 'Cookie': 'sid=deadbeef1234'}\n" +
		"    return requests.get(f'https://u:p4ssw0rd@x.io/{q}', headers=h)\n"
	sc := pythonScanner()
	out, fs, err := sc.Redact(context.Background(), []byte(code))
	if err != nil {
		t.Fatalf("Redact: %v", err)
	}
	for _, lit := range []string{rapidKey, "alice@corp.io", jwt, "deadbeef1234", "p4ssw0rd"} {
		if strings.Contains(string(out), lit) {
			t.Errorf("redacted code still contains %s", Mask(lit))
		}
	}
	if len(fs) != 5 {
		t.Errorf("%d findings, want 5: %+v", len(fs), fs)
	}
	tree, err := frontends.MustFor(lang.Python).Parse(context.Background(), lang.DialectPython, out)
	if err != nil || tree.HasError() {
		t.Errorf("redacted code does not parse:\n%s", out)
	}
}

func TestNameKind(t *testing.T) {
	tests := []struct{ name, want string }{
		{"X-RapidAPI-Key", KindRapidAPIKey},
		{"rapidApiKey", KindRapidAPIKey},
		{"api_key", KindAPIKey},
		{"OPENAI_API_KEY", KindAPIKey},
		{"keyword", ""},
		{"monkey", ""},
		{"Authorization", KindAccessToken},
		{"accessToken", KindAccessToken},
		{"client_secret", KindSecret},
		{"db_password", KindPassword},
		{"Cookie", KindCookie},
		{"city", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := nameKind(tt.name); got != tt.want {
				t.Errorf("nameKind(%q) = %q, want %q", tt.name, got, tt.want)
			}
		})
	}
}

func TestMask(t *testing.T) {
	if got := Mask("abcdefghijkl"); strings.Contains(got, "cdef") || !strings.HasPrefix(got, "ab") {
		t.Errorf("Mask reveals too much: %q", got)
	}
}

func TestNotCredentials(t *testing.T) {
	tests := []struct{ name, code string }{
		{"pagination token", `body = {"continuation_token": "DAACCgACF_Sz76EAJxAKAAMX9LPvoP_Y8AgABAAAAAILAAUAAABQ"}`},
		{"value that is a name", `international_news_api_key = 'international_news_api'`},
		{"key name", `key_name = 'primary-2024-rotation'`},
		{"expression text", `exprs = {"X-RapidAPI-Key": "os.environ.get('RAPIDAPI_KEY2')"}`},
		{"dotted setting", `headers = {"X-RapidAPI-Key": "settings.RAPIDAPI_KEY_2"}`},
	}
	sc := pythonScanner()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if fs, _ := sc.Find(context.Background(), []byte(tt.code)); len(fs) != 0 {
				t.Errorf("Find(%q) = %+v, want nothing", tt.code, fs)
			}
		})
	}
}

func TestWithin(t *testing.T) {
	code := "import requests\n\nKEY = 'x'\n\ndef f():\n    h = {'X-RapidAPI-Key': '" + rapidKey + "'}\n    return h\n"
	source := code[strings.Index(code, "def f"):]
	sc := pythonScanner()
	_, fs, err := sc.Redact(context.Background(), []byte(code))
	if err != nil {
		t.Fatal(err)
	}
	part := Within(fs, []byte(code), strings.Index(code, "def f"), len(source))
	if len(part) != 1 || part[0].Line != 2 {
		t.Fatalf("Within = %+v, want one finding on line 2 of the part", part)
	}
	want, _, _ := sc.Redact(context.Background(), []byte(source))
	if got := Apply([]byte(source), part); string(got) != string(want) {
		t.Errorf("redacting the part through Within gives\n%s\nwant\n%s", got, want)
	}
}

func TestRedactJSON(t *testing.T) {
	facts := `{"calls":[{"url":"https://a.p.rapidapi.com/x?key=` + googleKey + `","headers":{"X-RapidAPI-Key":"a81b2c3d4e5f60718293","Accept":"application/json"},` +
		`"rapidapi_key":"` + rapidKey + `","params":[{"name":"token","location":"query","example":"f00dfeed12345678"},{"name":"q","location":"query","example":"London"}]}],` +
		`"comments":[{"text":"# mail jane.doe@corp.io"}]}`
	out, fs, err := RedactJSON([]byte(facts))
	if err != nil {
		t.Fatal(err)
	}
	for _, lit := range []string{googleKey, "a81b2c3d4e5f60718293", rapidKey, "f00dfeed12345678", "jane.doe@corp.io"} {
		if strings.Contains(string(out), lit) {
			t.Errorf("redacted JSON still contains %s", Mask(lit))
		}
	}
	for _, keep := range []string{"application/json", "London", "X-RapidAPI-Key"} {
		if !strings.Contains(string(out), keep) {
			t.Errorf("redacted JSON lost %q", keep)
		}
	}
	if len(fs) != 5 {
		t.Errorf("%d findings, want 5", len(fs))
	}
	if !json.Valid(out) {
		t.Errorf("redacted JSON is not valid: %s", out)
	}
}

func pythonScanner() *Scanner { return NewScanner(frontends.MustFor(lang.Python), lang.DialectPython) }

func TestRedactJavaScript(t *testing.T) {
	tests := []struct {
		name    string
		dialect lang.Dialect
		code    string
		want    string
		kinds   []string
	}{
		{"RapidAPI key in a fetch header", lang.DialectJS,
			"const r = await fetch(url, { headers: { 'X-RapidAPI-Key': '" + rapidKey + "' } });\n",
			"const r = await fetch(url, { headers: { 'X-RapidAPI-Key': '<REDACTED_RAPIDAPI_KEY>' } });\n",
			[]string{KindRapidAPIKey}},
		{"key-like const and bare object key", lang.DialectJS,
			"const API_KEY = 'a1b2c3d4e5f6a7b8c9d0e1f2';\nconst cfg = { apiKey: 'Zx81Qw72Er63Ty54' };\n",
			"const API_KEY = '<REDACTED_API_KEY>';\nconst cfg = { apiKey: '<REDACTED_API_KEY>' };\n",
			[]string{KindAPIKey, KindAPIKey}},
		{"setRequestHeader and a member assignment", lang.DialectJS,
			"xhr.setRequestHeader('X-Api-Key', 'Zx81Qw72Er63Ty54');\nclient.token = 'f00dfeed12345678';\n",
			"xhr.setRequestHeader('X-Api-Key', '<REDACTED_API_KEY>');\nclient.token = '<REDACTED_ACCESS_TOKEN>';\n",
			[]string{KindAPIKey, KindAccessToken}},
		{"template literal part and comment", lang.DialectJS,
			"// by jane.doe@gmail.com\nconst u = `https://h/x?jwt=" + jwt + "&q=${q}`;\n",
			"// by <REDACTED_EMAIL>\nconst u = `https://h/x?jwt=<REDACTED_JWT>&q=${q}`;\n",
			[]string{KindEmail, KindJWT}},
		{"TypeScript parameter default", lang.DialectTS,
			"export async function get(city: string, apiKey: string = '9d8c7b6a5f4e3d2c1b0a') {}\n",
			"export async function get(city: string, apiKey: string = '<REDACTED_API_KEY>') {}\n",
			[]string{KindAPIKey}},
		{"placeholders and environment stay", lang.DialectJS,
			"const key = process.env.RAPIDAPI_KEY;\nconst h = { 'X-RapidAPI-Key': 'YOUR_API_KEY' };\n",
			"const key = process.env.RAPIDAPI_KEY;\nconst h = { 'X-RapidAPI-Key': 'YOUR_API_KEY' };\n", nil},
	}
	fe := frontends.MustFor(lang.JavaScript)
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := NewScanner(fe, tt.dialect)
			got, fs, err := sc.Redact(ctx, []byte(tt.code))
			if err != nil {
				t.Fatalf("Redact: %v", err)
			}
			if string(got) != tt.want {
				t.Errorf("Redact:\n got %q\nwant %q", got, tt.want)
			}
			var kinds []string
			for _, f := range fs {
				kinds = append(kinds, f.Kind)
			}
			if strings.Join(kinds, ",") != strings.Join(tt.kinds, ",") {
				t.Errorf("kinds %v, want %v", kinds, tt.kinds)
			}
		})
	}
}
