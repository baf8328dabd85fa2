package retrieve

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// stratum is one row group of the tables.
type stratum struct {
	name string
	agg  Agg
}

// strata are a report's aggregates in table order: overall, then each
// doc_match_type by name.
func (r *Report) strata() []stratum {
	out := []stratum{{"overall", r.Overall}}
	for _, k := range slices.Sorted(maps.Keys(r.ByDocMatchType)) {
		out = append(out, stratum{k, r.ByDocMatchType[k]})
	}
	return out
}

func rateCell(r Rate) string {
	if r.N == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f [%.1f–%.1f]", 100*r.Rate, 100*r.Lo, 100*r.Hi)
}

// MRRCell is an aggregate's MRR as the tables give it: a percentage with its
// bootstrap 95% interval (none in a report written before sccg gave one).
func MRRCell(a Agg) string {
	if a.MRRHi == 0 && a.MRR > 0 {
		return fmt.Sprintf("%.2f", 100*a.MRR)
	}
	return fmt.Sprintf("%.2f [%.1f–%.1f]", 100*a.MRR, 100*a.MRRLo, 100*a.MRRHi)
}

func meanCell(m Mean) string {
	if m.N == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", 100*m.Value)
}

// Describe is a one-line account of what a report was run on (its speed aside, so
// equal runs describe themselves equally).
func (r *Report) Describe() string {
	var srcs []string
	for _, k := range slices.Sorted(maps.Keys(r.QuerySources)) {
		srcs = append(srcs, fmt.Sprintf("%s %d", k, r.QuerySources[k]))
	}
	return fmt.Sprintf("%s: corpus from %s (%d endpoint documents, %d hosts) · %d queries (%s) · depth %d",
		r.Retriever, r.Corpus.Source, r.Corpus.Documents, r.Corpus.Hosts, r.Queries, strings.Join(srcs, ", "), r.Depth)
}

// WriteTables renders reports as Markdown tables, one row per retriever and
// stratum (overall, then each doc_match_type): Host@K and Endpoint@K (Table VIII),
// top-K accuracy and MRR (DeepCodeSeek), recall@k and precision@k (CAPIR). Rates
// are percentages with Wilson 95% intervals, the MRR with its bootstrap 95%
// interval; the other means are percentages.
func WriteTables(w io.Writer, reps ...*Report) error {
	var b strings.Builder
	for _, r := range reps {
		b.WriteString("- " + r.Describe() + "\n")
	}
	b.WriteString("\n### Retrieval hit rates: Host@K and Endpoint@K (%, Wilson 95% interval)\n\n")
	b.WriteString("| Retriever | Stratum | Metric | N |")
	sep := "| --- | --- | --- | ---: |"
	for _, k := range HostEndpointKs {
		fmt.Fprintf(&b, " @%d |", k)
		sep += " --- |"
	}
	b.WriteString("\n" + sep + "\n")
	for _, r := range reps {
		for _, s := range r.strata() {
			for _, row := range []struct {
				name  string
				rates []Rate
				n     int
			}{{"Host@K", s.agg.HostAtK, s.agg.N}, {"Endpoint@K", s.agg.EndpointAtK, s.agg.NEndpoint}} {
				fmt.Fprintf(&b, "| %s | %s | %s | %d |", r.Retriever, s.name, row.name, row.n)
				for _, x := range row.rates {
					b.WriteString(" " + rateCell(x) + " |")
				}
				b.WriteByte('\n')
			}
		}
	}
	b.WriteString("\n### Top-K accuracy and MRR of the labeled endpoint (%; Wilson 95% interval, MRR's by bootstrap)\n\n")
	b.WriteString("| Retriever | Stratum | N | Not in corpus |")
	sep = "| --- | --- | ---: | ---: |"
	for _, k := range TopKs {
		fmt.Fprintf(&b, " Top-%d |", k)
		sep += " --- |"
	}
	b.WriteString(" MRR |\n" + sep + " --- |\n")
	for _, r := range reps {
		for _, s := range r.strata() {
			fmt.Fprintf(&b, "| %s | %s | %d | %d |", r.Retriever, s.name, s.agg.NEndpoint, s.agg.NotInCorpus)
			for _, x := range s.agg.TopKAccuracy {
				b.WriteString(" " + rateCell(x) + " |")
			}
			if s.agg.NEndpoint == 0 {
				b.WriteString(" – |\n")
			} else {
				b.WriteString(" " + MRRCell(s.agg) + " |\n")
			}
		}
	}
	b.WriteString("\n### Recall@k and precision@k over the endpoints each sample uses (%)\n\n")
	b.WriteString("| Retriever | Stratum | N |")
	sep = "| --- | --- | ---: |"
	for _, k := range SetKs {
		fmt.Fprintf(&b, " R@%d | P@%d |", k, k)
		sep += " ---: | ---: |"
	}
	b.WriteString("\n" + sep + "\n")
	for _, r := range reps {
		for _, s := range r.strata() {
			fmt.Fprintf(&b, "| %s | %s | %d |", r.Retriever, s.name, s.agg.NEndpoint)
			for i := range s.agg.RecallAtK {
				fmt.Fprintf(&b, " %s | %s |", meanCell(s.agg.RecallAtK[i]), meanCell(s.agg.PrecisionAtK[i]))
			}
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
