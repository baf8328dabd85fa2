package javascript

/*
typedef struct TSLanguage TSLanguage;
const TSLanguage *tree_sitter_javascript(void);
const TSLanguage *tree_sitter_typescript(void);
const TSLanguage *tree_sitter_tsx(void);
*/
import "C"

import (
	"context"
	"sccg/lang"
	"sccg/lang/internal/tstree"
	"unsafe"

	// tree-sitter's JavaScript, TypeScript and TSX grammars: their C code is what
	// the declarations above call.
	_ "github.com/smacker/go-tree-sitter/javascript"
	_ "github.com/smacker/go-tree-sitter/typescript/tsx"
	_ "github.com/smacker/go-tree-sitter/typescript/typescript"
)

// node is a Go copy of one tree-sitter node, shared with the other frontends.
type node = tstree.Node

// grammar is one of the three tree-sitter grammars the package parses with.
type grammar int

const (
	grammarJS grammar = iota
	grammarTS
	grammarTSX
)

// grammarOf picks the grammar of a dialect: JavaScript's also reads JSX.
func grammarOf(d lang.Dialect) grammar {
	switch d {
	case lang.DialectTS:
		return grammarTS
	case lang.DialectTSX:
		return grammarTSX
	}
	return grammarJS
}

var grammars = [...]*tstree.Grammar{
	grammarJS:  tstree.NewGrammar(unsafe.Pointer(C.tree_sitter_javascript())),
	grammarTS:  tstree.NewGrammar(unsafe.Pointer(C.tree_sitter_typescript())),
	grammarTSX: tstree.NewGrammar(unsafe.Pointer(C.tree_sitter_tsx())),
}

// parse parses src with grammar g and returns the Go copy of its tree. It stops
// when ctx is done.
func parse(ctx context.Context, g grammar, src []byte) (*node, error) {
	return grammars[g].Parse(ctx, src)
}
