package release

// The dataset statistics `sccg export` publishes beside the release as stats.json.

// Summary holds the dataset figures of the paper's Table II and of the published
// README for one set of records (the whole benchmark or one split).
type Summary struct {
	Samples int `json:"samples"`
	// Languages counts the samples by their language field (python, javascript,
	// typescript; a record without one is python).
	Languages            map[string]int `json:"languages,omitempty"`
	DistinctAPIs         int            `json:"distinct_apis"`
	DistinctRepositories int            `json:"distinct_repositories"`
	EffectiveLOCAverage  float64        `json:"effective_loc_average"`
	EffectiveLOCMedian   float64        `json:"effective_loc_median"`
	CommentsSource       map[string]int `json:"comments_source"`
	// IntentPaths counts the samples whose record names the path that made its
	// comment (built samples: original, llm, llm_retry, offline, fallback), and
	// PairedIntents those that carry a redacted intent beside their human comment.
	IntentPaths   map[string]int `json:"intent_paths,omitempty"`
	PairedIntents int            `json:"paired_intents,omitempty"`
	DocMatchType  map[string]int `json:"doc_match_type"`
	Methods       map[string]int `json:"http_methods"`
	// TopDependencies are the third-party modules the samples import most: not the
	// standard library, not the repositories' own modules.
	TopDependencies []Dependency `json:"top_dependencies"`
	// SyntaxCheckedWith names the Python versions that judged the samples' syntax
	// ("Python 3.11.7"): the interpreter the evaluator runs, at extraction.
	SyntaxCheckedWith []string       `json:"syntax_checked_with,omitempty"`
	UpdateYears       map[string]int `json:"repository_update_years"`
	// FunctionAuthoredYears counts the samples by the year their function first
	// appeared (github_info.function_authored_at), and FunctionDatesUnknown those
	// whose lines could not be dated, by why; both absent when no record says
	// either (a published release).
	FunctionAuthoredYears map[string]int `json:"function_authored_years,omitempty"`
	FunctionDatesUnknown  map[string]int `json:"function_dates_unknown,omitempty"`
	// RecentUpdateShare is the share of samples whose repository was updated in the
	// last three calendar years of the data (RecentFrom and the two after it).
	RecentUpdateShare float64 `json:"recent_update_share"`
	RecentFrom        string  `json:"recent_update_from,omitempty"`
	TopAPIsShare      float64 `json:"top_20pct_apis_sample_share"`
	APIsWithOneSample int     `json:"apis_with_one_sample"`
	AverageStars      float64 `json:"average_stars"`
	AverageForks      float64 `json:"average_forks"`

	// The RapidAPI figures, over the samples whose record carries a subscriber
	// count or a pricing plan in api_info (RapidAPI and ToolBench APIs; OpenAPI
	// descriptions and a published release have none): share of samples from
	// services with at least 1,000 subscribers, and from FREE or FREEMIUM ones.
	// When no sample says, the figure is absent (nil, left out of the JSON), never
	// 0; files written when it was 0 read back as a count of 0.
	WithSubscribers      int      `json:"samples_with_subscriber_count,omitempty"`
	Subscribers1000Share *float64 `json:"subscribers_1000_share,omitempty"`
	WithPricing          int      `json:"samples_with_pricing,omitempty"`
	FreeOrFreemiumShare  *float64 `json:"free_or_freemium_share,omitempty"`
}

// Dependency is a module imported by some samples and the share of samples that do.
type Dependency struct {
	Name    string  `json:"name"`
	Samples int     `json:"samples"`
	Share   float64 `json:"share"`
}

// Stats is what `sccg export` writes to stats.json: the figures for the whole
// benchmark and for each split.
type Stats struct {
	Total  Summary            `json:"total"`
	Splits map[string]int     `json:"splits"`
	Per    map[string]Summary `json:"per_split"`
	// PerLanguage are the figures of each language's samples (its dependencies are
	// its ecosystem's: PyPI distributions for Python, npm packages for JavaScript
	// and TypeScript).
	PerLanguage map[string]Summary `json:"per_language,omitempty"`
}

// TopDependencyCount is how many dependencies a Summary lists.
const TopDependencyCount = 10
