// Package blame dates the lines of a source file: when each line was written, as
// `git blame` says at the commit a file was mined at (a local clone, a corpus
// packed from clones), or as the file's history on a code host shows it (its
// versions compared line by line, the way blame does). A function's dates are its
// oldest line's author date (when it first appeared) and its newest line's (when it
// was last changed). Lines that cannot be dated are never guessed: they carry a
// reason, and so does every function that has one.
package blame

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// How a file's lines were dated.
const (
	// MethodGit is `git blame` at the mined commit.
	MethodGit = "git_blame"
	// MethodHistory is the file's history as its code host lists it (its commits
	// and the file at each), compared line by line.
	MethodHistory = "commit_history"
)

// Why lines could not be dated.
const (
	// ReasonNotGit: a plain folder has no history.
	ReasonNotGit = "no history: not a git repository"
	// ReasonCorpus: a corpus shard without a line_dates column carries file
	// contents, not their history.
	ReasonCorpus = "no history: the corpus shard carries no line dates"
	// ReasonShallow: lines older than a shallow clone's history.
	ReasonShallow = "shallow clone: lines from before the clone's history"
	// ReasonHistoryCut: the file has more versions than were read.
	ReasonHistoryCut = "history longer than the versions read"
	// ReasonNotPinned: a search result that names no commit.
	ReasonNotPinned = "no commit: the file is not pinned to one"
	// ReasonFailed prefixes a failure of git or of the code host.
	ReasonFailed = "dating failed"
	// ReasonNotDated: a file mined before sccg dated lines.
	ReasonNotDated = "not dated: mined before line dating (mine it again)"
	// ReasonOutOfRange: the function's lines are not all in the dated file.
	ReasonOutOfRange = "function lines beyond the dated file"
	// ReasonMismatch: line dates given with a file (a corpus row) that do not
	// cover its lines.
	ReasonMismatch = "line dates do not fit the file"
)

// Reason is why lines are undated without its detail (a failure's message), for
// counting.
func Reason(why string) string {
	if strings.HasPrefix(why, ReasonFailed) {
		return ReasonFailed
	}
	return why
}

// Count counts files or functions by whether their lines are dated, the undated
// by why (Reason).
type Count struct {
	Dated   int            `json:"dated"`
	Undated map[string]int `json:"undated,omitempty"`
}

// Add counts one: dated when why is "", else undated for why.
func (c *Count) Add(why string) {
	if why == "" {
		c.Dated++
		return
	}
	if c.Undated == nil {
		c.Undated = map[string]int{}
	}
	c.Undated[Reason(why)]++
}

// Merge adds the counts of o.
func (c *Count) Merge(o Count) {
	c.Dated += o.Dated
	for why, n := range o.Undated {
		if c.Undated == nil {
			c.Undated = map[string]int{}
		}
		c.Undated[why] += n
	}
}

// UndatedTotal is how many were not dated.
func (c Count) UndatedTotal() int {
	n := 0
	for _, v := range c.Undated {
		n += v
	}
	return n
}

// Lines are the author dates of a file's lines.
type Lines struct {
	// Method is MethodGit or MethodHistory; "" when nothing could be dated.
	Method string `json:"method,omitempty"`
	// Runs cover the file's lines in order, each [first line, last line, Unix
	// time of their author date]; a time of 0 is a line that could not be dated.
	Runs [][3]int64 `json:"runs,omitempty"`
	// Undated says why lines with time 0 (or, without runs, the whole file) have
	// no date.
	Undated string `json:"undated,omitempty"`
}

// Undated returns the Lines of a file none of whose lines can be dated.
func Undated(why string) *Lines { return &Lines{Undated: why} }

// FromTimes builds the Lines of a file from the author time of each line (index
// 0 is line 1; 0 for a line that could not be dated).
func FromTimes(method string, times []int64, undated string) *Lines {
	l := &Lines{Method: method}
	for i, t := range times {
		n := int64(i + 1)
		if k := len(l.Runs); k > 0 && l.Runs[k-1][2] == t && l.Runs[k-1][1] == n-1 {
			l.Runs[k-1][1] = n
			continue
		}
		l.Runs = append(l.Runs, [3]int64{n, n, t})
	}
	for _, r := range l.Runs {
		if r[2] == 0 {
			l.Undated = undated
			break
		}
	}
	return l
}

// Fits reports whether l dates exactly the lines of content (a file none of whose
// lines are dated fits any content).
func (l *Lines) Fits(content []byte) bool {
	if len(l.Runs) == 0 {
		return l.Undated != ""
	}
	return l.Runs[len(l.Runs)-1][1] == int64(len(splitLines(content)))
}

// Encode is l as the JSON the store keeps.
func (l *Lines) Encode() string {
	b, _ := json.Marshal(l)
	return string(b)
}

// Decode reads what Encode wrote; "" (a file mined before dating) is undated.
func Decode(s string) (*Lines, error) {
	if s == "" {
		return Undated(ReasonNotDated), nil
	}
	var l Lines
	if err := json.Unmarshal([]byte(s), &l); err != nil {
		return nil, fmt.Errorf("line dates: %w", err)
	}
	return &l, nil
}

// Dates are when a function's lines were written.
type Dates struct {
	// AuthoredAt is the oldest line's author date (when the function first
	// appeared), ModifiedAt the newest's, both ISO 8601 UTC; empty when Unknown.
	AuthoredAt string `json:"authored_at,omitempty"`
	ModifiedAt string `json:"modified_at,omitempty"`
	// Method says how the lines were dated (MethodGit, MethodHistory).
	Method string `json:"method,omitempty"`
	// Unknown says why the function has no dates.
	Unknown string `json:"unknown,omitempty"`
}

// Of dates lines first to last of a file whose line dates are lineDates (what
// Encode wrote, "" for a file mined before dating).
func Of(lineDates string, first, last int) Dates {
	l, err := Decode(lineDates)
	if err != nil {
		return Dates{Unknown: ReasonMismatch}
	}
	return l.Span(first, last)
}

// Text says in words when the lines were written, or why that is unknown.
func (d Dates) Text() string {
	switch {
	case d.AuthoredAt != "":
		return fmt.Sprintf("first written %s, last changed %s (%s)", d.AuthoredAt, d.ModifiedAt, d.Method)
	case d.Unknown != "":
		return "unknown: " + d.Unknown
	}
	return ""
}

// Format writes a Unix time as the ISO 8601 UTC form the release uses.
func Format(unix int64) string { return time.Unix(unix, 0).UTC().Format("2006-01-02T15:04:05Z") }

// Span dates lines first to last (1-based, inclusive): unknown when any of them
// has no date, or when they are not all in the file.
func (l *Lines) Span(first, last int) Dates {
	if len(l.Runs) == 0 {
		why := l.Undated
		if why == "" {
			why = ReasonOutOfRange
		}
		return Dates{Method: l.Method, Unknown: why}
	}
	if first < 1 || last < first || int64(last) > l.Runs[len(l.Runs)-1][1] {
		return Dates{Method: l.Method, Unknown: ReasonOutOfRange}
	}
	var oldest, newest int64
	for _, r := range l.Runs {
		if r[1] < int64(first) || r[0] > int64(last) {
			continue
		}
		if r[2] == 0 {
			return Dates{Method: l.Method, Unknown: l.Undated}
		}
		if oldest == 0 || r[2] < oldest {
			oldest = r[2]
		}
		newest = max(newest, r[2])
	}
	return Dates{AuthoredAt: Format(oldest), ModifiedAt: Format(newest), Method: l.Method}
}
