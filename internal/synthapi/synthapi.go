// Package synthapi generates API descriptions shaped like the large ones publishers
// release — a code-hosting REST API with about a thousand paths, most of them under
// /repos/{owner}/{repo}, and a chat API whose /users/@me stands beside
// /users/{user_id} under a versioned base path — so tests and benchmarks exercise
// those shapes without depending on any real description. Output is deterministic.
package synthapi

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Operation is one documented endpoint: an upper-case method and a route template.
type Operation struct {
	Method string
	Path   string
}

// owners are the path prefixes a code-hosting API scopes its resources by.
var owners = []string{"/repos/{owner}/{repo}", "/orgs/{org}", "/users/{username}", "/user", "/teams/{team_id}",
	"/enterprises/{enterprise}", "/gists/{gist_id}", "/apps/{app_slug}", "/projects/{project_id}", "/installations/{installation_id}"}

// resources are the collections under each prefix, some two segments deep.
var resources = []string{"commits", "issues", "pulls", "branches", "releases", "labels", "milestones", "hooks", "keys",
	"actions/runs", "actions/secrets", "actions/variables", "projects", "deployments", "environments", "collaborators",
	"contents", "tags", "forks", "stargazers", "subscribers", "invitations", "comments", "events", "packages", "members",
	"codespaces", "pages", "rulesets", "autolinks", "topics", "languages", "traffic/views", "check-runs", "statuses",
	"notifications", "dependabot/alerts", "code-scanning/alerts", "secret-scanning/alerts", "discussions"}

// subs are the collections under one item of a resource.
var subs = []string{"comments", "reactions", "events"}

// CodeHost returns n distinct paths of a code-hosting REST API (n at most 1,410),
// with their operations: a collection is listed and created (GET, POST), an item
// read, updated and deleted (GET, PATCH, DELETE), an item's sub-collection listed.
// Each owner prefix is a path itself; every owner prefix gets its resources in turn, so any n spreads over all of
// them; literal paths (/user) stand beside templates (/users/{username}).
func CodeHost(n int) []Operation {
	var out []Operation
	paths := 0
	for _, owner := range owners {
		if paths == n {
			return out
		}
		out = append(out, Operation{"GET", owner})
		paths++
	}
	for shape := 0; shape < 2+len(subs) && paths < n; shape++ {
		for r, res := range resources {
			for o, owner := range owners {
				if paths == n {
					return out
				}
				if (r+o)%2 == 1 && shape > 1 {
					continue // not every item has every sub-collection
				}
				item := owner + "/" + res + "/{" + idName(res) + "}"
				switch shape {
				case 0:
					out = append(out, Operation{"GET", owner + "/" + res}, Operation{"POST", owner + "/" + res})
				case 1:
					out = append(out, Operation{"GET", item}, Operation{"PATCH", item}, Operation{"DELETE", item})
				default:
					out = append(out, Operation{"GET", item + "/" + subs[shape-2]})
				}
				paths++
			}
		}
	}
	return out
}

// idName is the parameter naming one item of a resource: "pulls" → "pulls_id",
// "actions/runs" → "runs_id".
func idName(res string) string {
	if i := strings.LastIndexByte(res, '/'); i >= 0 {
		res = res[i+1:]
	}
	return strings.ReplaceAll(res, "-", "_") + "_id"
}

// ChatBase is the base path of the chat API's server, which its paths are relative to.
const ChatBase = "/api/v10"

// Chat returns the operations of a chat platform's API, relative to ChatBase as its
// description writes them: /users/@me and its guilds beside /users/{user_id},
// channels and their messages, guilds and their members.
func Chat() []Operation {
	var out []Operation
	for _, p := range []string{"/users/@me", "/users/@me/guilds", "/users/@me/channels", "/users/{user_id}",
		"/guilds/{guild_id}", "/guilds/{guild_id}/members", "/guilds/{guild_id}/members/{user_id}", "/guilds/{guild_id}/members/@me",
		"/channels/{channel_id}", "/channels/{channel_id}/messages", "/channels/{channel_id}/messages/{message_id}",
		"/gateway", "/gateway/bot", "/applications/@me"} {
		out = append(out, Operation{"GET", p})
	}
	return append(out, Operation{"POST", "/channels/{channel_id}/messages"}, Operation{"PATCH", "/users/@me"})
}

var pathParam = regexp.MustCompile(`\{([^{}]+)\}`)

// OpenAPI writes ops as an OpenAPI 3.0 description (JSON) of one server: every
// operation with an operationId, a summary, its path parameters and a response.
func OpenAPI(title, server string, ops []Operation) []byte {
	type param struct {
		Name     string            `json:"name"`
		In       string            `json:"in"`
		Required bool              `json:"required"`
		Schema   map[string]string `json:"schema"`
	}
	type response struct {
		Description string `json:"description"`
	}
	type operation struct {
		OperationID string              `json:"operationId"`
		Summary     string              `json:"summary"`
		Parameters  []param             `json:"parameters,omitempty"`
		Responses   map[string]response `json:"responses"`
	}
	paths := map[string]map[string]operation{}
	for i, op := range ops {
		var ps []param
		for _, m := range pathParam.FindAllStringSubmatch(op.Path, -1) {
			ps = append(ps, param{Name: m[1], In: "path", Required: true, Schema: map[string]string{"type": "string"}})
		}
		if paths[op.Path] == nil {
			paths[op.Path] = map[string]operation{}
		}
		paths[op.Path][strings.ToLower(op.Method)] = operation{OperationID: fmt.Sprintf("op%d", i),
			Summary: op.Method + " " + op.Path, Parameters: ps, Responses: map[string]response{"200": {"OK"}}}
	}
	doc := map[string]any{"openapi": "3.0.3", "info": map[string]string{"title": title, "version": "1.0.0"},
		"servers": []map[string]string{{"url": server}}, "paths": paths}
	b, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		panic(err) // maps of strings always marshal
	}
	return b
}
