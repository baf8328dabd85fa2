package split

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"sccg/release"
)

func TestNameTokens(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"slug", "realtime-google-trends", []string{"google", "realtime", "trends"}},
		{"generic words dropped", "google-realtime-trends-data-api", []string{"google", "realtime", "trends"}},
		{"uniqueness digits dropped", "twitter154", []string{"twitter"}},
		{"host suffix dropped", "weather-now.p.rapidapi.com", []string{"now", "weather"}},
		{"camel case and versions", "OpenWeatherMap_v2", []string{"map", "open", "weather"}},
		{"only generic", "api-data", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := NameTokens(tc.in); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("NameTokens(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestProviderOfHost(t *testing.T) {
	tests := []struct{ name, host, want string }{
		{"rapidapi gateway says nothing", "meteostat.p.rapidapi.com", ""},
		{"registrable domain", "api.lambdatest.com", "lambdatest.com"},
		{"two-label public suffix", "api.example.co.uk", "example.co.uk"},
		{"bare domain", "mediafire.com", "mediafire.com"},
		{"ip address", "127.0.0.1", ""},
		{"empty", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ProviderOfHost(tc.host); got != tc.want {
				t.Errorf("ProviderOfHost(%q) = %q, want %q", tc.host, got, tc.want)
			}
		})
	}
}

func TestFamilies(t *testing.T) {
	units := []Unit{
		{RowID: 1, API: "realtime-google-trends", Host: "realtime-google-trends.p.rapidapi.com"},
		{RowID: 2, API: "google-realtime-trends-data-api", Host: "google-realtime-trends-data-api.p.rapidapi.com"},
		{RowID: 3, API: "maps-one", Host: "api.mapsco.com"},
		{RowID: 4, API: "maps-two", Host: "tiles.mapsco.com"},
		{RowID: 5, API: "yahoo-finance", Host: "yahoo-finance15.p.rapidapi.com", Provider: "sparior"},
		{RowID: 6, API: "stock-news", Host: "stock-news1.p.rapidapi.com", Provider: "sparior"},
		{RowID: 7, API: "shared-a", Host: "shared.p.rapidapi.com"},
		{RowID: 8, API: "shared-b", Host: "shared.p.rapidapi.com"},
		{RowID: 9, API: "copy-x", Host: "x.p.rapidapi.com", Cluster: 77},
		{RowID: 10, API: "copy-y", Host: "y.p.rapidapi.com", Cluster: 77},
		{RowID: 11, API: "google-maps", Host: "google-maps.p.rapidapi.com"},
		{RowID: 12, API: "lonely", Host: "lonely.p.rapidapi.com"},
	}
	fam, why := Families(units, 0)
	tests := []struct {
		name   string
		a, b   string
		same   bool
		reason string
	}{
		{"near-identical names", "realtime-google-trends", "google-realtime-trends-data-api", true, "similar name"},
		{"hosts of one domain", "maps-one", "maps-two", true, "provider"},
		{"one RapidAPI owner", "yahoo-finance", "stock-news", true, "provider"},
		{"shared host", "shared-a", "shared-b", true, "host"},
		{"near-duplicate cluster", "copy-x", "copy-y", true, "near-duplicate cluster"},
		{"one shared token is not enough", "google-maps", "realtime-google-trends", false, ""},
		{"unrelated", "lonely", "maps-one", false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if same := fam[tc.a] == fam[tc.b]; same != tc.same {
				t.Fatalf("same family = %v, want %v (%q vs %q)", same, tc.same, fam[tc.a], fam[tc.b])
			}
			if tc.same {
				found := false
				for _, r := range why[fam[tc.a]] {
					found = found || r == tc.reason
				}
				if !found {
					t.Errorf("family %s joined by %q, want %q among them", fam[tc.a], why[fam[tc.a]], tc.reason)
				}
			}
		})
	}
}

// longTail makes n APIs with a long-tailed number of samples each, like the
// published benchmark (many APIs with one sample, a few with dozens).
func longTail(n int, seed uint64) []Unit {
	rng := rand.New(rand.NewPCG(seed, 1))
	var units []Unit
	id := int64(0)
	dmt := []string{"url", "route", "host_only"}
	for a := 0; a < n; a++ {
		k := 1 + int(math.Floor(math.Pow(rng.Float64(), 4)*30))
		api := fmt.Sprintf("svc%c%c-%d", 'a'+rune(a%26), 'a'+rune(a/26%26), a)
		for i := 0; i < k; i++ {
			id++
			units = append(units, Unit{RowID: id, SampleID: release.FormatID(int(id)), API: api, Host: api + ".p.rapidapi.com",
				DocMatchType: dmt[int(id)%3], CommentsSource: "original", Method: "GET"})
		}
	}
	return units
}

