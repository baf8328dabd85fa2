package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"strings"
)

var (
	//go:embed assets/page.css
	pageCSS string
	//go:embed assets/filter.js
	filterJS string
	//go:embed assets/index.html.tmpl
	indexTmpl string
	//go:embed assets/sample.html.tmpl
	sampleTmpl string
)

var funcs = template.FuncMap{
	"css":   func() template.CSS { return template.CSS(pageCSS) },
	"js":    func() template.JS { return template.JS(filterJS) },
	"svg":   inlineSVG,
	"join":  func(xs []string) string { return strings.Join(xs, ", ") },
	"lines": func(s string) int { return strings.Count(strings.TrimRight(s, "\n"), "\n") + 1 },
}

var (
	indexTemplate  = template.Must(template.New("index").Funcs(funcs).Parse(indexTmpl))
	sampleTemplate = template.Must(template.New("sample").Funcs(funcs).Parse(sampleTmpl))
)

// inlineSVG makes a standalone SVG document (as gonum/plot writes it) an element
// for an HTML page: without its XML declaration and comment. The SVG is the
// report's own output, its text escaped by the SVG writer.
func inlineSVG(doc []byte) template.HTML {
	s := string(doc)
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	return template.HTML(s)
}

// renderIndex renders index.html.
func renderIndex(p *page) ([]byte, error) {
	var b bytes.Buffer
	if err := indexTemplate.Execute(&b, p); err != nil {
		return nil, fmt.Errorf("report: render index.html: %w", err)
	}
	return b.Bytes(), nil
}

// renderSample renders one sample's page.
func renderSample(p *page, sp *samplePage) ([]byte, error) {
	var b bytes.Buffer
	data := struct {
		Page   *samplePage
		Report string
	}{sp, p.Title}
	if err := sampleTemplate.Execute(&b, data); err != nil {
		return nil, fmt.Errorf("report: render %s: %w", sp.File, err)
	}
	return b.Bytes(), nil
}

// renderMarkdown renders report.md: every table, the figures as links to their SVG
// files, and what is left out.
func renderMarkdown(p *page) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", p.Title)
	for _, s := range p.Sections {
		fmt.Fprintf(&b, "\n## %s\n", s.Title)
		for _, it := range s.Items {
			switch {
			case it.Table != nil:
				markdownTable(&b, it.Table, true)
			case it.Figures != nil:
				for _, f := range it.Figures {
					fmt.Fprintf(&b, "\n![%s](%s)\n\n*%s. %s*\n", f.Title, f.File(), f.Title, f.Caption)
				}
			default:
				fmt.Fprintf(&b, "\n> %s\n", it.Omitted)
			}
		}
	}
	b.WriteString("\n## Samples\n\n")
	if n := len(p.Samples.Pages); n > 0 {
		fmt.Fprintf(&b, "%d samples, each with a page under samples/ (intent, gold code, every generation with its requests and where it failed, lineage); index.html lists them with a filter.\n", n)
	} else {
		b.WriteString("No samples: neither results nor a benchmark were given.\n")
	}
	for _, n := range p.Samples.Notes {
		fmt.Fprintf(&b, "\n> %s\n", n)
	}
	b.WriteString("\n## Inputs\n")
	markdownTable(&b, p.Inputs, false)
	if len(p.Problems) > 0 {
		b.WriteString("\n### Problems reading the inputs\n\n")
		for _, pr := range p.Problems {
			fmt.Fprintf(&b, "- %s\n", mdCell(pr))
		}
	}
	return []byte(b.String())
}

// markdownTable renders a table, under its title when titled.
func markdownTable(b *strings.Builder, t *table, titled bool) {
	if titled {
		fmt.Fprintf(b, "\n### %s\n", t.Title)
	}
	b.WriteString("\n")
	if t.Caption != "" {
		fmt.Fprintf(b, "%s\n\n", t.Caption)
	}
	b.WriteString("|")
	for _, h := range t.Head {
		fmt.Fprintf(b, " %s |", mdCell(h))
	}
	b.WriteString("\n|")
	for i := range t.Head {
		if t.Num[i] {
			b.WriteString(" ---: |")
		} else {
			b.WriteString(" --- |")
		}
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		b.WriteString("|")
		for _, c := range r {
			fmt.Fprintf(b, " %s |", mdCell(c))
		}
		b.WriteString("\n")
	}
	if len(t.Notes) > 0 {
		b.WriteString("\n")
		for _, n := range t.Notes {
			fmt.Fprintf(b, "- %s\n", n)
		}
	}
}

// mdCell makes text safe inside a Markdown table cell.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.Join(strings.Fields(s), " ")
}
