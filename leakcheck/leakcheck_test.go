package leakcheck

import (
	"slices"
	"strings"
	"testing"
)

var (
	tempMail = Truth{Host: "temp-mail44.p.rapidapi.com", Route: "/api/v3/email/{email}/messages",
		URL: "https://temp-mail44.p.rapidapi.com/api/v3/email/{email}/messages", APINames: []string{"temp-mail44", "Temp Mail"}}
	meteostat = Truth{Host: "meteostat.p.rapidapi.com", Route: "/stations/daily", APINames: []string{"meteostat", "Meteostat"},
		ParamKeys: []string{"station", "start", "end", "stationId", "from_date"}, ParamValues: []string{"10637", "metric", "2024-01-01"}}
	foreca = Truth{Host: "foreca-weather.p.rapidapi.com", Route: "/forecast/15minutely/{location}", APINames: []string{"Foreca Weather"},
		ParamKeys: []string{"location", "periods", "dataset", "tempunit", "windunit", "lang"}, ParamValues: []string{"en", "C", "Paris"}}
	news = Truth{Host: "news-api14.p.rapidapi.com", Route: "/search", APINames: []string{"news-api14", "News API"},
		ParamKeys: []string{"q", "language", "pageSize", "country"}, ParamValues: []string{"us"}}
	weather = Truth{Host: "weather-api.p.rapidapi.com", Route: "/current", APINames: []string{"Weather API"}, ParamKeys: []string{"city", "units"}}
	snow    = Truth{Host: "ski-resort-forecast.p.rapidapi.com", Route: "/{resort}/snowConditions", ParamKeys: []string{"units"}}
	plain   = Truth{Host: "api.meteostat.net", Route: "/v2/point/hourly"}
	// hosts whose labels are ordinary words: the label leaks as a phrase only
	geocoding = Truth{Host: "forward-reverse-geocoding.p.rapidapi.com", Route: "/v1/reverse", ParamKeys: []string{"lat", "lon"}}
	sports    = Truth{Host: "sports-information.p.rapidapi.com", Route: "/mbb/schedule"}
)