func TestAssign(t *testing.T) {
	units := longTail(850, 7)
	p1, err := Assign(units, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	rev := append([]Unit(nil), units...)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	p1r, err := Assign(rev, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	p2, err := Assign(units, Options{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("ratios over samples", func(t *testing.T) {
		for i, sr := range p1.Report.Splits {
			if math.Abs(sr.Share-DefaultRatios[i]) > 0.01 {
				t.Errorf("%s share = %.4f, want %.3f ± 0.01", sr.Name, sr.Share, DefaultRatios[i])
			}
		}
		t.Logf("%d samples, %d APIs: shares %.4f / %.4f / %.4f", len(units), p1.Report.APIs,
			p1.Report.Splits[0].Share, p1.Report.Splits[1].Share, p1.Report.Splits[2].Share)
	})
	t.Run("no API in two splits", func(t *testing.T) {
		if err := Verify(units, p1.Split); err != nil {
			t.Error(err)
		}
		bad := map[int64]string{}
		for k, v := range p1.Split {
			bad[k] = v
		}
		bad[units[0].RowID], bad[units[1].RowID] = release.Train, release.Test // same API, two splits
		if units[0].API == units[1].API && Verify(units, bad) == nil {
			t.Error("Verify accepted an API in two splits")
		}
	})
	t.Run("same seed, any input order, same plan", func(t *testing.T) {
		if !reflect.DeepEqual(p1.Split, p1r.Split) {
			t.Error("plans differ for the same units in another order")
		}
	})
	t.Run("another seed, another plan", func(t *testing.T) {
		if reflect.DeepEqual(p1.Split, p2.Split) {
			t.Error("seeds 1 and 2 gave the same plan")
		}
	})
	t.Run("report spreads strata", func(t *testing.T) {
		sum := 0
		for _, sr := range p1.Report.Splits {
			sum += sr.DocMatchType["url"] + sr.DocMatchType["route"] + sr.DocMatchType["host_only"]
		}
		if sum != len(units) {
			t.Errorf("doc_match_type counts sum to %d, want %d", sum, len(units))
		}
	})
}

func TestAssignKeepsFamilyTogetherAndHonoursRatios(t *testing.T) {
	units := longTail(60, 3)
	n := int64(len(units))
	units = append(units,
		Unit{RowID: n + 1, API: "realtime-google-trends", Host: "realtime-google-trends.p.rapidapi.com"},
		Unit{RowID: n + 2, API: "google-realtime-trends-data-api", Host: "google-realtime-trends-data-api.p.rapidapi.com"})
	tests := []struct {
		name   string
		ratios [3]float64
	}{
		{"default", DefaultRatios},
		{"no validation", [3]float64{0.8, 0, 0.2}},
		{"all test", [3]float64{0, 0, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Assign(units, Options{Seed: 9, Ratios: tc.ratios})
			if err != nil {
				t.Fatal(err)
			}
			if p.Split[n+1] != p.Split[n+2] {
				t.Errorf("family split: %s vs %s", p.Split[n+1], p.Split[n+2])
			}
			for i, sr := range p.Report.Splits {
				if tc.ratios[i] == 0 && sr.Samples != 0 {
					t.Errorf("%s has %d samples, want none", sr.Name, sr.Samples)
				}
			}
		})
	}
}

func TestParseRatios(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    [3]float64
		wantErr bool
	}{
		{"published", "0.72,0.085,0.195", [3]float64{0.72, 0.085, 0.195}, false},
		{"normalized", "8,1,1", [3]float64{0.8, 0.1, 0.1}, false},
		{"two numbers", "0.5,0.5", [3]float64{}, true},
		{"negative", "1,-1,1", [3]float64{}, true},
		{"zero", "0,0,0", [3]float64{}, true},
		{"junk", "a,b,c", [3]float64{}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseRatios(tc.in)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if tc.wantErr {
				return
			}
			for i := range got {
				if math.Abs(got[i]-tc.want[i]) > 1e-9 {
					t.Errorf("ratios = %v, want %v", got, tc.want)
				}
			}
		})
	}
}

// TestAssignWithFewerFamiliesThanSplits: one provider's APIs (hosts sharing a
// domain) are one family; with no other family they are placed API by API, and
// an API never straddles two splits. A single API cannot be split: the empty
// splits are warned of, with what to do.
func TestAssignWithFewerFamiliesThanSplits(t *testing.T) {
	var units []Unit
	add := func(host string, n int, cluster int64) {
		for range n {
			id := int64(len(units) + 1)
			units = append(units, Unit{RowID: id, SampleID: release.FormatID(int(id)), API: host, Host: host, Cluster: cluster})
		}
	}
	add("api.open-meteo.com", 10, 0)
	add("archive-api.open-meteo.com", 3, 0)
	add("geocoding-api.open-meteo.com", 2, 0)
	add("air-quality-api.open-meteo.com", 2, 7)
	add("marine-api.open-meteo.com", 1, 7) // shares near-duplicate code with air-quality: stays with it
	p, err := Assign(units, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if p.Report.Within == nil || p.Report.Within.Families != 1 || p.Report.Within.Units != 4 {
		t.Fatalf("within = %+v, want 1 family placed as 4 groups", p.Report.Within)
	}
	if len(p.Report.Warnings) != 0 {
		t.Errorf("warnings %v, want none: every split can be filled", p.Report.Warnings)
	}
	for _, sr := range p.Report.Splits {
		if sr.Samples == 0 {
			t.Errorf("split %s is empty", sr.Name)
		}
	}
	at := map[string]string{}
	for _, u := range units {
		at[u.API] = p.Split[u.RowID]
	}
	if at["air-quality-api.open-meteo.com"] != at["marine-api.open-meteo.com"] {
		t.Errorf("APIs sharing a near-duplicate cluster went to %s and %s", at["air-quality-api.open-meteo.com"], at["marine-api.open-meteo.com"])
	}

	one := units[:10] // a single API
	p, err = Assign(one, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if p.Report.Within != nil || len(p.Report.Warnings) != 2 {
		t.Fatalf("within %+v, warnings %q; want no split within and two empty-split warnings", p.Report.Within, p.Report.Warnings)
	}
	for _, w := range p.Report.Warnings {
		if !strings.Contains(w, "empty") || !strings.Contains(w, "--ratios") {
			t.Errorf("warning %q does not say what is empty and what to do", w)
		}
	}
}

// TestTimeCutoff checks a live test split: it holds only samples authored on or
// after the cutoff, no API is in two splits, and a test API's older samples (and
// those of unknown date) are left out with their reason and counted.
func TestTimeCutoff(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var units []Unit
	years := []string{"2016", "2019", "2021", "2023", "2024", "2025"}
	for a := 0; a < 40; a++ {
		api := fmt.Sprintf("api%02d-%c", a, 'a'+rune(a%26))
		for k := 0; k < 1+rng.IntN(6); k++ {
			u := Unit{RowID: int64(len(units) + 1), SampleID: fmt.Sprintf("SCG-%06d", len(units)+1), API: api, Host: api + ".example.org"}
			switch y := years[rng.IntN(len(years))]; {
			case rng.IntN(10) == 0:
				u.DateUnknown = "no history: not a git repository"
			default:
				u.AuthoredAt = y + "-03-01T00:00:00Z"
			}
			units = append(units, u)
		}
	}
	cutoff, err := ParseCutoff("2024-01-01")
	if err != nil {
		t.Fatal(err)
	}
	if cutoff != "2024-01-01T00:00:00Z" {
		t.Fatalf("ParseCutoff: %s", cutoff)
	}
	if _, err := ParseCutoff("June 2024"); err == nil {
		t.Error("ParseCutoff took June 2024")
	}
	p, err := Assign(units, Options{Seed: 3, TimeCutoff: cutoff})
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(units, p.Split); err != nil {
		t.Fatal(err)
	}
	testFamilies := map[string]bool{} // the APIs of a test family are all in test
	counts := map[string]int{}
	for _, u := range units {
		if p.Split[u.RowID] == release.Test {
			testFamilies[p.Family[u.RowID]] = true
			if u.AuthoredAt < cutoff {
				t.Errorf("%s (authored %q) is in test", u.SampleID, u.AuthoredAt)
			}
		}
	}
	for _, u := range units {
		why := p.LeftOut[u.RowID]
		switch {
		case testFamilies[p.Family[u.RowID]] && u.AuthoredAt == "":
			if !strings.HasPrefix(why, ReasonDateUnknown+": no history") {
				t.Errorf("%s of a test API, date unknown: left out %q", u.SampleID, why)
			}
		case testFamilies[p.Family[u.RowID]] && u.AuthoredAt < cutoff:
			if !strings.HasPrefix(why, ReasonBeforeCutoff+": its function was authored "+u.AuthoredAt) {
				t.Errorf("%s of a test API, authored %s: left out %q", u.SampleID, u.AuthoredAt, why)
			}
		case why != "":
			t.Errorf("%s left out (%q) though it may be in a split", u.SampleID, why)
		}
		if why != "" {
			k, _, _ := strings.Cut(why, ":")
			counts[k]++
			if p.Split[u.RowID] != "" {
				t.Errorf("%s left out but in %s", u.SampleID, p.Split[u.RowID])
			}
		}
	}
	if !reflect.DeepEqual(counts, p.Report.LeftOut) || counts[ReasonBeforeCutoff] == 0 {
		t.Errorf("left out %v, report says %v", counts, p.Report.LeftOut)
	}
	if p.Report.Splits[2].Samples == 0 || p.Report.Splits[0].Samples == 0 {
		t.Errorf("splits %+v", p.Report.Splits)
	}

	// Nothing newer than the cutoff: an empty test split, said so.
	p, err = Assign(units, Options{Seed: 3, TimeCutoff: "2030-01-01T00:00:00Z"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Report.Splits[2].Samples != 0 || len(p.Report.Warnings) == 0 || !strings.Contains(p.Report.Warnings[0], "time cutoff 2030-01-01T00:00:00Z") {
		t.Errorf("a cutoff after every sample: test %d, warnings %q", p.Report.Splits[2].Samples, p.Report.Warnings)
	}
}
