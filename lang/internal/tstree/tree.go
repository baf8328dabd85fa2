// Package tstree is the one Go copy of a tree-sitter syntax tree that the language
// frontends (lang/python, lang/javascript) analyse: it parses with a grammar the frontend passes in,
// flattens the C tree in one C walk, links the records into Nodes, and converts
// them to lang's plain tree.
package tstree

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

// Declarations of the tree-sitter C API (tree_sitter/api.h) that go-tree-sitter
// compiles into the binary. The grammar is the caller's.
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct TSLanguage TSLanguage;
typedef uint16_t TSSymbol;
typedef uint16_t TSFieldId;
typedef struct { uint32_t row; uint32_t column; } TSPoint;
typedef struct { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;

TSParser *ts_parser_new(void);
void ts_parser_delete(TSParser *self);
bool ts_parser_set_language(TSParser *self, const TSLanguage *language);
void ts_parser_set_timeout_micros(TSParser *self, uint64_t timeout_micros);
void ts_parser_set_cancellation_flag(TSParser *self, const size_t *flag);
TSTree *ts_parser_parse_string(TSParser *self, const TSTree *old_tree, const char *string, uint32_t length);
void ts_tree_delete(TSTree *self);
TSNode ts_tree_root_node(const TSTree *self);
TSTreeCursor ts_tree_cursor_new(TSNode node);
void ts_tree_cursor_delete(TSTreeCursor *self);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *self);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *self);
bool ts_tree_cursor_goto_parent(TSTreeCursor *self);
TSNode ts_tree_cursor_current_node(const TSTreeCursor *self);
TSFieldId ts_tree_cursor_current_field_id(const TSTreeCursor *self);
TSSymbol ts_node_symbol(TSNode self);
uint32_t ts_node_start_byte(TSNode self);
uint32_t ts_node_end_byte(TSNode self);
TSPoint ts_node_start_point(TSNode self);
TSPoint ts_node_end_point(TSNode self);
bool ts_node_is_named(TSNode self);
bool ts_node_is_missing(TSNode self);
bool ts_node_is_error(TSNode self);
uint32_t ts_language_symbol_count(const TSLanguage *self);
const char *ts_language_symbol_name(const TSLanguage *self, TSSymbol symbol);
uint32_t ts_language_field_count(const TSLanguage *self);
const char *ts_language_field_name_for_id(const TSLanguage *self, TSFieldId id);

typedef struct {
	uint32_t start, end, row, col, end_row;
	int32_t parent;
	uint16_t sym, field;
	uint8_t flags;
} sccg_rec;

enum { SCCG_NAMED = 1, SCCG_MISSING = 2, SCCG_ERROR = 4 };

// sccg_parse parses src in language lang and returns the tree flattened in preorder (each
// record names its parent), or NULL when parsing was cancelled or timed out.
static sccg_rec *sccg_parse(const TSLanguage *lang, const char *src, uint32_t len, uint64_t timeout_us, const size_t *cancel, uint32_t *count) {
	TSParser *p = ts_parser_new();
	ts_parser_set_language(p, lang);
	ts_parser_set_timeout_micros(p, timeout_us);
	ts_parser_set_cancellation_flag(p, cancel);
	TSTree *t = ts_parser_parse_string(p, NULL, src, len);
	ts_parser_delete(p);
	*count = 0;
	if (!t) return NULL;
	size_t cap = 1024, n = 0, scap = 64, depth = 0;
	sccg_rec *out = malloc(cap * sizeof *out);
	int32_t *stack = malloc(scap * sizeof *stack);
	TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(t));
