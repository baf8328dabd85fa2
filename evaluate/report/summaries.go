package report

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"sccg/evaluate"
	"sccg/internal/atomicfile"
)

// WriteTables renders the tables of evaluation summaries in Markdown, built as the
// report's page builds them: Tables IV and V (and V by language for results of
// several languages), the answers, Table VI, Table VII (when a model ran in two
// settings; by language too), where grounding fails (when completions were
// attributed), doc_match_type (without tests), the samples
// without an endpoint, dependency recall and pass@k. Groups go in setting order:
// order, then the paper's. An eval's and a grid's tables.md, and `sccg report
// SUMMARY...`, are this.
func WriteTables(w io.Writer, sums []evaluate.Summary, order []string) error {
	sets := make([]*ResultSet, len(sums))
	for i := range sums {
		sets[i] = &ResultSet{Name: strconv.Itoa(i + 1), Summary: sums[i]}
	}
	groups := collectGroups(sets, newSettingRank(order))
	byDoc, err := tableStratum(groups, strata[0], testOptions{})
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, t := range []*table{tableIV(groups), tableV(groups), tableVLanguages(groups), tableAnswers(groups), tableVI(groups),
		tableVII(groups), tableVIILanguages(groups), tableAttribution(groups), byDoc, tableNoEndpoint(groups), tableDepRecall(groups), tablePassAtK(groups)} {
		if t != nil {
			markdownTable(&b, t, true)
		}
	}
	_, err = io.WriteString(w, strings.TrimPrefix(b.String(), "\n"))
	return err
}

// WriteOutputs writes an evaluation's outputs in dir: results.jsonl and
// summary.json (evaluate.WriteOutputs), and tables.md (WriteTables).
func WriteOutputs(dir string, out *evaluate.Output) error {
	if err := evaluate.WriteOutputs(dir, out); err != nil {
		return err
	}
	var b bytes.Buffer
	if err := WriteTables(&b, []evaluate.Summary{out.Summary}, nil); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Join(dir, "tables.md"), err)
	}
	if err := atomicfile.Write(filepath.Join(dir, "tables.md"), b.Bytes()); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
