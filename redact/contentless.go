package redact

import (
	"strings"
	"unicode"
)

// Contentless reports an intent that says nothing about what its function is for:
// in every sentence, once the argument phrases ("for a given city and language",
// which name inputs, not the goal) are set aside, nothing is left but a generic
// verb ("Get", "Submit", "Search for"), function words ("the", "and", "return"),
// words that fit any response ("data", "info", "result", "JSON response") and
// echoes of method names that say nothing ("init", "main", "run"). "Get the
// data.", "Submit the data." and "Get the init for a given master and nombre." are
// contentless; "Get the current weather for a given city.", "Translate the text
// into a given language." (a verb that states the goal) and "Search for a given
// keyword." (what a search is given is what it is for) are not.
func Contentless(intent string) bool {
	for _, s := range sentences(intent) {
		if !sentenceContentless(s) {
			return false
		}
	}
	return true
}

// sentences splits text at sentence ends and line breaks.
func sentences(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return r == '.' || r == '!' || r == '?' || r == '\n' || r == ';' })
}

func sentenceContentless(s string) bool {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '\''
	})
	inArgs := false
	for i, w := range words {
		if w == "given" && i > 0 && searchVerb[words[0]] && allEmpty(words[1:i]) {
			// "Search for a given keyword": what it searches for is its object
			return i+1 >= len(words) || dataWord[words[i+1]] || emptyWord[words[i+1]]
		}
		switch {
		case w == "return" || w == "returns":
			inArgs = false
		case w == "given":
			inArgs = true
		case inArgs:
		case i == 0 && !genericVerb[w] && !emptyWord[w] && !dataWord[w] && !methodEcho[w]:
			// a verb that states the goal by itself: translate, geocode, shorten
			return false
		case genericVerb[w] || emptyWord[w] || dataWord[w] || methodEcho[w]:
		default:
			return false
		}
	}
	return true
}

// searchVerb are the verbs whose object is what they are given to look for.
var searchVerb = set("search searches find finds look looks lookup")

func allEmpty(ws []string) bool {
	for _, w := range ws {
		if !emptyWord[w] && w != "up" {
			return false
		}
	}
	return true
}

// genericVerb are verbs that say what a function does to something, not what for.
var genericVerb = set("get gets fetch fetches retrieve retrieves read reads load loads pull pulls query queries list lists " +
	"make makes post posts send sends submit submits upload uploads update updates set sets create creates add adds " +
	"delete deletes remove removes call calls run runs do does perform performs execute executes handle handles " +
	"process processes print prints show shows display displays check checks request requests download downloads " +
	"collect collects build builds look looks up find finds search searches obtain obtains put puts patch")

// emptyWord are articles, prepositions, pronouns and the fixed words of the
// offline generator's phrases.
var emptyWord = set("the a an for of to with by from using via in on at and or into as if it its them they their this " +
	"that these those what which is are be nothing when fail fails failed some any all given")

// dataWord are nouns that fit any response.
var dataWord = set("data info infos information result results response responses json output outputs detail details " +
	"content contents payload body value values field fields status code raw text reply item items object objects " +
	"record records resource resources stuff thing things")

// methodEcho are method and function names that say nothing about the goal.
var methodEcho = set("init main run start setup call execute process handle handler callback wrapper helper func function " +
	"method api apis endpoint service services test do new self cls task job worker loop view index dispatch invoke " +
	"perform action my client async sync impl util utils")

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
