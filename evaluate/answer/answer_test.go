package answer

import (
	"testing"

	"sccg/lang"
)

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
			got := Extract(tt.in, fn, lang.Python)
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
			a, b := Extract(wrap+plain, fn, lang.Python), Extract(plain, fn, lang.Python)
			if a.Text != b.Text || !a.Reasoning || b.Reasoning {
				t.Errorf("%q: got %q (reasoning %v), want %q", wrap, a.Text, a.Reasoning, b.Text)
			}
		}
	}
}

const jsCode = "import axios from 'axios';\n\nexport async function getWeather(city) {\n  const res = await axios.get('https://w.p.rapidapi.com/now', { params: { q: city } });\n  return res.data;\n}\n"

func TestExtractJavaScript(t *testing.T) {
	const jsFn = "getWeather"
	tests := []struct {
		name      string
		language  lang.Name
		in        string
		want      string
		form      string
		reasoning bool
	}{
		{"bare code", lang.JavaScript, jsCode, jsCode, FormBare, false},
		{"js fence with prose", lang.JavaScript, "Here you go:\n\n```js\n" + jsCode + "```\nIt returns the data.", jsCode, FormFenced, false},
		{"javascript fence", lang.JavaScript, "```javascript\n" + jsCode + "```", jsCode, FormFenced, false},
		{"jsx fence", lang.JavaScript, "```jsx\n" + jsCode + "```", jsCode, FormFenced, false},
		{"typescript fence for a TypeScript sample", lang.TypeScript, "```typescript\n" + jsCode + "```", jsCode, FormFenced, false},
		{"tsx fence", lang.TypeScript, "```tsx\n" + jsCode + "```", jsCode, FormFenced, false},
		{"ts fence", lang.TypeScript, "```ts\n" + jsCode + "```", jsCode, FormFenced, false},
		{"a python fence is not a JavaScript block", lang.JavaScript, "```python\nprint(1)\n```\n```js\n" + jsCode + "```", jsCode, FormFenced, false},
		{"think block then bare code", lang.JavaScript, "<think>use axios</think>\n" + jsCode, jsCode, FormBare, true},
		{"prose then code", lang.JavaScript, "Sure! Here is the code that fetches the weather.\n\n" + jsCode, jsCode, FormTrimmed, false},
		{"prose then a comment", lang.JavaScript, "Sure, this works.\n// fetch the weather\n" + jsCode, "// fetch the weather\n" + jsCode, FormTrimmed, false},
		{"blocks: the one with the function declaration, imports before it", lang.JavaScript,
			"```bash\nnpm i axios\n```\n```js\nimport axios from 'axios';\n```\n```js\nfunction helper() {}\n```\n```js\nasync function getWeather(city) {\n  return 1;\n}\n```\n```js\ngetWeather('x').then(console.log);\n```",
			"import axios from 'axios';\n\nasync function getWeather(city) {\n  return 1;\n}\n", FormFenced, false},
		{"blocks: a const arrow function", lang.JavaScript,
			"```js\nconst helper = () => 1;\n```\n```js\nconst getWeather = async (city) => {\n  return 1;\n};\n```\n```js\nconsole.log(1);\n```",
			"const getWeather = async (city) => {\n  return 1;\n};\n", FormFenced, false},
		{"blocks: a typed const function", lang.TypeScript,
			"```ts\ntype W = { t: number };\n```\n```ts\nexport const getWeather = async (city: string): Promise<W> => {\n  return { t: 1 };\n};\n```\n```ts\ngetWeather('x');\n```",
			"type W = { t: number };\n\nexport const getWeather = async (city: string): Promise<W> => {\n  return { t: 1 };\n};\n", FormFenced, false},
		{"blocks: a class method", lang.TypeScript,
			"```ts\nimport axios from 'axios';\n```\n```ts\nclass Client {\n  async getWeather(city: string) {\n    return 1;\n  }\n}\n```\n```ts\nnew Client().getWeather('x');\n```",
			"import axios from 'axios';\n\nclass Client {\n  async getWeather(city: string) {\n    return 1;\n  }\n}\n", FormFenced, false},
		{"no code", lang.JavaScript, "I cannot help with that.", "I cannot help with that.", FormNone, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Extract(tt.in, jsFn, tt.language)
			if got.Text != tt.want || got.Form != tt.form || got.Reasoning != tt.reasoning {
				t.Errorf("got %q form %s reasoning %v,\nwant %q form %s reasoning %v", got.Text, got.Form, got.Reasoning, tt.want, tt.form, tt.reasoning)
			}
		})
	}
}
