package mine

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"sccg/internal/blame"
	"sccg/lang"
	"sccg/store"
)

// GitBlobSHA is the SHA git gives content as a blob object.
func GitBlobSHA(content []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(content))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

// skipDirs are never walked, and what is in them is not judged: version control,
// environments, caches. (Directories of dependencies and build output are skipped
// too, with a recorded reason: skipDirReasons.)
var skipDirs = map[string]bool{".git": true, "node_modules": true, "venv": true, ".venv": true, "env": true,
	"__pycache__": true, "site-packages": true, ".tox": true, ".mypy_cache": true}

// localFile is one candidate file of a local repository.
type localFile struct {
	path string // slash-separated, relative to the repository root
	sha  string // git blob SHA when known from git
	size int64
	lang lang.Name
	skip string // why it is not the repository's own source (SourceOf), or ""
}

// skippedDir is a directory of a local repository whose files are not read
// (dependencies, build output), with why and, for a git repository, how many
// source files of the selected languages it holds.
type skippedDir struct {
	reason string
	files  int
}

// localRepo is a repository directory and what git says about it.
type localRepo struct {
	dir    string
	isGit  bool
	commit string
	record store.Repository
	files  []localFile
	// skipped are the directories not read, by path (SourceOf's directory reasons).
	skipped map[string]*skippedDir
}

// MineLocal walks dir — one repository or a folder of repositories (git clones or
// plain folders, optionally grouped in owner folders) — and applies the same host,
// route and URL matching as the GitHub search offline, storing each matching file
// with the same provenance: commit, blob SHA, remote URL, dates and a query layer.
// Repositories already done by an earlier run at the same commit are skipped.
//
// MineLocal records itself as one run of the mine stage, with its resolved options
// and the directory.
func MineLocal(ctx context.Context, st *store.Store, dir string, opts Options) (*Stats, error) {
	opts.defaults()
	args := opts.RunArgs()
	args["local"] = dir
	return store.RecordRun(ctx, st, Stage, args, func(runID int64) (*Stats, error) {
		opts.runID = runID
		return mineLocal(ctx, st, dir, opts)
	})
}

func mineLocal(ctx context.Context, st *store.Store, dir string, opts Options) (*Stats, error) {
	stats := &Stats{Redone: map[string]int{}}
	targets, err := Targets(ctx, st, opts.APIs)
	if err != nil {
		return nil, err
	}
	roots, err := repoRoots(dir)
	if err != nil {
		return nil, fmt.Errorf("mine --local %s: %w", dir, err)
	}
	langs := opts.Languages
	done, err := st.DoneUnits(ctx, Stage)
	if err != nil {
		return nil, fmt.Errorf("mine --local: %w", err)
	}
	prints := make([]string, len(targets))
	for i, t := range targets {
		prints[i] = TargetPrint(t, opts.EndpointsPerAPI, opts.Languages)
	}
	set := []byte(strings.Join(slices.Sorted(slices.Values(prints)), "\n"))
	setSHA := store.HashBlob(set)
	searched := searchedUnits(done)
	sets := map[string]map[string]bool{} // target set blob → its prints
	newTargets := map[string]bool{}
	opts.Progress.SetTotal(int64(len(roots)))
	defer opts.Progress.Done()
	for _, root := range roots {
		opts.Progress.Add(1)
		if err := ctx.Err(); err != nil {
			return stats, err
		}
		lr, err := inspect(ctx, root, langs)
		if err != nil {
			return stats, fmt.Errorf("mine --local %s: %w", filepath.Base(root), err)
		}
		version := lr.version()
		had := map[string]bool{}
		for _, sha := range searched[lr.record.FullName][version] {
			ps, ok := sets[sha]
			if !ok {
				if ps, err = loadTargetSet(ctx, st, sha); err != nil {
					return stats, fmt.Errorf("mine --local %s: %w", lr.record.FullName, err)
				}
				sets[sha] = ps
			}
			maps.Copy(had, ps)
		}
		var missing []Target
		for i, t := range targets {
			if !had[prints[i]] {
				missing = append(missing, t)
			}
		}
		if len(missing) == 0 {
			stats.ReposUnchanged++
			if err := backdate(ctx, st, lr, stats); err != nil {
				return stats, fmt.Errorf("mine --local %s: %w", lr.record.FullName, err)
			}
			continue
		}
		// Why this repository is searched again, when it was searched before.
		otherVersion := false
		for v := range searched[lr.record.FullName] {
			otherVersion = otherVersion || v != version
		}
		switch {
		case len(searched[lr.record.FullName][version]) > 0:
			stats.Redone[RedoNewTargets]++
			for _, t := range missing {
				newTargets[TargetPrint(t, opts.EndpointsPerAPI, opts.Languages)] = true
			}
		case otherVersion && lr.isGit:
			stats.Redone[RedoNewCommit]++
		case otherVersion:
			stats.Redone[RedoChangedFiles]++
		}
		unit := localUnit(lr.record.FullName, version) + setSHA
		if err := mineLocalRepo(ctx, st, lr, missing, opts, stats, unit, set, otherVersion); err != nil {
			return stats, fmt.Errorf("mine --local %s: %w", lr.record.FullName, err)
		}
		stats.ReposSearched++
		stats.TargetsSearched += len(missing)
		opts.Logf("mine --local %s: searched for %d API(s)", lr.record.FullName, len(missing))
	}
	stats.NewTargets = len(newTargets)
	return stats, nil
}