#define EMIT(parentIdx) do { \
		if (n == cap) { cap *= 2; out = realloc(out, cap * sizeof *out); } \
		TSNode nd = ts_tree_cursor_current_node(&c); \
		TSPoint sp = ts_node_start_point(nd); \
		sccg_rec *r = &out[n]; \
		r->start = ts_node_start_byte(nd); r->end = ts_node_end_byte(nd); \
		r->row = sp.row; r->col = sp.column; r->end_row = ts_node_end_point(nd).row; \
		r->parent = (parentIdx); r->sym = ts_node_symbol(nd); \
		r->field = (parentIdx) < 0 ? 0 : ts_tree_cursor_current_field_id(&c); \
		r->flags = (ts_node_is_named(nd) ? SCCG_NAMED : 0) | (ts_node_is_missing(nd) ? SCCG_MISSING : 0) | \
			(ts_node_is_error(nd) ? SCCG_ERROR : 0); \
		n++; \
		if (depth == scap) { scap *= 2; stack = realloc(stack, scap * sizeof *stack); } \
		stack[depth++] = (int32_t)(n - 1); \
	} while (0)
	EMIT(-1);
	for (;;) {
		if (ts_tree_cursor_goto_first_child(&c)) {
			EMIT(stack[depth - 1]);
			continue;
		}
		for (;;) {
			if (depth == 1) goto done;
			depth--;
			if (ts_tree_cursor_goto_next_sibling(&c)) {
				EMIT(stack[depth - 1]);
				break;
			}
			ts_tree_cursor_goto_parent(&c);
		}
	}
done:
#undef EMIT
	ts_tree_cursor_delete(&c);
	ts_tree_delete(t);
	free(stack);
	*count = (uint32_t)n;
	return out;
}
*/
import "C"

import (
	"context"
	"fmt"
	"sccg/lang"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	// The tree-sitter runtime: its C code is what the declarations above call.
	// The grammars are linked by the frontends that pass them in.
	_ "github.com/smacker/go-tree-sitter"
)

// Node is a Go copy of one tree-sitter node. The C side flattens the whole tree in
// one call and Go builds these from it, so the analysis never crosses into C
// again: every Node method of go-tree-sitter's Go API is a cgo call (and caches
// the node in a map), which made copying a 2 MB file's tree take seconds.
type Node struct {
	Type     string
	Field    string // field name in the parent ("name", "body", …), "" if none
	Start    uint32 // byte offsets into the source
	End      uint32
	Row      int // 0-based start row
	Col      int // start column, in bytes
	EndRow   int
	Named    bool
	Missing  bool
	Parent   *Node
	Children []*Node
}

// Child returns the first child with the given field name, or nil.
func (n *Node) Child(field string) *Node {
	if n == nil {
		return nil
	}
	for _, c := range n.Children {
		if c.Field == field {
			return c
		}
	}
	return nil
}

// NamedKids returns the named children.
func (n *Node) NamedKids() []*Node {
	var out []*Node
	for _, c := range n.Children {
		if c.Named {
			out = append(out, c)
		}
	}
	return out
}

// Text is n's source text ("" for nil).
func (n *Node) Text(src []byte) string {
	if n == nil {
		return ""
	}
	return string(src[n.Start:n.End])
}

