package mine

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/google/go-github/v62/github"

	"sccg/internal/blame"
	"sccg/store"
)

// DefaultMaxHistory is how many versions of a file the search path reads at most
// to date its lines.
const DefaultMaxHistory = 50

// historyPage is how many commits one request for a file's commits lists.
const historyPage = 100

// dateFile dates the lines of a search hit's file from its history on the code
// host, as git blame would at the hit's commit: the commits that changed the file
// up to that commit (newest first), and the file at each, compared line by line.
// A rename is followed to the file's previous path. Lines older than the versions
// read (--max-history) are left undated, never guessed. Only a failure that must
// stop the run (cancellation, the store) is returned.
func (m *ghMiner) dateFile(ctx context.Context, h *fileHit, content []byte) (*blame.Lines, error) {
	if h.commit == "" {
		return blame.Undated(blame.ReasonNotPinned), nil
	}
	owner, name, _ := strings.Cut(h.repo, "/")
	// failed dates nothing when the code host does not serve the history (err nil:
	// an answer other than 200, or one that does not decode) or a request failed
	// in a way that ends only this file.
	failed := func(err error, what string) (*blame.Lines, error) {
		if err == nil {
			return blame.Undated(blame.ReasonFailed + ": the code host did not serve " + what), nil
		}
		if reason := failure(err); reason != "" {
			return blame.Undated(blame.ReasonFailed + ": " + what + ": " + reason), nil
		}
		return nil, fmt.Errorf("mine %s %s: history: %w", h.repo, h.path, err)
	}
	var w *blame.Walk
	versions := 0
	path, ref := h.path, h.commit
	for {
		commits, err := m.fileCommits(ctx, owner, name, path, ref, m.opts.MaxHistory+1-versions)
		if err != nil || commits == nil {
			return failed(err, "the file's commits")
		}
		for _, c := range commits {
			v := blame.Version{Time: c.GetCommit().GetAuthor().GetDate().Unix()}
			if w == nil {
				// the newest commit that changed the file holds it as mined
				v.Content = content
				w, versions = blame.NewWalk(v), 1
				continue
			}
			if w.Done() {
				return w.End(true), nil
			}
			if versions >= m.opts.MaxHistory {
				return w.End(false), nil
			}
			if v.Content, err = m.fileAt(ctx, owner, name, path, c.GetSHA()); err != nil || v.Content == nil {
				return failed(err, "the file at "+c.GetSHA())
			}
			w.Older(v)
			versions++
		}
		if w == nil {
			return blame.Undated(blame.ReasonFailed + ": no commit of the file listed"), nil
		}
		if w.Done() {
			return w.End(true), nil
		}
		oldest := commits[len(commits)-1]
		if len(oldest.Parents) == 0 {
			return w.End(true), nil // a root commit created the file
		}
		// Did the oldest commit create the file, or move it here from another path?
		status, body, err := m.get(ctx, fmt.Sprintf("repos/%s/%s/commits/%s", url.PathEscape(owner), url.PathEscape(name),
			url.PathEscape(oldest.GetSHA())), true, &m.stats.HistoryRequests)
		if err != nil || status != http.StatusOK {
			return failed(err, "commit "+oldest.GetSHA())
		}
		var detail github.RepositoryCommit
		if err := json.Unmarshal(body, &detail); err != nil {
			return blame.Undated(blame.ReasonFailed + ": malformed commit response"), nil
		}
		prev := ""
		for _, f := range detail.Files {
			if f.GetFilename() == path && f.GetStatus() == "renamed" {
				prev = f.GetPreviousFilename()
			}
		}
		if prev == "" {
			return w.End(true), nil
		}
		path, ref = prev, oldest.Parents[0].GetSHA()
	}
}

// backdate dates the lines of the files earlier runs stored from GitHub before
// sccg dated lines, as if they were mined now, so a store that grows holds what a
// fresh one would.
func (m *ghMiner) backdate(ctx context.Context) error {
	files, err := m.st.UndatedFiles(ctx, "", "github")
	if err != nil {
		return fmt.Errorf("mine: %w", err)
	}
	for i := range files {
		f := &files[i]
		r, err := m.st.Repository(ctx, f.RepoID)
		if err != nil {
			return fmt.Errorf("mine: %w", err)
		}
		content, err := m.st.FileContent(ctx, f)
		if err != nil {
			return fmt.Errorf("mine %s %s: %w", r.FullName, f.Path, err)
		}
		dates, err := m.dateFile(ctx, &fileHit{repo: r.FullName, path: f.Path, commit: f.CommitSHA}, content)
		if err != nil {
			return err
		}
		m.stats.LineDates.Add(dates.Undated)
		m.stats.Backdated++
		if err := m.st.Update(ctx, func(tx *store.Tx) error { return tx.SetLineDates(ctx, f.ID, dates.Encode()) }); err != nil {
			return fmt.Errorf("mine %s %s: %w", r.FullName, f.Path, err)
		}
	}
	return nil
}

// fileCommits lists, newest first, at most limit commits from ref back that
// changed path; nil (with no error) when the code host has no such history.
func (m *ghMiner) fileCommits(ctx context.Context, owner, name, path, ref string, limit int) ([]*github.RepositoryCommit, error) {
	var out []*github.RepositoryCommit
	for page := 1; len(out) < limit; page++ {
		q := url.Values{"path": {path}, "sha": {ref}, "per_page": {fmt.Sprint(historyPage)}, "page": {fmt.Sprint(page)}}
		status, body, err := m.get(ctx, fmt.Sprintf("repos/%s/%s/commits?%s", url.PathEscape(owner), url.PathEscape(name),
			q.Encode()), true, &m.stats.HistoryRequests)
		if err != nil || status != http.StatusOK {
			return nil, err
		}
		var cs []*github.RepositoryCommit
		if err := json.Unmarshal(body, &cs); err != nil {
			return nil, nil
		}
		out = append(out, cs...)
		if len(cs) < historyPage {
			break
		}
	}
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// fileAt is the file at path as commit ref holds it; nil (with no error) when the
// code host does not serve it.
func (m *ghMiner) fileAt(ctx context.Context, owner, name, path, ref string) ([]byte, error) {
	rel := fmt.Sprintf("repos/%s/%s/contents/%s?ref=%s", url.PathEscape(owner), url.PathEscape(name), escapePath(path), url.QueryEscape(ref))
	status, body, err := m.get(ctx, rel, true, &m.stats.HistoryRequests)
	if err != nil || status != http.StatusOK {
		return nil, err
	}
	var rc github.RepositoryContent
	if err := json.Unmarshal(body, &rc); err != nil {
		return nil, nil
	}
	content, reason := m.decode(&rc)
	if reason != "" && content == nil {
		return nil, nil
	}
	return content, nil
}
