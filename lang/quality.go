package lang

import "math"

// Quality component weights; the positive ones sum to 100.
const (
	wSyntax           = 20
	wAPICall          = 20
	wResponse         = 15
	wErrorTry         = 10
	wErrorStatus      = 5
	wLength           = 10
	wRepo             = 10
	wComments         = 5
	wDocstring        = 5
	penDatabase       = -10
	penIndentation    = -10
	penMissingImports = -10
)

// QualityComponents names every component of Quality.Components.
var QualityComponents = []string{"syntax", "api_call", "response_handling", "error_handling", "length", "repo_signals",
	"comments", "docstring", "database_call", "indentation", "missing_imports"}

// QualitySignals are what a frontend found in one function that Score weighs
// besides its Checks.
type QualitySignals struct {
	Try          bool // a try around a request (or a .catch on its promise)
	StatusCheck  bool // the function checks the response's status
	EffectiveLOC int
	Stars, Forks int
	RealComments bool // a comment that is not a placeholder
}

// Score computes the quality score from checks and signals, the same for every
// language: each component is recorded, penalties negative.
func Score(ck Checks, s QualitySignals) Quality {
	q := Quality{Components: map[string]float64{}, Checks: ck}
	c := q.Components
	c["syntax"] = boolScore(ck.IsSyntacticallyValid, wSyntax)
	c["api_call"] = boolScore(ck.HasAPICall, wAPICall)
	c["response_handling"] = boolScore(ck.HasResponseHandling, wResponse)
	c["error_handling"] = boolScore(s.Try, wErrorTry) + boolScore(s.StatusCheck, wErrorStatus)
	switch loc := s.EffectiveLOC; {
	case loc >= 4 && loc <= 60:
		c["length"] = wLength
	case loc >= 2 && loc <= 150:
		c["length"] = wLength / 2
	default:
		c["length"] = 0
	}
	signal := (math.Log10(1+float64(s.Stars)) + 0.5*math.Log10(1+float64(s.Forks))) / 3
	c["repo_signals"] = round1(wRepo * math.Min(1, signal))
	c["comments"] = boolScore(s.RealComments, wComments)
	c["docstring"] = boolScore(ck.HasDocstring, wDocstring)
	c["database_call"] = boolScore(ck.HasDatabaseCall, penDatabase)
	c["indentation"] = boolScore(ck.HasIndentationIssue, penIndentation)
	c["missing_imports"] = boolScore(len(ck.MissingImports) > 0, penMissingImports)
	total := 0.0
	for _, v := range c {
		total += v
	}
	q.Score = round1(math.Max(0, math.Min(100, total)))
	return q
}

// ZeroQuality is the quality of a rejected pseudo-function (script code): zero in
// every component.
func ZeroQuality() Quality {
	q := Quality{Components: map[string]float64{}}
	for _, k := range QualityComponents {
		q.Components[k] = 0
	}
	return q
}

func boolScore(b bool, w float64) float64 {
	if b {
		return w
	}
	return 0
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }
