package corpus

import (
	"strings"
	"time"
)

// Row is one file of a corpus shard, with the repository it belongs to.
type Row struct {
	Repo      string // owner/name
	RepoURL   string // the repository's URL; see HasRepoURL
	Path      string // inside the repository, slash-separated
	Content   []byte
	BlobID    string // the content's git blob SHA as the corpus gives it
	Commit    string // the revision the file was read at
	Branch    string
	License   string
	Stars     int
	Forks     int
	CreatedAt string // the repository's dates, UTC "2006-01-02T15:04:05Z"
	UpdatedAt string
	PushedAt  string
	// LineDates are when the file's lines were written (package blame's JSON), as
	// Pack writes them from git blame; "" when the shard carries none.
	LineDates string

	// HasRepoURL is set when the shard has a repository URL column; without one
	// the corpus is taken to be of GitHub repositories (as The Stack and the
	// BigQuery export are) and the URL is https://github.com/<Repo>.
	HasRepoURL bool
	// HasContent is false when the row's content is null or absent.
	HasContent bool
}

// Column names, as Pack writes them: The Stack v2's where it has one.
const (
	ColRepo      = "repo_name"
	ColRepoURL   = "repo_url"
	ColPath      = "path"
	ColContent   = "content"
	ColBlobID    = "blob_id"
	ColCommit    = "revision_id"
	ColBranch    = "branch_name"
	ColLicense   = "license"
	ColStars     = "star_events_count"
	ColForks     = "fork_events_count"
	ColCreatedAt = "gha_created_at"
	ColUpdatedAt = "gha_updated_at"
	ColPushedAt  = "gha_pushed_at"
	// ColLineDates is sccg's own: the line dates git blame gives at the commit.
	ColLineDates = "line_dates"
)

// field is one thing a Row holds, and the column names that may carry it, in the
// order they are preferred.
type field int

const (
	fRepo field = iota
	fRepoURL
	fPath
	fContent
	fBlobID
	fCommit
	fBranch
	fLicense
	fStars
	fForks
	fCreatedAt
	fUpdatedAt
	fPushedAt
	fLineDates
	nFields
)

// columnNames are the names each field is read from: Pack's (The Stack v2's),
// then those of other exports (GitHub's API and BigQuery's github_repos).
var columnNames = [nFields][]string{
	fRepo:      {ColRepo, "repository", "repo", "full_name", "sample_repo_name"},
	fRepoURL:   {ColRepoURL, "repository_url", "html_url"},
	fPath:      {ColPath, "file_path", "sample_path"},
	fContent:   {ColContent, "text"},
	fBlobID:    {ColBlobID, "sha", "git_sha", "id"},
	fCommit:    {ColCommit, "commit", "commit_id", "commit_sha"},
	fBranch:    {ColBranch, "default_branch", "ref"},
	fLicense:   {ColLicense, "gha_license_id", "detected_licenses", "license_type"},
	fStars:     {ColStars, "stars", "stargazers_count", "max_stars_count"},
	fForks:     {ColForks, "forks", "forks_count", "max_forks_count"},
	fCreatedAt: {ColCreatedAt, "created_at"},
	fUpdatedAt: {ColUpdatedAt, "updated_at", "revision_date"},
	fPushedAt:  {ColPushedAt, "pushed_at", "committer_date"},
	fLineDates: {ColLineDates},
}

// pick maps each field to the first of its names that has is true for.
func pick(has func(name string) bool) [nFields]string {
	var out [nFields]string
	for f, names := range columnNames {
		for _, n := range names {
			if has(n) {
				out[f] = n
				break
			}
		}
	}
	return out
}

// utcDate turns a date the corpus gives into the store's UTC form (left as it is
// when it does not parse).
func utcDate(s string) string {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC().Format("2006-01-02T15:04:05Z")
		}
	}
	return s
}

// branchName drops the refs/heads/ prefix The Stack v2 keeps.
func branchName(s string) string { return strings.TrimPrefix(s, "refs/heads/") }

// problem names what makes a row unusable, or "" for none.
func (r *Row) problem() string {
	switch {
	case r.Repo == "":
		return "no repository name"
	case r.Path == "":
		return "no path"
	case !r.HasContent:
		return "no content"
	}
	return ""
}