func TestLeakCheckFindsLeaks(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		g     Truth
		kind  string
		found string
	}{
		{"host as written", "Calls temp-mail44.p.rapidapi.com for new mail.", tempMail, KindHost, "temp-mail44.p.rapidapi.com"},
		{"host label in title case", "Generate a temporary address using the Temp-Mail44 service.", tempMail, KindHostLabel, "Temp-Mail44"},
		{"host label joined", "create a tempmail44 inbox", tempMail, KindHostLabel, "tempmail44"},
		{"host label spaced", "make an inbox on temp mail 44", tempMail, KindHostLabel, "temp mail 44"},
		{"host label camel case", "use the TempMail44 client", tempMail, KindHostLabel, "TempMail44"},
		{"brand without its number", "Create a Temp-Mail inbox.", tempMail, KindHostLabel, "Temp-Mail"},
		{"brand joined without its number", "read the TempMail inbox", tempMail, KindHostLabel, "TempMail"},
		{"coined word of a label", "Fetch the Foreca outlook for a town.", foreca, KindHostLabel, "Foreca"},
		{"coined name", "Fetch daily weather records from the Meteostat RapidAPI.", meteostat, KindHostLabel, "Meteostat"},
		{"coined name in camel case", "ask MeteoStat for records", meteostat, KindHostLabel, "MeteoStat"},
		{"label of a non-RapidAPI host", "read hourly data from meteostat", plain, KindHostLabel, "meteostat"},
		{"url on the host", "GET https://temp-mail44.p.rapidapi.com/api/v3/email/x/messages and read", tempMail, KindURL,
			"https://temp-mail44.p.rapidapi.com/api/v3/email/x/messages"},
		{"route path", "poll /api/v3/email/{email}/messages for mail", tempMail, KindRoute, "/api/v3/email/{email}/messages"},
		{"two consecutive route segments", "hit stations/daily with a station", meteostat, KindRoute, "stations/daily"},
		{"a lone route segment with its slash", "query the /search endpoint for articles", news, KindRoute, "/search"},
		{"camel-case route segment", "read snowConditions for a resort", snow, KindRouteSegment, "snowConditions"},
		{"route segment in snake case", "read snow_conditions for a resort", snow, KindRouteSegment, "snow_conditions"},
		{"route segment with a number", "the 15minutely forecast for a place", foreca, KindRouteSegment, "15minutely"},
		{"camel-case parameter key", "pass the stationId of the station", meteostat, KindParamKey, "stationId"},
		{"snake-case parameter key", "filter by from_date", meteostat, KindParamKey, "from_date"},
		{"parameter key written differently", "set from-date first", meteostat, KindParamKey, "from-date"},
		{"camel-case key of a news API", "limit pageSize to ten", news, KindParamKey, "pageSize"},
		{"coined parameter key", "give tempunit in celsius", foreca, KindParamKey, "tempunit"},
		{"literal parameter value", "daily data for station 10637", meteostat, KindParamValue, "10637"},
		{"literal date value", "records since 2024-01-01", meteostat, KindParamValue, "2024-01-01"},
		{"literal place value", "the forecast for Paris", foreca, KindParamValue, "Paris"},
		{"api slug", "search the news-api14 listing", news, KindHostLabel, "news-api14"},
		{"api slug spaced with its number", "search news api 14 for stories", news, KindHostLabel, "news api 14"},
		{"joined api title", "query the WeatherAPI for a city", weather, KindHostLabel, "WeatherAPI"},
		{"label of ordinary words as a phrase", "Look up an address with the RapidAPI Forward-Reverse Geocoding service.", geocoding, KindHostLabel,
			"Forward-Reverse Geocoding"},
		{"label of ordinary words spaced", "use forward reverse geocoding to name the place", geocoding, KindHostLabel, "forward reverse geocoding"},
		{"label of two ordinary words", "Get the fixtures from the RapidAPI Sports Information service.", sports, KindHostLabel, "Sports Information"},
		{"label of two ordinary words joined", "ask SportsInformation for today's fixtures", sports, KindHostLabel, "SportsInformation"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := LeakCheck(tc.text, tc.g)
			if !r.Leaked {
				t.Fatalf("LeakCheck(%q) = clean, want a %s leak of %q", tc.text, tc.kind, tc.found)
			}
			i := slices.IndexFunc(r.Leaks, func(l Leak) bool { return l.Found == tc.found })
			if i < 0 {
				t.Fatalf("LeakCheck(%q) = %v, want %q among the leaks", tc.text, r, tc.found)
			}
			l := r.Leaks[i]
			if l.Kind != tc.kind {
				t.Errorf("leak %q: kind %s, want %s", tc.found, l.Kind, tc.kind)
			}
			if tc.text[l.Start:l.End] != l.Found {
				t.Errorf("leak span [%d,%d) is %q, want %q", l.Start, l.End, tc.text[l.Start:l.End], l.Found)
			}
			if l.Term == "" {
				t.Error("leak without its ground-truth term")
			}
		})
	}
}