// A --local repository's done unit names what it was searched for:
// "local|<repository>|<version>|targets:<sha>", where sha is the SHA-256 of the
// sorted prints (TargetPrint) of the APIs searched for, kept as a blob. One blob
// serves every repository a run searches, so thousands of APIs cost one blob per
// catalog state and one unit per repository and run, and a later run with more
// APIs searches each repository for the new ones only.
func localUnit(repo, version string) string { return "local|" + repo + "|" + version + "|targets:" }

// searchedUnits indexes the done --local units: repository → version → the target
// set blobs it was searched for.
func searchedUnits(done map[string]bool) map[string]map[string][]string {
	out := map[string]map[string][]string{}
	for u := range done {
		rest, ok := strings.CutPrefix(u, "local|")
		if !ok {
			continue
		}
		i := strings.LastIndex(rest, "|targets:")
		if i < 0 {
			continue // a unit of an older store, which did not say what it searched for: search again
		}
		repo, version, ok := strings.Cut(rest[:i], "|")
		if !ok {
			continue
		}
		if out[repo] == nil {
			out[repo] = map[string][]string{}
		}
		out[repo][version] = append(out[repo][version], rest[i+len("|targets:"):])
	}
	return out
}

func loadTargetSet(ctx context.Context, st *store.Store, sha string) (map[string]bool, error) {
	b, err := st.Blob(ctx, sha)
	if err != nil {
		return nil, fmt.Errorf("what the repository was searched for: %w", err)
	}
	out := map[string]bool{}
	for _, p := range strings.Split(string(b), "\n") {
		if p != "" {
			out[p] = true
		}
	}
	return out, nil
}

// TargetPrint names what searching a file for t looks for — the API, its host and
// its queries in langs — so that a description whose host or routes changed, or a
// language added, is searched for again, and an unchanged one is not.
func TargetPrint(t Target, endpointsPerAPI int, langs []lang.Name) string {
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00%s\x00%s\x00%s\n", t.API.ID, t.API.Source, t.API.Slug, t.Host)
	for _, q := range Queries(t, endpointsPerAPI, langs) {
		fmt.Fprintf(h, "%s\x00%s\x00%s\n", q.Layer, q.Text, q.Route)
	}
	return hex.EncodeToString(h.Sum(nil))[:24]
}

