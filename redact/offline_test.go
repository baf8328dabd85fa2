package redact

import (
	"context"
	"testing"

	"sccg/leakcheck"
)

func TestOfflineIntent(t *testing.T) {
	tests := []struct {
		name string
		in   OfflineInput
		g    leakcheck.Truth
		want string
	}{
		{"verb, object, argument and JSON",
			OfflineInput{Masked: &Masked{Name: "get_current_weather", Parameters: []string{"city"}, Returns: []string{"r.json()"}}, Method: "GET"},
			weather, "Get the current weather for a given city and return the JSON response."},
		{"no verb in the name: the method's",
			OfflineInput{Masked: &Masked{Name: "box_score", Parameters: []string{"game_id", "api_key"}, Returns: []string{"resp.json()[\"score\"]"}}, Method: "GET"},
			leakcheck.Truth{Host: "nba-stats.p.rapidapi.com"}, "Get the box score for a given game id and return the score from the response."},
		{"masked host in the name is left out",
			OfflineInput{Masked: &Masked{Name: "get_HOST_inbox", Parameters: []string{"email"}, Returns: []string{"data"}}, Method: "GET"},
			tempMail, "Get the inbox for a given email and return the data."},
		{"search with two arguments",
			OfflineInput{Masked: &Masked{Name: "search_news_by_topic", Parameters: []string{"topic", "lang"}, Returns: []string{"articles"}}, Method: "GET"},
			news, "Search for news for a given topic and language and return the articles."},
		{"post without a verb, failure value",
			OfflineInput{Masked: &Masked{Name: "sentiment", Parameters: []string{"text"}, Returns: []string{"None", "resp.json()"}}, Method: "POST", FailureValue: true},
			leakcheck.Truth{Host: "sentiment-analyzer.p.rapidapi.com"}, "Submit the sentiment for a given text and return the JSON response. Return nothing when the request fails."},
		{"an argument that spells a parameter key is left out",
			OfflineInput{Masked: &Masked{Name: "fetch_history", Parameters: []string{"tempunit", "city"}, Returns: []string{"r.text"}}, Method: "GET"},
			foreca, "Fetch the history for a given city and return the response text."},
		{"a name that gives nothing: the key it returns",
			OfflineInput{Masked: &Masked{Name: "main", Returns: []string{`resp.json().get("quotes", [])`}}, Method: "GET"},
			leakcheck.Truth{Host: "quotes.p.rapidapi.com"}, "Get the quotes and return them."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := OfflineIntent(tc.in, tc.g)
			if got != tc.want {
				t.Errorf("OfflineIntent = %q\n                   want %q", got, tc.want)
			}
			if r := leakcheck.LeakCheck(got, tc.g); r.Leaked {
				t.Errorf("the offline intent leaks: %v", r)
			}
		})
	}
}

// TestOfflineIntentNeverLeaks gives the generator names made of nothing but
// ground truth: what is left must still pass LeakCheck.
func TestOfflineIntentNeverLeaks(t *testing.T) {
	g := leakcheck.Truth{Host: "temp-mail44.p.rapidapi.com", Route: "/api/v3/email/{email}/messages", ParamKeys: []string{"emailId", "pageSize"}}
	code := "import requests\n\ndef tempmail44_messages(emailId, pageSize):\n    return requests.get('https://temp-mail44.p.rapidapi.com/api/v3/email/' + emailId + '/messages').json()['tempmail44']\n"
	m, err := Mask(context.Background(), code, g, MaskOptions{Function: "tempmail44_messages"})
	if err != nil {
		t.Fatal(err)
	}
	got := OfflineIntent(OfflineInput{Masked: m, Method: "GET"}, g)
	if r := leakcheck.LeakCheck(got, g); r.Leaked {
		t.Fatalf("OfflineIntent = %q leaks %v", got, r)
	}
	t.Logf("%s → %q", m.Name, got)
}