func TestLeakCheckOrdinaryWords(t *testing.T) {
	tests := []struct {
		name string
		text string
		g    Truth
	}{
		{"goal of a temp mail API", "Create a disposable email address and list the messages that arrive in its inbox.", tempMail},
		{"temporary mail in words", "Make a temp mail box for sign-ups.", tempMail},
		{"goal of a weather station API", "Get the daily weather records of the nearest station between two dates.", meteostat},
		{"station id in words", "Look up a station id, then fetch readings from a start date to an end date.", meteostat},
		{"a news search", "Search the news for articles about a topic in a given language and country.", news},
		{"page size in words", "Return one page of results with a given page size.", news},
		{"weather in words", "Get the current weather for a city in metric units.", weather},
		{"weather api in words", "Use a weather API to get the current conditions.", weather},
		{"snow conditions in words", "Report the snow conditions at a ski resort.", snow},
		{"forecast words", "Get the minute-by-minute forecast for the next hour at a location.", foreca},
		{"hourly point data", "Fetch hourly observations for a point.", plain},
		{"route words apart", "daily readings for each of the stations", meteostat},
		{"slash not a route", "read and/or write the records", meteostat},
		{"short value never leaks", "answer in en", foreca},
		{"empty", "", tempMail},
		{"one word of a multi-word label", "Get the latest sports news for a team.", sports},
		{"another word of a multi-word label", "Collect information about upcoming matches.", sports},
		{"the label's words out of order", "information on sports", sports},
		{"the label's words apart", "sports fans want information fast", sports},
		{"the label's words split elsewhere", "sports in formation", sports},
		{"one word of a geocoding label", "reverse the list of coordinates", geocoding},
		{"two words of a three-word label", "reverse geocoding of a point", geocoding},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if r := LeakCheck(tc.text, tc.g); r.Leaked {
				t.Errorf("LeakCheck(%q) = %v, want clean", tc.text, r)
			}
		})
	}
}

func TestLeakCheckReportsEachLeakOnce(t *testing.T) {
	text := "Poll https://temp-mail44.p.rapidapi.com/api/v3/email/a/messages (Temp-Mail44) for mail"
	r := LeakCheck(text, tempMail)
	got := r.Tokens()
	want := []string{"https://temp-mail44.p.rapidapi.com/api/v3/email/a/messages", "Temp-Mail44"}
	if !slices.Equal(got, want) {
		t.Errorf("tokens %q, want %q (the host and route inside the URL belong to the URL)", got, want)
	}
	if terms := r.Terms(); len(terms) != 2 || terms[1] != "temp-mail44" {
		t.Errorf("terms %q, want the host then the label temp-mail44", terms)
	}
	if s := r.String(); !strings.HasPrefix(s, "leaked url ") {
		t.Errorf("String() = %q", s)
	}
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"stationId", []string{"station", "id"}},
		{"HTTPServer", []string{"http", "server"}},
		{"temp-mail44", []string{"temp", "mail", "44"}},
		{"get_temp_mail44_inbox", []string{"get", "temp", "mail", "44", "inbox"}},
		{"15minutely", []string{"15", "minutely"}},
		{"Größe über", []string{"größe", "über"}},
	}
	for _, tc := range tests {
		var got []string
		for _, tk := range tokenize(tc.in) {
			got = append(got, tk.norm)
			if tc.in[tk.start:tk.end] == "" {
				t.Errorf("%q: empty span", tc.in)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("tokenize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestIsWord(t *testing.T) {
	for _, w := range []string{"news", "search", "weather", "Forecasts", "stations", "minutely", "trending", "cities", "converted", "daily", "summarization", "payment"} {
		if !IsWord(w) {
			t.Errorf("IsWord(%q) = false, want true", w)
		}
	}
	for _, w := range []string{"meteostat", "foreca", "tempunit", "stationid", "xq", "rapidapi"} {
		if IsWord(w) {
			t.Errorf("IsWord(%q) = true, want false", w)
		}
	}
}

// BenchmarkLeakCheck measures one check of a two-sentence intent, the terms
// compiled each time as LeakCheck does.
func BenchmarkLeakCheck(b *testing.B) {
	text := "Generate a temporary email address and poll its inbox until a message arrives. Return the messages with their senders."
	for b.Loop() {
		LeakCheck(text, tempMail)
	}
}

// BenchmarkChecker measures the check alone, with the terms compiled once.
func BenchmarkChecker(b *testing.B) {
	text := "Generate a temporary email address and poll its inbox until a message arrives. Return the messages with their senders."
	c := Compile(tempMail)
	for b.Loop() {
		c.Check(text)
	}
}