// LocalRepo is one repository of a local directory as MineLocal reads it.
type LocalRepo struct {
	Record  store.Repository // its metadata, as MineLocal stores it
	Commit  string           // HEAD of a git repository; empty for a plain folder
	Version string           // the commit, or for a plain folder a hash of its files
	Files   []LocalFile      // its source files, by path

	dater *localDater
}

// LineDates dates the lines of the repository's file at p as MineLocal does: git
// blame at the commit, or why they cannot be dated.
func (r *LocalRepo) LineDates(p string) *blame.Lines { return r.dater.lines(p) }

// LocalFile is one source file of a LocalRepo (of any language, directories of
// dependencies and build output left out).
type LocalFile struct {
	Path    string // slash-separated, relative to the repository root
	GitSHA  string // git blob SHA
	URL     string // as MineLocal records it
	Size    int64
	Content []byte // nil when over the size limit or unreadable
}

// WalkLocal reads the repositories under dir — found and read as MineLocal finds
// and reads them — and calls fn with each in name order, with the content of every
// file not over maxBytes.
func WalkLocal(ctx context.Context, dir string, maxBytes int64, fn func(*LocalRepo) error) error {
	roots, err := repoRoots(dir)
	if err != nil {
		return fmt.Errorf("read %s: %w", dir, err)
	}
	for _, root := range roots {
		if err := ctx.Err(); err != nil {
			return err
		}
		lr, err := inspect(ctx, root, nil)
		if err != nil {
			return fmt.Errorf("read %s: %w", filepath.Base(root), err)
		}
		version := lr.version()
		contents, err := lr.read(ctx, maxBytes)
		if err != nil {
			return fmt.Errorf("read %s: %w", lr.record.FullName, err)
		}
		out := &LocalRepo{Record: lr.record, Commit: lr.commit, Version: version, dater: newLocalDater(ctx, lr, nil)}
		for _, f := range lr.files {
			out.Files = append(out.Files, LocalFile{Path: f.path, GitSHA: f.sha, URL: lr.fileURL(f.path), Size: f.size,
				Content: contents[f.path]})
		}
		if err := fn(out); err != nil {
			return err
		}
	}
	return nil
}

// fileBlobSHA is GitBlobSHA of the file at p, of size bytes, read as a stream.
func fileBlobSHA(p string, size int64) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", size)
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// version names what a repository holds: its commit, or for a plain folder a hash of
// its files' paths and blob SHAs.
func (lr *localRepo) version() string {
	if lr.commit != "" {
		return lr.commit
	}
	h := sha1.New()
	for _, f := range lr.files {
		fmt.Fprintf(h, "%s %s\n", f.path, f.sha)
	}
	return "tree-" + hex.EncodeToString(h.Sum(nil))
}