// Walk visits n and its descendants depth-first, in source order; when fn returns
// false the node's children are skipped.
func (n *Node) Walk(fn func(*Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	for _, c := range n.Children {
		c.Walk(fn)
	}
}

// HasError reports whether n's subtree holds an ERROR or MISSING node.
func (n *Node) HasError() bool {
	found := false
	n.Walk(func(m *Node) bool {
		if found {
			return false
		}
		if m.Type == "ERROR" || m.Missing {
			found = true
		}
		return !found
	})
	return found
}

// Grammar is a tree-sitter language with its node type and field names by id,
// loaded once, read-only after.
type Grammar struct {
	lang   *C.TSLanguage
	once   sync.Once
	syms   []string
	fields []string
}

// NewGrammar wraps a tree-sitter language: lang is the const TSLanguage * its
// grammar's C function returns (tree_sitter_python() and the like), which the
// frontend that links that grammar passes in.
func NewGrammar(lang unsafe.Pointer) *Grammar {
	return &Grammar{lang: (*C.TSLanguage)(lang)}
}

func (g *Grammar) names() {
	g.once.Do(func() {
		l := g.lang
		n := int(C.ts_language_symbol_count(l))
		g.syms = make([]string, n)
		for i := 0; i < n; i++ {
			g.syms[i] = C.GoString(C.ts_language_symbol_name(l, C.TSSymbol(i)))
		}
		f := int(C.ts_language_field_count(l))
		g.fields = make([]string, f+1)
		for i := 1; i <= f; i++ {
			g.fields[i] = C.GoString(C.ts_language_field_name_for_id(l, C.TSFieldId(i)))
		}
	})
}

// watchAbove is the size above which a parse is watched for cancellation; smaller
// ones finish in milliseconds and are bounded by the deadline alone.
const watchAbove = 64 << 10

// Parse parses src with grammar g and returns the Go copy of its tree. It stops
// when ctx is done, with an error wrapping lang.ErrTimeout and ctx's error.
func (g *Grammar) Parse(ctx context.Context, src []byte) (*Node, error) {
	g.names()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", lang.ErrTimeout, err)
	}
	var timeout C.uint64_t
	if dl, ok := ctx.Deadline(); ok {
		us := time.Until(dl).Microseconds()
		if us <= 0 {
			return nil, fmt.Errorf("%w: %w", lang.ErrTimeout, context.DeadlineExceeded)
		}
		timeout = C.uint64_t(us)
	}
	flag := (*C.size_t)(C.calloc(1, C.size_t(unsafe.Sizeof(C.size_t(0)))))
	if ctx.Done() != nil && len(src) > watchAbove {
		// cancel the parse when ctx is done; the flag is freed only after the
		// watcher has stopped, so it never writes to freed memory
		done := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case <-ctx.Done():
				atomic.StoreUintptr((*uintptr)(unsafe.Pointer(flag)), 1)
			case <-done:
			}
		}()
		defer func() {
			close(done)
			wg.Wait()
			C.free(unsafe.Pointer(flag))
		}()
	} else {
		defer C.free(unsafe.Pointer(flag))
	}
	var csrc *C.char
	if len(src) > 0 {
		csrc = (*C.char)(C.CBytes(src))
		defer C.free(unsafe.Pointer(csrc))
	}
	var count C.uint32_t
	recs := C.sccg_parse(g.lang, csrc, C.uint32_t(len(src)), timeout, flag, &count)
	if recs == nil {
		err := ctx.Err()
		if err == nil {
			err = context.DeadlineExceeded
		}
		return nil, fmt.Errorf("%w: %w", lang.ErrTimeout, err)
	}
	defer C.free(unsafe.Pointer(recs))
	return g.buildTree(unsafe.Slice(recs, int(count))), nil
}

// buildTree turns the flat preorder records into linked nodes, allocated in two
// slabs.
func (g *Grammar) buildTree(recs []C.sccg_rec) *Node {
	n := len(recs)
	nodes := make([]Node, n)
	counts := make([]int32, n)
	for i := 1; i < n; i++ {
		counts[recs[i].parent]++
	}
	kids := make([]*Node, n)
	off := 0
	for i := range nodes {
		r := &recs[i]
		nd := &nodes[i]
		sym := int(r.sym)
		if sym < len(g.syms) {
			nd.Type = g.syms[sym]
		}
		if r.flags&C.SCCG_ERROR != 0 {
			nd.Type = "ERROR"
		}
		if f := int(r.field); f > 0 && f < len(g.fields) {
			nd.Field = g.fields[f]
		}
		nd.Start, nd.End = uint32(r.start), uint32(r.end)
		nd.Row, nd.Col, nd.EndRow = int(r.row), int(r.col), int(r.end_row)
		nd.Named = r.flags&C.SCCG_NAMED != 0
		nd.Missing = r.flags&C.SCCG_MISSING != 0
		nd.Children = kids[off : off : off+int(counts[i])]
		off += int(counts[i])
		if r.parent >= 0 {
			p := &nodes[r.parent]
			nd.Parent = p
			p.Children = append(p.Children, nd)
		}
	}
	return &nodes[0]
}

// ToLang copies the tree under n into lang.Nodes allocated in one slab.
func (n *Node) ToLang() *lang.Node {
	count := 0
	n.Walk(func(*Node) bool { count++; return true })
	slab := make([]lang.Node, 0, count)
	var cp func(m *Node, parent *lang.Node) *lang.Node
	cp = func(m *Node, parent *lang.Node) *lang.Node {
		slab = append(slab, lang.Node{Kind: m.Type, Field: m.Field, Start: int(m.Start), End: int(m.End),
			Named: m.Named, Missing: m.Missing, Parent: parent})
		out := &slab[len(slab)-1]
		if len(m.Children) > 0 {
			out.Children = make([]*lang.Node, len(m.Children))
			for i, c := range m.Children {
				out.Children[i] = cp(c, out)
			}
		}
		return out
	}
	return cp(n, nil)
}
