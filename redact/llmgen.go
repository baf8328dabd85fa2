package redact

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"sccg/leakcheck"
	"sccg/llm"
)

// Chatter is what redact needs of a model: one chat completion. *llm.Client is one.
type Chatter interface {
	Chat(ctx context.Context, req llm.ChatRequest) (*llm.ChatResponse, error)
}

// Anchors is how many human comments of other APIs a prompt shows as style anchors.
const Anchors = 3

// maxIntentBytes is the longest answer taken as an intent.
const maxIntentBytes = 400

// anchor is a real human comment that can show a model how developers state goals.
type anchor struct {
	functionID int64
	apiID      int64
	host       string
	family     string
	text       string
}

// anchorText is the first sentence of a human comment, when it reads as a goal a
// developer stated: prose of 4 to 40 words, no URL, no code, no placeholder.
func anchorText(comment string) (string, bool) {
	first, _, _ := strings.Cut(strings.TrimSpace(comment), "\n")
	if i := strings.Index(first, ". "); i > 0 {
		first = first[:i+1]
	}
	first = strings.TrimSpace(first)
	n := len(strings.Fields(first))
	if n < 4 || n > 40 || strings.Contains(first, "://") || strings.ContainsAny(first, "<>{}()=`") {
		return "", false
	}
	return first, true
}

// pickAnchors chooses, deterministically for the function fid, up to Anchors human
// comments of other APIs and other host families that give nothing of g away.
func pickAnchors(pool []anchor, fid, apiID int64, host string, g leakcheck.Truth) []string {
	fam := leakcheck.HostFamily(host)
	c := leakcheck.Compile(g)
	type cand struct {
		rank uint64
		text string
	}
	var cs []cand
	for _, a := range pool {
		if a.functionID == fid || (apiID != 0 && a.apiID == apiID) || a.host == strings.ToLower(host) || (fam != "" && a.family == fam) {
			continue
		}
		if c.Check(a.text).Leaked {
			continue
		}
		h := fnv.New64a()
		fmt.Fprintf(h, "%d/%d", fid, a.functionID)
		cs = append(cs, cand{h.Sum64(), a.text})
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].rank < cs[j].rank })
	var out []string
	for _, x := range cs {
		if len(out) == Anchors {
			break
		}
		if !slices.Contains(out, x.text) {
			out = append(out, x.text)
		}
	}
	return out
}

const systemPrompt = `You write the request a developer would type to get a piece of code written: the goal of the user, in a developer's own voice, in one or two sentences.
Say what the user wants to achieve, never how the code does it. Do not name the service, the API, its host, URL, endpoint path, parameter names or parameter values: the code you are shown has them replaced by placeholders in angle brackets, and the intent must not mention them either.
Answer with the intent only: plain prose, no code, no quotes, no preamble.`

// stylePrompt is the first, style-guided request for an intent of the masked code.
func stylePrompt(masked string, anchors []string) []llm.Message {
	var b strings.Builder
	if len(anchors) > 0 {
		b.WriteString("Developers state their goals like this:\n")
		for _, a := range anchors {
			b.WriteString("- " + a + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString("The code, with the service's details replaced by placeholders:\n```python\n")
	b.WriteString(strings.TrimRight(masked, "\n"))
	b.WriteString("\n```\n\nWrite the developer's intent for this code.")
	return []llm.Message{llm.System(systemPrompt), llm.User(b.String())}
}

// strictPrompt is the one stricter retry: the first request, the rejected answer,
// and what it must not do again — the terms that leaked, named.
func strictPrompt(first []llm.Message, answer string, problem string, forbidden []string) []llm.Message {
	var b strings.Builder
	b.WriteString("That answer cannot be used: " + problem + ".\n")
	if len(forbidden) > 0 {
		b.WriteString("These must not appear in the intent, in any spelling, case or split into words: ")
		qs := make([]string, len(forbidden))
		for i, f := range forbidden {
			qs[i] = fmt.Sprintf("%q", f)
		}
		b.WriteString(strings.Join(qs, ", ") + ".\n")
	}
	b.WriteString("Write the intent again: only what the user wants to achieve, one or two plain sentences, naming no service, host, URL, path or parameter.")
	msgs := append([]llm.Message(nil), first...)
	if strings.TrimSpace(answer) != "" && len(answer) <= 4*maxIntentBytes {
		msgs = append(msgs, llm.Assistant(answer))
	}
	return append(msgs, llm.User(b.String()))
}

var (
	codeAnswer  = regexp.MustCompile("(?m)```|^\\s*(def|class|import|from|return|async def)\\s|requests\\.|\\w+\\(.*\\)\\s*$|^\\s*[\\w.\\[\\]\"']+\\s*=\\s*\\S")
	preamble    = regexp.MustCompile(`(?i)^\s*(intent|the intent|developer'?s? intent|here is the intent|request)\s*:\s*`)
	placeholder = regexp.MustCompile(`<[A-Z_]+(?:_\d+)?>`)
)

// cleanAnswer turns a model's answer into the intent it states, or says why it
// cannot be one: empty, code instead of prose, longer than an intent, or talking
// about the placeholders.
func cleanAnswer(raw string) (string, error) {
	t := strings.TrimSpace(raw)
	if t == "" {
		return "", errors.New("the answer is empty")
	}
	if len(t) > maxIntentBytes {
		return "", fmt.Errorf("the answer is %d bytes long, not one or two sentences", len(t))
	}
	if codeAnswer.MatchString(t) {
		return "", errors.New("the answer is code, not prose")
	}
	t = preamble.ReplaceAllString(t, "")
	t = strings.Trim(t, "\"'“”` \n\t")
	t = strings.Join(strings.Fields(t), " ")
	if placeholder.MatchString(t) {
		return "", errors.New("the answer mentions the placeholders")
	}
	if !strings.ContainsFunc(t, unicode.IsLetter) || len(strings.Fields(t)) < 3 {
		return "", errors.New("the answer is not a sentence")
	}
	return t, nil
}

// llmAttempt is the outcome of one request for an intent.
type llmAttempt struct {
	messages []llm.Message
	response string
	model    string
	text     string
	report   leakcheck.Report
	problem  error // unusable answer
	err      error // the request failed
	cached   bool
	usage    llm.TokenUsage
}

func (a *llmAttempt) prompt() string {
	b, _ := json.Marshal(a.messages)
	return string(b)
}

// ask sends one request and judges its answer against g.
func ask(ctx context.Context, ch Chatter, model string, msgs []llm.Message, g leakcheck.Truth) *llmAttempt {
	a := &llmAttempt{messages: msgs, model: model}
	resp, err := ch.Chat(ctx, llm.ChatRequest{Model: model, Messages: msgs, Temperature: llm.Float(0), MaxTokens: 200})
	if err != nil {
		a.err = err
		return a
	}
	a.response, a.cached, a.usage = resp.Text(), resp.Cached, resp.Usage
	if resp.Model != "" && a.model == "" {
		a.model = resp.Model
	}
	if a.text, a.problem = cleanAnswer(a.response); a.problem == nil {
		a.report = leakcheck.LeakCheck(a.text, g)
	}
	return a
}

// rejection says why an attempt's answer is not taken, and what may not appear.
func (a *llmAttempt) rejection() (problem string, forbidden []string) {
	if a.problem != nil {
		return a.problem.Error(), nil
	}
	return "it gives away " + a.report.String(), a.report.Terms()
}
