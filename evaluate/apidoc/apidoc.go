// Package apidoc is the documentation of an API's endpoints as the evaluator
// uses it: one Endpoint type that a prompt gives the model (evaluate/prompts) and
// a retriever indexes and returns (evaluate/retrieve), with its renderings.
package apidoc

import "strings"

// Endpoint is the documentation of one endpoint. A prompt writes it as JSON (the
// fields with a JSON name); a retriever names it by ID and indexes its Text.
type Endpoint struct {
	// ID names the endpoint for retrieval: "METHOD host/route", e.g.
	// "GET weather.p.rapidapi.com/forecast/{city}" (retrieve.DocID); a corpus sets it.
	ID  string `json:"-"`
	Key string `json:"id,omitempty"`  // the source's endpoint id (RapidAPI's apiendpoint_…), when known
	API string `json:"api,omitempty"` // the API's title (or name)
	// APIDescription and Category describe the API, for retrieval.
	APIDescription string            `json:"api_description,omitempty"`
	Category       string            `json:"category,omitempty"`
	Host           string            `json:"host"`
	URL            string            `json:"url,omitempty"`
	Method         string            `json:"method,omitempty"`
	Route          string            `json:"route,omitempty"`
	Name           string            `json:"name,omitempty"`
	Description    string            `json:"description,omitempty"`
	Headers        map[string]string `json:"headers,omitempty"`
	Params         []Param           `json:"params,omitempty"`
	Body           string            `json:"body,omitempty"` // a request body example
}

// Param is one documented parameter.
type Param struct {
	Name        string `json:"name"`
	Location    string `json:"location"` // query | path | header | body | form
	Type        string `json:"type,omitempty"`
	Required    bool   `json:"required,omitempty"`
	Description string `json:"description,omitempty"`
	Example     string `json:"example,omitempty"`
}

// CallURL is the URL a request to the doc's endpoint goes to: the documented URL,
// or https://host + route.
func (d Endpoint) CallURL() string {
	if d.URL != "" {
		return d.URL
	}
	if d.Host == "" {
		return ""
	}
	return "https://" + d.Host + d.Route
}

// Text is what the sparse and dense retrievers index: every field of the document
// that describes it, one per line.
func (d *Endpoint) Text() string {
	var lines []string
	line := func(parts ...string) {
		var keep []string
		for _, p := range parts {
			if p = strings.TrimSpace(p); p != "" {
				keep = append(keep, p)
			}
		}
		if len(keep) > 0 {
			lines = append(lines, strings.Join(keep, " "))
		}
	}
	line(d.API, d.Category)
	line(d.APIDescription)
	line(d.Host)
	line(d.Name)
	line(d.Method, d.Route)
	line(d.Description)
	for _, p := range d.Params {
		line(p.Name, p.Description)
	}
	return strings.Join(lines, "\n")
}

// Render writes the document as a block of text for a prompt: API, host, endpoint,
// method and route, descriptions (each cut at 500 characters) and one line per
// parameter with where it goes, its type and whether it is required.
func (d *Endpoint) Render() string {
	var b strings.Builder
	b.WriteString("API: " + d.API)
	if d.Category != "" {
		b.WriteString(" (category: " + d.Category + ")")
	}
	b.WriteByte('\n')
	if d.APIDescription != "" {
		b.WriteString("API description: " + cut(d.APIDescription, 500) + "\n")
	}
	b.WriteString("Host: " + d.Host + "\n")
	b.WriteString("Endpoint: ")
	if d.Name != "" {
		b.WriteString(d.Name + " — ")
	}
	b.WriteString(d.Method + " " + d.Route + "\n")
	if d.Description != "" {
		b.WriteString("Description: " + cut(d.Description, 500) + "\n")
	}
	if len(d.Params) > 0 {
		b.WriteString("Parameters:\n")
		for _, p := range d.Params {
			var attrs []string
			for _, a := range []string{p.Location, p.Type} {
				if a != "" {
					attrs = append(attrs, a)
				}
			}
			if p.Required {
				attrs = append(attrs, "required")
			}
			b.WriteString("  - " + p.Name)
			if len(attrs) > 0 {
				b.WriteString(" (" + strings.Join(attrs, ", ") + ")")
			}
			if p.Description != "" {
				b.WriteString(": " + cut(p.Description, 500))
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// cut shortens s to at most n runes, on one line, marking a cut with "…".
func cut(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n])) + "…"
}

// Summary is a document on one line for a list of candidates in a prompt: method,
// host and route, name, description and parameter names, cut at 300 characters.
func (d *Endpoint) Summary() string {
	s := d.Method + " " + d.Host + d.Route
	if d.Name != "" {
		s += " — " + d.Name
	}
	if d.Description != "" {
		s += ": " + d.Description
	}
	if len(d.Params) > 0 {
		names := make([]string, len(d.Params))
		for i, p := range d.Params {
			names[i] = p.Name
		}
		s += " (params: " + strings.Join(names, ", ") + ")"
	}
	return cut(s, 300)
}