// mineLocalRepo searches lr's files for targets and marks unit (whose target set is
// the blob set) done. When supersede is set, lr was searched before at another
// version: the files stored for it that this version no longer holds are dropped,
// and the ones it still holds take this version's commit and URL.
func mineLocalRepo(ctx context.Context, st *store.Store, lr *localRepo, targets []Target, opts Options, stats *Stats, unit string, set []byte, supersede bool) error {
	contents, err := lr.read(ctx, opts.MaxFileBytes)
	if err != nil {
		return err
	}
	return st.Update(ctx, func(tx *store.Tx) error {
		if supersede {
			current := map[store.FileKey]string{}
			for _, f := range lr.files {
				current[store.FileKey{Path: f.path, GitSHA: f.sha}] = lr.fileURL(f.path)
			}
			n, err := tx.SupersedeRepoFiles(ctx, lr.record.FullName, lr.commit, current)
			if err != nil {
				return err
			}
			stats.FilesDropped += n
		}
		ids := make([]int64, len(targets))
		for i, t := range targets {
			ids[i] = t.API.ID
		}
		if err := tx.ForgetRepoHits(ctx, lr.record.FullName, ids); err != nil {
			return err
		}
		if _, err := tx.PutBlob(ctx, set); err != nil {
			return err
		}
		var repoID int64
		dater := newLocalDater(ctx, lr, stats)
		for _, f := range lr.files {
			subject := lr.fileURL(f.path)
			content, ok := contents[f.path]
			reason, notSource := "", false
			switch {
			case f.size > opts.MaxFileBytes:
				reason = "too large: over --max-file-bytes"
			case !ok:
				reason = "unreadable"
			case f.skip != "":
				reason, notSource = f.skip, true
			default:
				if reason = Classify(content, opts.MaxFileBytes); reason == "" {
					reason = SkipContent(f.lang, content)
					notSource = reason != ""
				}
			}
			if reason != "" {
				if !mentionsRapidAPI(content, targets) && f.size <= opts.MaxFileBytes {
					continue // an unrelated file: no decision to record
				}
				stats.Rejected++
				if notSource {
					stats.Skipped++
				}
				if err := tx.RecordDecision(ctx, store.Decision{RunID: opts.runID, Stage: Stage, SubjectKind: "file",
					Subject: subject, Verdict: store.Rejected, Reason: reason, Evidence: map[string]any{"size": f.size}}); err != nil {
					return err
				}
				continue
			}
			for _, t := range targets {
				q, ok := LocalLayer(t, f.lang, content, opts.EndpointsPerAPI)
				if !ok {
					continue
				}
				stats.Hits++
				if repoID == 0 {
					if repoID, err = tx.UpsertRepository(ctx, &lr.record); err != nil {
						return err
					}
				}
				file := &store.File{RepoID: repoID, Path: f.path, GitSHA: f.sha, CommitSHA: lr.commit, URL: lr.fileURL(f.path),
					Size: int64(len(content)), QueryLayer: q.Layer, Query: q.Text, APIID: t.API.ID, LineDates: dater.date(f.path)}
				if _, err := tx.SaveFile(ctx, file, content); err != nil {
					return err
				}
				stats.Stored++
				for _, d := range KeptDecisions(opts.runID, subject, t.Host, content,
					map[string]any{"api": t.API.Slug, "query_layer": q.Layer, "query": q.Text}) {
					if err := tx.RecordDecision(ctx, d); err != nil {
						return err
					}
				}
			}
		}
		for _, dir := range slices.Sorted(maps.Keys(lr.skipped)) {
			sd := lr.skipped[dir]
			stats.Rejected++
			stats.Skipped++
			ev := map[string]any{}
			if lr.isGit {
				ev["source_files"] = sd.files
			}
			if err := tx.RecordDecision(ctx, store.Decision{RunID: opts.runID, Stage: Stage, SubjectKind: "directory",
				Subject: lr.fileURL(dir), Verdict: store.Rejected, Reason: sd.reason, Evidence: ev}); err != nil {
				return err
			}
		}
		if repoID == 0 {
			// nothing of it is stored: say so, or the repository vanishes silently
			subject := lr.record.URL
			if subject == "" {
				subject = lr.record.FullName
			}
			if err := tx.RecordDecision(ctx, store.Decision{RunID: opts.runID, Stage: Stage, SubjectKind: "repository",
				Subject: subject, Verdict: store.Rejected, Reason: ReasonNoCandidate,
				Evidence: map[string]any{"source_files": len(lr.files), "version": lr.version()}}); err != nil {
				return err
			}
		} else {
			// the tree, so extraction can tell the repository's own modules from packages
			var paths []string
			for _, f := range lr.files {
				if f.skip == "" {
					paths = append(paths, f.path)
				}
			}
			if err := tx.SaveRepoPaths(ctx, repoID, paths); err != nil {
				return err
			}
		}
		return tx.MarkDone(ctx, Stage, unit, opts.runID)
	})
}

