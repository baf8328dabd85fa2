package retrieve

import (
	"reflect"
	"testing"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"prose with stop words and plurals", "Get the daily forecasts for cities", []string{"get", "daily", "forecast", "city"}},
		{"camelCase keeps the joined form", "getUserInfo", []string{"get", "user", "info", "getuserinfo"}},
		{"snake_case joins like camelCase", "get_user_info", []string{"get", "user", "info", "getuserinfo"}},
		{"kebab-case joins like camelCase", "get-user-info", []string{"get", "user", "info", "getuserinfo"}},
		{"capital runs", "HTTPServerURL", []string{"http", "server", "url", "httpserverurl"}},
		{"route segments and holes", "/v1/forecast/{locationId}/hourly", []string{"v1", "forecast", "location", "id", "locationid", "hourly"}},
		{"host", "realtime-google-trends.p.rapidapi.com", []string{"realtime", "google", "trend", "realtimegoogletrend", "rapidapi", "com"}},
		{"letters and digits", "v2 utf8 2024", []string{"v2", "utf", "utf8", "2024"}},
		{"one-letter parts dropped, joined kept", "a_b", []string{"ab"}},
		{"words that look plural are kept", "status address news", []string{"status", "address", "new"}},
		{"leading and trailing separators", "__init__ -x-", []string{"init"}},
		{"unicode letters", "Prévisions météo", []string{"prévision", "météo"}},
		{"empty", " .,;/ ", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Tokenize(tc.in); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Tokenize(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
