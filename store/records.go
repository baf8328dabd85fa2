package store

import "encoding/json"

// The records below are the store's contract between stages. Each stage's owner
// writes their accessors (store/<stage>.go); fields may be added, never renamed.

// API is one documented API (a RapidAPI listing, an OpenAPI document, a ToolBench tool).
type API struct {
	ID          int64          `json:"id"`
	Source      string         `json:"source"` // rapidapi | openapi | toolbench
	Owner       string         `json:"owner"`
	Slug        string         `json:"slug"`
	Title       string         `json:"title"`
	Category    string         `json:"category"`
	Description string         `json:"description"`
	Host        string         `json:"host"` // host of the current version, lower-cased
	Pricing     string         `json:"pricing"`
	Popularity  *float64       `json:"popularity,omitempty"`
	Subscribers *int64         `json:"subscribers,omitempty"`
	LatencyMS   *float64       `json:"latency_ms,omitempty"`
	SuccessRate *float64       `json:"success_rate,omitempty"`
	Version     string         `json:"version"` // name of the current version
	URL         string         `json:"url"`     // page URL or file path
	BlobSHA256  string         `json:"blob_sha256,omitempty"`
	OpenAPI     string         `json:"-"` // normalized OpenAPI 3 JSON
	Extra       map[string]any `json:"extra,omitempty"`
	CrawledAt   string         `json:"crawled_at"`
}

// Endpoint is one documented operation of an API version.
type Endpoint struct {
	ID          int64   `json:"id"`
	APIID       int64   `json:"api_id"`
	Version     string  `json:"version"`
	IsCurrent   bool    `json:"is_current"`
	Host        string  `json:"host"`
	Key         string  `json:"endpoint_key"` // the source's endpoint id
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Method      string  `json:"method"` // upper-case
	Route       string  `json:"route"`  // template with {name} path parameters
	ContentType string  `json:"content_type,omitempty"`
	BodyExample string  `json:"body_example,omitempty"`
	Params      []Param `json:"params"`
}

// Param is one documented parameter of an endpoint.
type Param struct {
	Name        string `json:"name"`
	Location    string `json:"location"` // query | path | header | body | form
	Type        string `json:"type"`     // OpenAPI type
	Required    bool   `json:"required"`
	Example     string `json:"example,omitempty"`
	Default     string `json:"default,omitempty"`
	Description string `json:"description,omitempty"`
}

// Repository is a source repository that files were mined from.
type Repository struct {
	ID            int64    `json:"id"`
	FullName      string   `json:"full_name"` // owner/name
	Source        string   `json:"source"`    // github | local
	URL           string   `json:"url"`
	Description   string   `json:"description"`
	Language      string   `json:"language"`
	Stars         int      `json:"stars"`
	Forks         int      `json:"forks"`
	Watchers      int      `json:"watchers"`
	OpenIssues    int      `json:"open_issues"`
	License       string   `json:"license"`
	Topics        []string `json:"topics"`
	DefaultBranch string   `json:"default_branch"`
	IsFork        bool     `json:"is_fork"`
	Archived      bool     `json:"archived"`
	CreatedAt     string   `json:"created_at"`
	UpdatedAt     string   `json:"updated_at"`
	PushedAt      string   `json:"pushed_at"`
	FetchedAt     string   `json:"fetched_at"`
}

// File is one mined source file, pinned to the version it was read at. Its content
// is the blob BlobSHA256.
type File struct {
	ID         int64  `json:"id"`
	RepoID     int64  `json:"repo_id"`
	Path       string `json:"path"`
	GitSHA     string `json:"git_sha"`
	CommitSHA  string `json:"commit_sha"`
	URL        string `json:"url"`
	Size       int64  `json:"size"`
	BlobSHA256 string `json:"blob_sha256"`
	QueryLayer string `json:"query_layer"` // strongest layer that found it
	Query      string `json:"query"`
	APIID      int64  `json:"api_id,omitempty"`
	FoundAt    string `json:"found_at"`
	// LineDates are when its lines were written (package blame's JSON); "" when
	// they were not dated.
	LineDates string `json:"line_dates,omitempty"`
}

// Function is a request-making function extracted from a file. Facts holds the
// extractor's static facts (call sites, headers, imports, …) as JSON; the extractor
// package owns its Go type.
type Function struct {
	ID                int64              `json:"id"`
	FileID            int64              `json:"file_id"`
	Name              string             `json:"name"`
	QualName          string             `json:"qualname"`
	ClassName         string             `json:"class_name,omitempty"`
	StartLine         int                `json:"start_line"`
	EndLine           int                `json:"end_line"`
	IsAsync           bool               `json:"is_async"`
	Source            string             `json:"source"`
	Code              string             `json:"code"`
	CodeHash          string             `json:"code_hash"`
	SyntaxOK          bool               `json:"syntax_ok"`
	Status            string             `json:"status"` // candidate | rejected
	RejectReason      string             `json:"reject_reason,omitempty"`
	Quality           float64            `json:"quality"`
	QualityComponents map[string]float64 `json:"quality_components,omitempty"`
	Facts             json.RawMessage    `json:"facts,omitempty"`
}

// Function statuses.
const (
	FunctionCandidate = "candidate"
	FunctionRejected  = "rejected"
)

// Alignment binds one request call site of a function to a documented endpoint.
type Alignment struct {
	ID             int64           `json:"id"`
	FunctionID     int64           `json:"function_id"`
	CallIndex      int             `json:"call_index"`
	APIID          int64           `json:"api_id,omitempty"`
	EndpointID     int64           `json:"endpoint_id,omitempty"`
	Host           string          `json:"host"`
	Route          string          `json:"route"`
	Method         string          `json:"method"`
	DocMatchType   string          `json:"doc_match_type"`  // url | route | host_only
	EndpointSource string          `json:"endpoint_source"` // documented | observed | none
	Params         []Param         `json:"params"`
	ParamsSource   string          `json:"params_source"` // documented | observed | none
	Evidence       json.RawMessage `json:"evidence,omitempty"`
	Alternatives   json.RawMessage `json:"alternatives,omitempty"`
	IsPrimary      bool            `json:"is_primary"`
}

// Sample is one benchmark sample: built from a function and its alignment, or
// imported from a published release. Record is the published-format JSON.
type Sample struct {
	ID             int64           `json:"id"`
	SampleID       string          `json:"sample_id"` // SCG-000001
	FunctionID     int64           `json:"function_id,omitempty"`
	AlignmentID    int64           `json:"alignment_id,omitempty"`
	Origin         string          `json:"origin"` // built | imported
	APIName        string          `json:"api_name"`
	APIHost        string          `json:"api_host"`
	FunctionName   string          `json:"function_name"`
	Code           string          `json:"code"`
	CommentsSource string          `json:"comments_source"`
	DocMatchType   string          `json:"doc_match_type"`
	Record         json.RawMessage `json:"record,omitempty"`
	Split          string          `json:"split,omitempty"`
	CreatedAt      string          `json:"created_at"`
	SortKey        string          `json:"sort_key,omitempty"` // the stable key built samples are numbered by
}