// backdate dates the lines of the files an earlier run stored from lr at its
// current version before sccg dated lines.
func backdate(ctx context.Context, st *store.Store, lr *localRepo, stats *Stats) error {
	files, err := st.UndatedFiles(ctx, lr.record.FullName, "")
	if err != nil || len(files) == 0 {
		return err
	}
	d := newLocalDater(ctx, lr, stats)
	return st.Update(ctx, func(tx *store.Tx) error {
		for _, f := range files {
			if f.CommitSHA != lr.commit {
				continue // of another version: mined again when that version is
			}
			if err := tx.SetLineDates(ctx, f.ID, d.date(f.Path)); err != nil {
				return err
			}
			stats.Backdated++
		}
		return nil
	})
}

// localDater dates the lines of a repository's mined files with git blame at its
// commit, once per file; a plain folder's files have no history.
type localDater struct {
	ctx   context.Context
	lr    *localRepo
	stats *Stats // counts each file dated or not; nil: none
	repo  *blame.Repo
	err   error // why the clone cannot be dated at all
	done  map[string]string
}

func newLocalDater(ctx context.Context, lr *localRepo, stats *Stats) *localDater {
	d := &localDater{ctx: ctx, lr: lr, stats: stats, done: map[string]string{}}
	if lr.isGit {
		d.repo, d.err = blame.Open(ctx, lr.dir)
	}
	return d
}

// date returns the line dates of the file at p (package blame's JSON), counting
// the file as dated or not.
func (d *localDater) date(p string) string {
	if s, ok := d.done[p]; ok {
		return s
	}
	l := d.lines(p)
	if d.stats != nil {
		d.stats.LineDates.Add(l.Undated)
	}
	d.done[p] = l.Encode()
	return d.done[p]
}

// lines dates the lines of the file at p.
func (d *localDater) lines(p string) *blame.Lines {
	var l *blame.Lines
	switch {
	case !d.lr.isGit:
		l = blame.Undated(blame.ReasonNotGit)
	case d.err != nil:
		l = blame.Undated(blame.ReasonFailed + ": " + d.err.Error())
	default:
		var err error
		if l, err = d.repo.File(d.ctx, d.lr.commit, p); err != nil {
			l = blame.Undated(blame.ReasonFailed + ": " + err.Error())
		}
	}
	return l
}

// ReasonNoCandidate is why a local repository gives no file: none of its source
// files (of the selected languages) names a crawled API's host (or URL, or route).
const ReasonNoCandidate = "no candidate file: no source file names a crawled API's host, URL or route"

// mentionsRapidAPI reports whether a rejected file would have been a candidate: it
// names one of the targets' hosts.
func mentionsRapidAPI(content []byte, targets []Target) bool {
	lower := bytes.ToLower(content)
	for _, t := range targets {
		if HostIn(lower, t.Host) {
			return true
		}
	}
	return false
}

// fileURL is the file's URL at the commit when the repository is on GitHub, else a
// name that identifies it without revealing local paths.
func (lr *localRepo) fileURL(p string) string {
	if strings.HasPrefix(lr.record.URL, "https://github.com/") && lr.commit != "" {
		return lr.record.URL + "/blob/" + lr.commit + "/" + p
	}
	return lr.record.FullName + "/" + p
}

// repoRoots lists the repositories under dir: dir itself when it is a git
// repository, else its sub-folders (and, for a folder holding only folders of git
// repositories, those), in name order.
func repoRoots(dir string) ([]string, error) {
	if isGitDir(dir) {
		return []string{dir}, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() || skipDirs[e.Name()] || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		sub := filepath.Join(dir, e.Name())
		if isGitDir(sub) {
			out = append(out, sub)
			continue
		}
		if nested := gitChildren(sub); len(nested) > 0 {
			out = append(out, nested...)
			continue
		}
		out = append(out, sub)
	}
	sort.Strings(out)
	return out, nil
}

func isGitDir(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, ".git"))
	return err == nil
}

