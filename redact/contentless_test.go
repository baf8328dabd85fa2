package redact

import (
	"testing"

	"sccg/leakcheck"
)

func TestContentless(t *testing.T) {
	tests := []struct {
		intent string
		want   bool
	}{
		{"Get the data.", true},
		{"Submit the data.", true},
		{"Get the init for a given master and nombre.", true},
		{"Call the service and return its response.", true},
		{"Fetch the data for a given city and return the JSON response. Return nothing when the request fails.", true},
		{"Gets the result", true},
		{"Get the main info and return the response text.", true},
		{"Get the current weather for a given city and return the JSON response.", false},
		{"Get the quotes and return them.", false},
		{"Get the data for a given city and return the forecast from the response.", false},
		{"Translate the text into a given language.", false},
		{"Search for news for a given topic and language and return the articles.", false},
		{"Get every pokemon of the list, one per line", false},
		{"Returns the JSON response.\nMakes the request.", true},
		{"Search for a given keyword, number and language and return the JSON response.", false},
		{"Search for a given query.", false},
		{"Search for the data.", true},
		{"Look up a given result.", true},
		{"Check the all for the given keywords.", true},
		{"", true},
	}
	for _, tc := range tests {
		if got := Contentless(tc.intent); got != tc.want {
			t.Errorf("Contentless(%q) = %v, want %v", tc.intent, got, tc.want)
		}
	}
}

// TestOfflineIntentForNamesThatSayNothing: callers and entry points (main,
// __init__, run) get an intent that says what they fetch — from the keys they
// read, the route's words or the documented endpoint — never "Get the data.".
func TestOfflineIntentForNamesThatSayNothing(t *testing.T) {
	tests := []struct {
		name string
		in   OfflineInput
		g    leakcheck.Truth
		want string
	}{
		{"__init__ that reads fields of the response",
			OfflineInput{Masked: &Masked{Name: "__init__", Parameters: []string{"self", "master", "nombre"},
				Code: "def __init__(self, master, nombre):\n    data = requests.get(<URL>).json()\n    self.label = data[\"name\"] + str(data['weight'])\n"}, Method: "GET"},
			leakcheck.Truth{Host: "pokeapi.co", Route: "/api/v2/pokemon/{name}"},
			"Get the name weight for a given master and nombre."},
		{"main with a route that says what",
			OfflineInput{Masked: &Masked{Name: "main", Code: "def main():\n    print(requests.get(<URL>).json())\n"}, Method: "GET"},
			leakcheck.Truth{Host: "api.open-meteo.com", Route: "/v1/forecast"},
			"Get the forecast."},
		{"run with only the documented endpoint's name",
			OfflineInput{Masked: &Masked{Name: "run", Code: "def run():\n    return requests.post(<URL>).json()\n", Returns: []string{"r.json()"}},
				Method: "POST", Endpoint: "Sentiment of a review"},
			leakcheck.Truth{Host: "x.p.rapidapi.com", Route: "/v2/x1z"},
			"Submit the sentiment review and return the JSON response."},
		{"a key read from a call's result, and a name word that is no object",
			OfflineInput{Masked: &Masked{Name: "collect_all", Parameters: []string{"job_id"},
				Code: "def collect_all(job_id):\n    state = requests.get(<URL>).json().get(\"state\")\n    return job_id\n", Returns: []string{"job_id"}}, Method: "GET"},
			leakcheck.Truth{Host: "scraper.p.rapidapi.com", Route: "/status/{job_id}"},
			"Collect the state for a given job id and return the result."},
		{"a wrapper of any path: the API's category",
			OfflineInput{Masked: &Masked{Name: "_get", Parameters: []string{"path", "params"}, Returns: []string{"resp.json()"}}, Method: "GET", Category: "Weather"},
			leakcheck.Truth{Host: "weatherapi-com.p.rapidapi.com"},
			"Get the weather for a given path and return the JSON response."},
		{"get_data: the name says nothing, the key returned does",
			OfflineInput{Masked: &Masked{Name: "get_data", Returns: []string{`r.json()["articles"]`}}, Method: "GET"},
			leakcheck.Truth{Host: "news.p.rapidapi.com", Route: "/v1/top"},
			"Get the articles and return them."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := OfflineIntent(tc.in, tc.g)
			if got != tc.want {
				t.Errorf("OfflineIntent = %q, want %q", got, tc.want)
			}
			if Contentless(got) {
				t.Errorf("%q is contentless", got)
			}
			if r := leakcheck.LeakCheck(got, tc.g); r.Leaked {
				t.Errorf("%q leaks %v", got, r)
			}
		})
	}
}
