package redact

import (
	"context"
	"testing"

	"sccg/lang/python"
)

// TestJudgeComment runs the extractor on small functions and judges their comments
// with its flags.
func TestJudgeComment(t *testing.T) {
	tests := []struct {
		name   string
		code   string
		usable bool
		reason string
	}{
		{"goal docstring", `def f(city):
    """Return the current weather for a city."""
    return requests.get("https://x.p.rapidapi.com/current", params={"q": city}).json()
`, true, CommentStatesGoal},
		{"goal comment", `def f(text):
    # translate the text into French
    return requests.post("https://x.p.rapidapi.com/translate", json={"t": text}).json()
`, true, CommentStatesGoal},
		{"template placeholders", `def f():
    # Define the target RapidAPI endpoint URL
    url = "https://x.p.rapidapi.com/v1/search"
    # YOUR CODE HERE
    return requests.get(url).json()
`, false, CommentPlaceholders},
		{"narration", `def f():
    # make the request
    r = requests.get("https://x.p.rapidapi.com/v1/search")
    # parse the response
    return r.json()
`, false, CommentPlaceholders},
		{"a bare url", `def f():
    # https://rapidapi.com/foo/api/x
    return requests.get("https://x.p.rapidapi.com/v1/search").json()
`, false, CommentNoGoal},
		{"a remark that states no goal", `def f(d):
    # date has to be dd-mm-yyyy for this endpoint
    return requests.get("https://x.p.rapidapi.com/history", params={"d": d}).json()
`, false, CommentNoGoal},
		{"step-by-step inline comments", `def main():
    # prints first pokemon
    r = requests.get("https://pokeapi.co/api/v2/pokemon/1")
    # get the weight of the pokemon
    print(r.json()["weight"])
    # Clears the terminal
    os.system("clear")
`, false, CommentInline},
		{"a docstring that says nothing", `def f():
    """Gets the data from the API."""
    return requests.get("https://x.p.rapidapi.com/v1/search").json()
`, false, CommentContentless},
		{"no comment", `def f():
    return requests.get("https://x.p.rapidapi.com/v1/search").json()
`, false, CommentNone},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := python.Extract(context.Background(), []byte("import requests\n\n"+tc.code), python.Options{})
			if err != nil || len(res.Functions) != 1 {
				t.Fatalf("extract: %v (%d functions)", err, len(res.Functions))
			}
			hc := JudgeComment(&res.Functions[0].Facts)
			if hc.Usable != tc.usable || hc.Reason != tc.reason {
				t.Errorf("JudgeComment = usable %v (%s), want %v (%s); text %q", hc.Usable, hc.Reason, tc.usable, tc.reason, hc.Text)
			}
		})
	}
}
