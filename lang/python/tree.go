package python

/*
typedef struct TSLanguage TSLanguage;
const TSLanguage *tree_sitter_python(void);
*/
import "C"

import (
	"context"
	"sccg/lang"
	"sccg/lang/internal/tstree"
	"unsafe"

	// tree-sitter's Python grammar: its C code is what the declaration above calls.
	_ "github.com/smacker/go-tree-sitter/python"
)

// node is a Go copy of one tree-sitter node, shared with the other frontends.
type node = tstree.Node

// python is tree-sitter's Python grammar.
var python = tstree.NewGrammar(unsafe.Pointer(C.tree_sitter_python()))

// errParseTimeout is returned when tree-sitter did not finish in time.
var errParseTimeout = lang.ErrTimeout

// parse parses src as Python and returns the Go copy of its tree. It stops when ctx
// is done.
func parse(ctx context.Context, src []byte) (*node, error) { return python.Parse(ctx, src) }
