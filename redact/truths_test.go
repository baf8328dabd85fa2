package redact

import "sccg/leakcheck"

// The ground truths the redact tests mask and check against (the same as leakcheck's
// own tests use).
var (
	tempMail = leakcheck.Truth{Host: "temp-mail44.p.rapidapi.com", Route: "/api/v3/email/{email}/messages",
		URL: "https://temp-mail44.p.rapidapi.com/api/v3/email/{email}/messages", APINames: []string{"temp-mail44", "Temp Mail"}}
	meteostat = leakcheck.Truth{Host: "meteostat.p.rapidapi.com", Route: "/stations/daily", APINames: []string{"meteostat", "Meteostat"},
		ParamKeys: []string{"station", "start", "end", "stationId", "from_date"}, ParamValues: []string{"10637", "metric", "2024-01-01"}}
	foreca = leakcheck.Truth{Host: "foreca-weather.p.rapidapi.com", Route: "/forecast/15minutely/{location}", APINames: []string{"Foreca Weather"},
		ParamKeys: []string{"location", "periods", "dataset", "tempunit", "windunit", "lang"}, ParamValues: []string{"en", "C", "Paris"}}
	news = leakcheck.Truth{Host: "news-api14.p.rapidapi.com", Route: "/search", APINames: []string{"news-api14", "News API"},
		ParamKeys: []string{"q", "language", "pageSize", "country"}, ParamValues: []string{"us"}}
	weather = leakcheck.Truth{Host: "weather-api.p.rapidapi.com", Route: "/current", APINames: []string{"Weather API"}, ParamKeys: []string{"city", "units"}}
)