// gitChildren lists the git repositories directly under an owner folder, when it
// holds nothing else.
func gitChildren(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		sub := filepath.Join(dir, e.Name())
		if !e.IsDir() || !isGitDir(sub) {
			return nil
		}
		out = append(out, sub)
	}
	return out
}

func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "LC_ALL=C", "GIT_TERMINAL_PROMPT=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

var githubRemote = regexp.MustCompile(`^(?:https?://|ssh://git@|git@)github\.com[/:]([^/]+)/([^/]+?)(?:\.git)?/?$`)

// isoUTC turns git's strict ISO dates into the store's UTC form.
func isoUTC(s string) string {
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(s))
	if err != nil {
		return strings.TrimSpace(s)
	}
	return t.UTC().Format("2006-01-02T15:04:05Z")
}

// inspect reads a repository's provenance and lists its source files of the
// languages langs (nil: all), and the directories it does not read.
func inspect(ctx context.Context, root string, langs []lang.Name) (*localRepo, error) {
	lr := &localRepo{dir: root, record: store.Repository{Source: "local", FullName: "local/" + filepath.Base(root), Topics: []string{}},
		skipped: map[string]*skippedDir{}}
	if isGitDir(root) {
		lr.isGit = true
		if err := lr.readGit(ctx, langs); err != nil {
			return nil, err
		}
	} else {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				if p == root {
					return nil
				}
				if reason, ok := skipDirReasons[strings.ToLower(d.Name())]; ok {
					lr.skipped[rel] = &skippedDir{reason: reason}
					return filepath.SkipDir
				}
				if skipDirs[d.Name()] {
					return filepath.SkipDir
				}
				return nil
			}
			n, skip, ok := SourceOf(rel, langs)
			if !ok || !d.Type().IsRegular() {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			// A plain folder has no commit: its version is a hash of its files'
			// contents, so an edited file is read again.
			sha, err := fileBlobSHA(p, info.Size())
			if err != nil {
				return err
			}
			lr.files = append(lr.files, localFile{path: rel, sha: sha, size: info.Size(), lang: n, skip: skip})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	lr.record.Language = mainLanguage(lr.files)
	return lr, nil
}

func (lr *localRepo) readGit(ctx context.Context, langs []lang.Name) error {
	out, err := git(ctx, lr.dir, "rev-parse", "HEAD")
	if err != nil {
		return err
	}
	lr.commit = strings.TrimSpace(out)
	if remote, err := git(ctx, lr.dir, "config", "--get", "remote.origin.url"); err == nil {
		remote = strings.TrimSpace(remote)
		if m := githubRemote.FindStringSubmatch(remote); m != nil {
			lr.record.FullName = m[1] + "/" + m[2]
			lr.record.URL = "https://github.com/" + m[1] + "/" + m[2]
		} else if strings.Contains(remote, "://") && !strings.HasPrefix(remote, "file://") {
			lr.record.URL = remote
		}
	}
	if branch, err := git(ctx, lr.dir, "symbolic-ref", "--short", "-q", "HEAD"); err == nil {
		lr.record.DefaultBranch = strings.TrimSpace(branch)
	}
	if out, err := git(ctx, lr.dir, "log", "-1", "--format=%aI%n%cI", "HEAD"); err == nil {
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) == 2 {
			lr.record.UpdatedAt, lr.record.PushedAt = isoUTC(lines[0]), isoUTC(lines[1])
		}
	}
	if out, err := git(ctx, lr.dir, "log", "--max-parents=0", "--format=%aI", "HEAD"); err == nil {
		lines := strings.Split(strings.TrimSpace(out), "\n")
		lr.record.CreatedAt = isoUTC(lines[len(lines)-1])
	}
	out, err = git(ctx, lr.dir, "ls-tree", "-r", "-z", "--long", "HEAD")
	if err != nil {
		return err
	}
	for _, rec := range strings.Split(out, "\x00") {
		meta, p, ok := strings.Cut(rec, "\t")
		if !ok {
			continue
		}
		n, skip, ok := SourceOf(p, langs)
		if !ok {
			continue
		}
		fields := strings.Fields(meta) // mode type sha size
		if len(fields) != 4 || fields[1] != "blob" {
			continue
		}
		if dir := skippedDirOf(p); dir != "" {
			if lr.skipped[dir] == nil {
				lr.skipped[dir] = &skippedDir{reason: skipDirReasons[strings.ToLower(path.Base(dir))]}
			}
			lr.skipped[dir].files++
			continue
		}
		size, _ := strconv.ParseInt(fields[3], 10, 64)
		lr.files = append(lr.files, localFile{path: p, sha: fields[2], size: size, lang: n, skip: skip})
	}
	sort.Slice(lr.files, func(i, j int) bool { return lr.files[i].path < lr.files[j].path })
	return nil
}

