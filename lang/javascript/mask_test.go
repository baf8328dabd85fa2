package javascript

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"sccg/lang"
)

const maskSrc = "import axios from 'axios';\n" +
	"\n" +
	"const FORECA_URL = 'https://foreca.p.rapidapi.com'; // the Foreca host\n" +
	"\n" +
	"export class Client {\n" +
	"  /** Current conditions. */\n" +
	"  async getForecaNow(city, units = 'metric', { key = '' } = {}) {\n" +
	"    const q = { location: city, periods: 3 };\n" +
	"    const r = await axios.get(`${FORECA_URL}/current/${city}\\n`, { params: { units, 'lang': \"en\", limit: 10 } });\n" +
	"    const inner = () => { return 1; };\n" +
	"    return r.data['current'];\n" +
	"  }\n" +
	"}\n"

func TestMaskOffersPieces(t *testing.T) {
	var got []string
	_, err := Mask(context.Background(), lang.DialectJS, []byte(maskSrc), "", func(p lang.Piece) []lang.Edit {
		var flags []string
		if p.Whole {
			flags = append(flags, "whole")
		}
		if p.Key {
			flags = append(flags, "key")
		}
		if p.PairKey != "" {
			flags = append(flags, "value of "+p.PairKey)
		}
		got = append(got, fmt.Sprintf("%d %d %q %s", p.Line, p.Kind, p.Text, strings.Join(flags, ",")))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`1 2 "axios" whole`,
		`3 1 "FORECA_URL" `,
		`3 2 "https://foreca.p.rapidapi.com" whole`,
		`3 4 " the Foreca host" `,
		`6 4 "* Current conditions. " `,
		`7 1 "getForecaNow" `,
		`7 2 "metric" whole`,
		`8 1 "location" key`,
		`8 3 "3" value of periods`,
		`9 2 "/current/" `,
		`9 2 "\\n" `,
		`9 1 "FORECA_URL" `,
		`9 2 "lang" whole,key`,
		`9 2 "en" whole,value of lang`,
		`9 3 "10" value of limit`,
		`11 2 "current" whole`,
	} {
		if !slices.Contains(got, want) {
			t.Errorf("no piece %s; got:\n%s", want, strings.Join(got, "\n"))
		}
	}
}

func TestMaskAppliesEdits(t *testing.T) {
	rewrite := func(p lang.Piece) []lang.Edit {
		var es []lang.Edit
		switch p.Kind {
		case lang.PieceIdentifier:
			if i := strings.Index(strings.ToLower(p.Text), "foreca"); i >= 0 {
				es = append(es, lang.Edit{Start: i, End: i + len("foreca"), New: "HOST"})
			}
			if p.Text == "city" {
				es = append(es, lang.Edit{Start: 0, End: 4, New: "1city"}) // not an identifier: left out
			}
			if p.Text == "units" {
				es = append(es, lang.Edit{Start: 0, End: 5, New: "class"}) // a reserved word: left out
			}
		case lang.PieceString, lang.PieceComment:
			if i := strings.Index(p.Text, "foreca.p.rapidapi.com"); i >= 0 {
				es = append(es, lang.Edit{Start: i, End: i + len("foreca.p.rapidapi.com"), New: "<HOST>"})
			}
			if i := strings.Index(p.Text, "Foreca"); i >= 0 {
				es = append(es, lang.Edit{Start: i, End: i + len("Foreca"), New: "<API_NAME>"})
			}
			if p.Text == "\\n" {
				es = append(es, lang.Edit{Start: 0, End: 1, New: "x"}) // cuts an escape sequence: left out
			}
			if p.PairKey == "lang" {
				es = append(es, lang.Edit{Start: 0, End: len(p.Text), New: "<VALUE_1>"})
			}
		case lang.PieceNumber:
			es = append(es, lang.Edit{Start: 0, End: len(p.Text), New: `"<VALUE_2>"`})
		}
		return es
	}
	m, err := Mask(context.Background(), lang.DialectJS, []byte(maskSrc), "Client.getForecaNow", rewrite)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`const HOST_URL = 'https://<HOST>'; // the <API_NAME> host`, `async getHOSTNow(city, units`,
		"`${HOST_URL}/current/${city}\\n`", `'lang': "<VALUE_1>"`, `limit: "<VALUE_2>"`, `periods: "<VALUE_2>"`} {
		if !strings.Contains(m.Code, want) {
			t.Errorf("masked code lacks %q:\n%s", want, m.Code)
		}
	}
	if m.Edits != 8 {
		t.Errorf("%d edits, want 8:\n%s", m.Edits, m.Code)
	}
	if m.Name != "getHOSTNow" {
		t.Errorf("name %q, want the masked getHOSTNow", m.Name)
	}
	if !slices.Equal(m.Parameters, []string{"city", "units", "key"}) {
		t.Errorf("parameters %q", m.Parameters)
	}
	if !slices.Equal(m.Returns, []string{`r.data['current']`}) {
		t.Errorf("returns %q (the nested function's return must be left out)", m.Returns)
	}
}

func TestMaskTypeScriptAndArrow(t *testing.T) {
	src := "export const getUser = async (id: string): Promise<User> => (await fetch(`https://api.example.com/users/${id}`)).json();\n"
	m, err := Mask(context.Background(), lang.DialectTS, []byte(src), "getUser", func(p lang.Piece) []lang.Edit {
		if p.Kind == lang.PieceString && strings.Contains(p.Text, "api.example.com") {
			return []lang.Edit{{Start: 0, End: len(p.Text), New: "<URL>/"}}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.Code, "`<URL>/${id}`") || m.Name != "getUser" || !slices.Equal(m.Parameters, []string{"id"}) ||
		len(m.Returns) != 1 || !strings.HasPrefix(m.Returns[0], "(await fetch(") {
		t.Errorf("masked %+v", m)
	}
}

func TestMaskRefusesBrokenSyntax(t *testing.T) {
	_, err := Mask(context.Background(), lang.DialectJS, []byte("const x = 'a';\n"), "", func(p lang.Piece) []lang.Edit {
		if p.Kind == lang.PieceString {
			return []lang.Edit{{Start: 0, End: 1, New: "'"}}
		}
		return nil
	})
	if !errors.Is(err, lang.ErrMaskBrokeSyntax) {
		t.Fatalf("err = %v, want ErrMaskBrokeSyntax", err)
	}
}

func TestIsIdentifier(t *testing.T) {
	for s, want := range map[string]bool{"city": true, "$el": true, "_x1": true, "café": true, "1x": false, "a-b": false,
		"class": false, "await": false, "": false, "x y": false} {
		if IsIdentifier(s) != want {
			t.Errorf("IsIdentifier(%q) = %v, want %v", s, !want, want)
		}
	}
}
