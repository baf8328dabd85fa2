package answer

import "testing"

const fn = "get_weather"

const code = "import requests\n\ndef get_weather(city):\n    return requests.get(\"https://w.p.rapidapi.com/now\", params={\"q\": city}).json()\n"

func TestExtract(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		want      string
		form      string
		reasoning bool
	}{
		{"bare code", code, code, FormBare, false},
		{"bare code starting with a comment", "# fetch the weather\n" + code, "# fetch the weather\n" + code, FormBare, false},
		{"annotated assignment first is kept", "TIMEOUT: int = 5\n" + code, "TIMEOUT: int = 5\n" + code, FormBare, false},
		{"fenced with prose around", "Here is the function you asked for:\n\n```python\n" + code + "```\n\nIt returns the JSON.", code, FormFenced, false},
		{"unlabelled fence", "```\n" + code + "```", code, FormFenced, false},
		{"fence cut off by the token limit", "```python\n" + code, code, FormFenced, false},
		{"think block then bare code", "<think>\nThe user wants the weather. I'll use requests.get(url).\n</think>\n" + code, code, FormBare, true},
		{"think block then fenced code", "<think>I could write ```python\ndef wrong(): pass\n``` but no.</think>\n```python\n" + code + "```", code, FormFenced, true},
		{"reasoning tag", "<reasoning>plan: call the API</reasoning>\n" + code, code, FormBare, true},
		{"closing tag only (template opened it)", "The user wants weather data.\n</think>\n\n" + code, code, FormBare, true},
		{"think block never closed", "<think>\nLet me think about the endpoint", "", FormEmpty, true},
		{"prose then bare code", "Sure! Here's the code that fetches the weather.\n\n" + code, code, FormTrimmed, false},
		{"no code at all", "I cannot help with that request.", "I cannot help with that request.", FormNone, false},
		{"several blocks: the one defining the function, with the imports before it",
			"Install it:\n```bash\npip install requests\n```\n```python\nimport requests\n```\nThen:\n```python\ndef helper():\n    pass\n```\n```python\ndef get_weather(city):\n    return 1\n```\nUsage:\n```python\nprint(get_weather('x'))\n```",
			"import requests\n\ndef get_weather(city):\n    return 1\n", FormFenced, false},
		{"several blocks, none defines the function: all joined", "```python\nimport requests\n```\n```python\nx = 1\n```", "import requests\n\nx = 1\n", FormFenced, false},
		{"a think tag inside a string is code", "html = \"<think>\"\n" + code, "html = \"<think>\"\n" + code, FormBare, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Extract(tt.in, fn)
			if got.Text != tt.want || got.Form != tt.form || got.Reasoning != tt.reasoning {
				t.Errorf("got %q form %s reasoning %v,\nwant %q form %s reasoning %v", got.Text, got.Form, got.Reasoning, tt.want, tt.form, tt.reasoning)
			}
		})
	}
}

// A reasoning model's answer gives the code of the same answer without its
// reasoning, fenced or not.
func TestReasoningRemovedGivesThePlainCode(t *testing.T) {
	for _, plain := range []string{code, "```python\n" + code + "```"} {
		for _, wrap := range []string{"<think>\nplan it\n</think>", "<THINK>plan</THINK>", "<reasoning>x</reasoning>\n<think>y</think>"} {
			a, b := Extract(wrap+plain, fn), Extract(plain, fn)
			if a.Text != b.Text || !a.Reasoning || b.Reasoning {
				t.Errorf("%q: got %q (reasoning %v), want %q", wrap, a.Text, a.Reasoning, b.Text)
			}
		}
	}
}
