package python

import (
	"context"
	"errors"
	"fmt"
	"sccg/lang"
	"slices"
	"strings"
	"testing"
)

const maskSrc = `import requests

FORECA_URL = "https://foreca.p.rapidapi.com"  # the Foreca host


class Client:
    def get_foreca_now(self, city, units="metric", *args, key: str = "", **kw):
        """Current conditions."""
        q = dict(location=city, periods=3)
        r = requests.get(f"{FORECA_URL}/current/{city}\n", params={"units": units, "lang": "en", "limit": 10})

        def inner():
            return 1
        return r.json()["current"]
`

func TestMaskOffersPieces(t *testing.T) {
	var got []string
	_, err := Mask(context.Background(), []byte(maskSrc), "", func(p lang.Piece) []lang.Edit {
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
		`3 1 "FORECA_URL" `,
		`3 2 "https://foreca.p.rapidapi.com" whole`,
		`3 4 " the Foreca host" `,
		`7 1 "get_foreca_now" `,
		`7 2 "metric" whole`,
		`8 2 "Current conditions." whole`,
		`9 1 "location" key`,
		`9 3 "3" value of periods`,
		`10 2 "/current/" `,
		`10 2 "\\n" `,
		`10 1 "FORECA_URL" `,
		`10 2 "units" whole,key`,
		`10 2 "en" whole,value of lang`,
		`10 3 "10" value of limit`,
		`14 2 "current" whole`,
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
	m, err := Mask(context.Background(), []byte(maskSrc), "Client.get_foreca_now", rewrite)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`HOST_URL = "https://<HOST>"  # the <API_NAME> host`, `def get_HOST_now(self, city,`,
		`f"{HOST_URL}/current/{city}\n"`, `"lang": "<VALUE_1>"`, `"limit": "<VALUE_2>"`, `periods="<VALUE_2>"`} {
		if !strings.Contains(m.Code, want) {
			t.Errorf("masked code lacks %q:\n%s", want, m.Code)
		}
	}
	if m.Edits != 8 {
		t.Errorf("%d edits, want 8", m.Edits)
	}
	// the outline reads the masked tree
	if m.Name != "get_HOST_now" {
		t.Errorf("name %q, want the masked get_HOST_now", m.Name)
	}
	if !slices.Equal(m.Parameters, []string{"city", "units", "key"}) {
		t.Errorf("parameters %q", m.Parameters)
	}
	if !slices.Equal(m.Returns, []string{`r.json()["current"]`}) {
		t.Errorf("returns %q (the nested function's return must be left out)", m.Returns)
	}
}

func TestMaskRefusesBrokenSyntax(t *testing.T) {
	_, err := Mask(context.Background(), []byte("x = 'a'\n"), "", func(p lang.Piece) []lang.Edit {
		if p.Kind == lang.PieceString {
			return []lang.Edit{{Start: 0, End: 1, New: "'"}}
		}
		return nil
	})
	if !errors.Is(err, lang.ErrMaskBrokeSyntax) {
		t.Fatalf("err = %v, want ErrMaskBrokeSyntax", err)
	}
}
