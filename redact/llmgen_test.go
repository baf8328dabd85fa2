package redact

import (
	"slices"
	"strings"
	"testing"

	"sccg/leakcheck"
	"sccg/llm"
)

func TestCleanAnswer(t *testing.T) {
	tests := []struct {
		name, raw, want, problem string
	}{
		{"plain", "Get the current weather for a city.", "Get the current weather for a city.", ""},
		{"quoted with a preamble", "Intent: \"Get the current weather for a city.\"\n", "Get the current weather for a city.", ""},
		{"spaces folded", "Find   words\n that rhyme.", "Find words that rhyme.", ""},
		{"empty", "  \n", "", "empty"},
		{"code", "```python\ndef f():\n    pass\n```", "", "code"},
		{"code without fences", "import requests\nrequests.get(url)", "", "code"},
		{"too long", strings.Repeat("word ", 100), "", "bytes long"},
		{"placeholders", "Call <HOST> to get the <PARAM_1>.", "", "placeholders"},
		{"not a sentence", "Weather.", "", "not a sentence"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := cleanAnswer(tc.raw)
			if tc.problem != "" {
				if err == nil || !strings.Contains(err.Error(), tc.problem) {
					t.Fatalf("cleanAnswer(%q) = %q, %v; want a problem with %q", tc.raw, got, err, tc.problem)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("cleanAnswer(%q) = %q, %v; want %q", tc.raw, got, err, tc.want)
			}
		})
	}
}

func TestPickAnchors(t *testing.T) {
	pool := []anchor{
		{functionID: 1, apiID: 10, host: "temp-mail44.p.rapidapi.com", family: leakcheck.HostFamily("temp-mail44.p.rapidapi.com"), text: "Create a throwaway inbox for sign-ups."},
		{functionID: 2, apiID: 11, host: "temp-mail.p.rapidapi.com", family: leakcheck.HostFamily("temp-mail.p.rapidapi.com"), text: "Read the newest mail of an inbox."},
		{functionID: 3, apiID: 12, host: "meteostat.p.rapidapi.com", family: leakcheck.HostFamily("meteostat.p.rapidapi.com"), text: "Get the daily weather of a station."},
		{functionID: 4, apiID: 13, host: "news-api14.p.rapidapi.com", family: leakcheck.HostFamily("news-api14.p.rapidapi.com"), text: "Search the news for a topic."},
		{functionID: 5, apiID: 14, host: "jokes.p.rapidapi.com", family: leakcheck.HostFamily("jokes.p.rapidapi.com"), text: "Tell a joke about the Temp-Mail44 service."},
		{functionID: 6, apiID: 15, host: "quotes.p.rapidapi.com", family: leakcheck.HostFamily("quotes.p.rapidapi.com"), text: "Show a quote of the day."},
	}
	got := pickAnchors(pool, 99, 10, "temp-mail44.p.rapidapi.com", tempMail)
	if len(got) != Anchors {
		t.Fatalf("%d anchors, want %d: %q", len(got), Anchors, got)
	}
	for _, bad := range []string{"Create a throwaway inbox for sign-ups.", "Read the newest mail of an inbox.", "Tell a joke about the Temp-Mail44 service."} {
		if slices.Contains(got, bad) {
			t.Errorf("anchor %q: same API, same host family, or it names the sample's host", bad)
		}
	}
	if again := pickAnchors(pool, 99, 10, "temp-mail44.p.rapidapi.com", tempMail); !slices.Equal(again, got) {
		t.Errorf("anchors differ between two picks: %q vs %q", got, again)
	}
	if other := pickAnchors(pool, 98, 10, "temp-mail44.p.rapidapi.com", tempMail); len(other) != Anchors {
		t.Errorf("another function gets %d anchors", len(other))
	}
	if leakcheck.HostFamily("temp-mail44.p.rapidapi.com") != leakcheck.HostFamily("temp-mail.p.rapidapi.com") {
		t.Error("temp-mail44 and temp-mail are one host family")
	}
}

func TestAnchorText(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"Return the current conditions for a city name.\n\nArgs: city", "Return the current conditions for a city name.", true},
		{"Fetch news. Then print them all.", "Fetch news.", false}, // three words: too short to show a style
		{"Get the weather from https://x.p.rapidapi.com/current today", "", false},
		{"Call get_weather(city) and return it", "", false},
	}
	for _, tc := range tests {
		got, ok := anchorText(tc.in)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("anchorText(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestPrompts(t *testing.T) {
	first := stylePrompt("def f():\n    return requests.get(\"<URL>\").json()\n", []string{"Get the daily weather of a station."})
	if len(first) != 2 || first[0].Role != llm.RoleSystem || !strings.Contains(first[1].Content, "- Get the daily weather of a station.") ||
		!strings.Contains(first[1].Content, "```python\ndef f():") {
		t.Fatalf("style prompt = %+v", first)
	}
	rep := leakcheck.LeakCheck("Create an inbox on Temp-Mail44.", tempMail)
	problem := "it gives away " + rep.String()
	strict := strictPrompt(first, "Create an inbox on Temp-Mail44.", problem, rep.Terms())
	if len(strict) != 4 || strict[2].Role != llm.RoleAssistant || strict[3].Role != llm.RoleUser {
		t.Fatalf("strict prompt = %+v", strict)
	}
	if !strings.Contains(strict[3].Content, `"temp-mail44"`) || !strings.Contains(strict[3].Content, "Temp-Mail44") {
		t.Errorf("the stricter prompt does not name what leaked: %q", strict[3].Content)
	}
	// a huge or empty answer is not repeated back to the model
	if got := strictPrompt(first, strings.Repeat("x", 10<<10), "too long", nil); len(got) != 3 {
		t.Errorf("strict prompt after a 10 kB answer has %d messages, want 3", len(got))
	}
}
