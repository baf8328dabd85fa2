package synthapi

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCodeHost(t *testing.T) {
	for _, n := range []int{10, 500, 1000, 1410} {
		ops := CodeHost(n)
		paths := map[string]bool{}
		for _, op := range ops {
			paths[op.Path] = true
		}
		if len(paths) != n {
			t.Errorf("CodeHost(%d) has %d distinct paths", n, len(paths))
		}
	}
	ops := CodeHost(1000)
	var under int
	for _, op := range ops {
		if strings.HasPrefix(op.Path, "/repos/{owner}/{repo}/") {
			under++
		}
	}
	if under < 100 {
		t.Errorf("only %d operations under /repos/{owner}/{repo}", under)
	}
}

func TestOpenAPI(t *testing.T) {
	b := OpenAPI("chat", "https://chat.example.test"+ChatBase, Chat())
	var doc struct {
		Paths map[string]map[string]struct {
			Parameters []struct{ Name, In string }
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	me := doc.Paths["/users/@me"]
	if _, ok := me["get"]; !ok || len(me) != 2 {
		t.Errorf("/users/@me operations = %v, want get and patch", me)
	}
	if ps := doc.Paths["/guilds/{guild_id}/members/{user_id}"]["get"].Parameters; len(ps) != 2 || ps[1].Name != "user_id" || ps[1].In != "path" {
		t.Errorf("path parameters = %+v", ps)
	}
}