// read returns the content of every file not over maxBytes: from git's object store
// at the commit for a git repository (so the content is the one the blob SHA names),
// from disk for a plain folder.
func (lr *localRepo) read(ctx context.Context, maxBytes int64) (map[string][]byte, error) {
	out := map[string][]byte{}
	if !lr.isGit {
		for i, f := range lr.files {
			if f.size > maxBytes {
				continue
			}
			b, err := os.ReadFile(filepath.Join(lr.dir, filepath.FromSlash(f.path)))
			if err != nil {
				return nil, err
			}
			out[f.path] = b
			lr.files[i].sha = GitBlobSHA(b)
		}
		return out, nil
	}
	var want []localFile
	for _, f := range lr.files {
		if f.size <= maxBytes {
			want = append(want, f)
		}
	}
	if len(want) == 0 {
		return out, nil
	}
	cmd := exec.CommandContext(ctx, "git", "-C", lr.dir, "cat-file", "--batch")
	var in bytes.Buffer
	for _, f := range want {
		in.WriteString(f.sha + "\n")
	}
	cmd.Stdin = &in
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	r := bufio.NewReader(stdout)
	for _, f := range want {
		header, err := r.ReadString('\n')
		if err != nil {
			cmd.Wait()
			return nil, fmt.Errorf("git cat-file %s: %w", f.path, err)
		}
		parts := strings.Fields(header)
		if len(parts) != 3 {
			continue // "<sha> missing"
		}
		n, _ := strconv.ParseInt(parts[2], 10, 64)
		b := make([]byte, n+1) // content and a newline
		if _, err := io.ReadFull(r, b); err != nil {
			cmd.Wait()
			return nil, fmt.Errorf("git cat-file %s: %w", f.path, err)
		}
		out[f.path] = b[:n]
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	return out, nil
}

// skippedDirOf is the outermost directory of p that is not read (skipDirReasons),
// or "".
func skippedDirOf(p string) string {
	segs := strings.Split(p, "/")
	for i, seg := range segs[:len(segs)-1] {
		if _, ok := skipDirReasons[strings.ToLower(seg)]; ok {
			return strings.Join(segs[:i+1], "/")
		}
	}
	return ""
}

// mainLanguage is the language most of a repository's source files are in, as
// GitHub's metadata names it ("Python", "JavaScript", "TypeScript"), or "".
func mainLanguage(files []localFile) string {
	count := map[lang.Name]int{}
	for _, f := range files {
		if f.skip == "" {
			count[f.lang]++
		}
	}
	best, n := lang.Name(""), 0
	for _, l := range lang.Names() {
		if count[l] > n {
			best, n = l, count[l]
		}
	}
	return LanguageName(best)
}

// LanguageName is a language as GitHub's repository metadata spells it
// ("Python", "JavaScript", "TypeScript"), "" for none.
func LanguageName(n lang.Name) string {
	switch n {
	case lang.Python:
		return "Python"
	case lang.JavaScript:
		return "JavaScript"
	case lang.TypeScript:
		return "TypeScript"
	}
	return ""
}
