package python

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"sccg/lang"
)

// program is an extracted, self-contained program.
type program struct {
	code       string
	pulled     []lang.PulledIn
	unresolved []string
	imports    lang.Imports
	// nodes are the file's statements the code is made of, in order (a class
	// reduced to what a method needs is a reduced copy of its node).
	nodes []*node
	// rewritten is set when the code is not their exact text: a dedented nested
	// function or a reduced class; the tokens are the same.
	rewritten bool
}

// piece is one block of the extracted program.
type piece struct {
	nodes     []*node // the statements of the file it copies (for a reduced class, a reduced copy)
	rewritten bool    // the text is a dedented or reduced form of nodes
	start     uint32
	text      string
	kind      string // import | constant | assignment | function | class | target
	name      string
	row       int
	end       int
}

// assemble builds f's self-contained program: f (or, for a method, its class
// reduced to what f needs), plus the imports and module-level definitions its free
// names refer to, transitively, in source order.
func (x *extractor) assemble(f *fnInfo) *program {
	m := x.m
	src := m.src
	var roots []*node
	var target *piece
	var extra []lang.PulledIn
	closure := map[string]bool{}
	for g := f.parent; g != nil; g = g.parent {
		for n := range g.locals {
			closure[n] = true
		}
		for _, p := range g.params {
			closure[p.name] = true
		}
	}
	switch {
	case f.class != nil && f.class.top && f.parent == nil:
		ci := f.class
		members := x.classMembers(ci, f)
		header := classHeader(ci, src)
		var b strings.Builder
		b.WriteString(header)
		for i, mem := range members {
			if i > 0 {
				b.WriteString("\n")
			}
			b.WriteString("\n")
			b.WriteString(mem.LineText(src))
			if mem != f.outer {
				extra = append(extra, lang.PulledIn{Name: ci.name + "." + memberName(mem, src), Kind: memberKind(mem), StartLine: mem.Row + 1, EndLine: mem.EndRow + 1})
			}
		}
		extra = append(extra, lang.PulledIn{Name: ci.name, Kind: "class", StartLine: ci.outer.Row + 1, EndLine: ci.def.Child("body").Row})
		target = &piece{start: ci.outer.Start, text: b.String(), kind: "target", row: ci.outer.Row, end: ci.outer.EndRow,
			nodes: []*node{reducedClass(ci, members)}, rewritten: true}
		roots = append(roots, members...)
		if sup := ci.def.Child("superclasses"); sup != nil {
			roots = append(roots, sup)
		}
		for _, c := range ci.outer.Children {
			if c.Type == "decorator" {
				roots = append(roots, c)
			}
		}
	case f.topLevel:
		target = &piece{start: f.outer.Start, text: f.outer.LineText(src), kind: "target", row: f.outer.Row, end: f.outer.EndRow,
			nodes: []*node{f.outer}}
		roots = []*node{f.outer}
	default:
		target = &piece{start: f.outer.Start, text: lang.Dedent(f.outer.LineText(src), f.outer.Col), kind: "target", row: f.outer.Row, end: f.outer.EndRow,
			nodes: []*node{f.outer}, rewritten: true}
		roots = []*node{f.outer}
	}
	p := x.build(roots, target, closure)
	p.pulled = append(p.pulled, extra...)
	sort.SliceStable(p.pulled, func(i, j int) bool { return p.pulled[i].StartLine < p.pulled[j].StartLine })
	return p
}

// assembleRoots builds a program from top-level statements (script code).
func (x *extractor) assembleRoots(stmts []*node, closure map[string]bool) *program {
	var b strings.Builder
	for i, st := range stmts {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(st.LineText(x.m.src))
	}
	target := &piece{start: stmts[0].Start, text: b.String(), kind: "target", row: stmts[0].Row, nodes: stmts}
	return x.build(stmts, target, closure)
}

// classMembers picks the members of f's class that f needs: class-level
// statements, __init__, f, and the methods reached through self.name, transitively.
func (x *extractor) classMembers(ci *classInfo, f *fnInfo) []*node {
	src := x.m.src
	body := ci.def.Child("body")
	want := map[string]bool{f.name: true, "__init__": true}
	byName := x.m.members[ci]
	if byName == nil {
		byName = map[string]*node{}
		for _, st := range body.Children {
			d := st
			if st.Type == "decorated_definition" {
				d = st.Child("definition")
			}
			if d != nil && d.Type == "function_definition" && d.Child("name") != nil {
				byName[d.Child("name").Text(src)] = st
			}
		}
		x.m.members[ci] = byName
	}
	var members []*node
	queue := []string{f.name, "__init__"}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		st, ok := byName[name]
		if !ok {
			continue
		}
		st.Walk(func(n *node) bool {
			if n.Type == "attribute" {
				o := n.Child("object")
				if o.Type == "identifier" && (o.Text(src) == "self" || o.Text(src) == "cls") {
					a := n.Child("attribute").Text(src)
					if _, ok := byName[a]; ok && !want[a] {
						want[a] = true
						queue = append(queue, a)
					}
				}
			}
			return true
		})
	}
	for _, st := range body.Children {
		switch st.Type {
		case "comment", "pass_statement":
			continue
		case "expression_statement":
			if isDocstring(st) {
				continue
			}
			members = append(members, st)
		case "function_definition", "decorated_definition":
			d := st
			if st.Type == "decorated_definition" {
				d = st.Child("definition")
			}
			if d != nil && d.Type == "function_definition" && want[d.Child("name").Text(src)] {
				members = append(members, st)
			} else if d != nil && d.Type == "class_definition" {
				members = append(members, st)
			}
		default:
			if st.Named {
				members = append(members, st)
			}
		}
	}
	return members
}

// reducedClass returns a copy of a class's node whose body holds only members,
// for checking and hashing the reduced class without parsing it again.
func reducedClass(ci *classInfo, members []*node) *node {
	def := *ci.def
	def.Children = nil
	for _, c := range ci.def.Children {
		if c.Field == "body" {
			body := *c
			body.Children = members
			c = &body
		}
		def.Children = append(def.Children, c)
	}
	if ci.outer == ci.def {
		return &def
	}
	outer := *ci.outer
	outer.Children = nil
	for _, c := range ci.outer.Children {
		if c == ci.def {
			c = &def
		}
		outer.Children = append(outer.Children, c)
	}
	return &outer
}

func classHeader(ci *classInfo, src []byte) string {
	body := ci.def.Child("body")
	start := ci.outer.Start
	for start > 0 && src[start-1] != '\n' {
		start--
	}
	h := strings.TrimRight(string(src[start:body.Start]), " \t\r\n")
	return h
}

func memberName(st *node, src []byte) string {
	d := st
	if st.Type == "decorated_definition" {
		d = st.Child("definition")
	}
	if d != nil {
		if nm := d.Child("name"); nm != nil {
			return nm.Text(src)
		}
	}
	if st.Type == "expression_statement" {
		if k := st.NamedKids(); len(k) == 1 && k[0].Type == "assignment" {
			return k[0].Child("left").Text(src)
		}
	}
	return st.Type
}

func memberKind(st *node) string {
	d := st
	if st.Type == "decorated_definition" {
		d = st.Child("definition")
	}
	switch {
	case d != nil && d.Type == "function_definition":
		return "method"
	case d != nil && d.Type == "class_definition":
		return "class"
	}
	return "class_attribute"
}

// build resolves the free names of roots against the module, transitively, and
// joins the target with what it pulled in, in source order.
func (x *extractor) build(roots []*node, target *piece, closure map[string]bool) *program {
	m := x.m
	src := m.src
	pieces := map[*node]*piece{}
	var unresolved []string
	unres := map[string]bool{}
	done := map[string]bool{}
	var queue []string
	for _, r := range roots {
		queue = append(queue, freeNames(r, src)...)
	}
	starsUsed := false
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if done[name] {
			continue
		}
		done[name] = true
		if closure[name] {
			if !unres[name] {
				unres[name] = true
				unresolved = append(unresolved, name)
			}
			continue
		}
		bs := m.bindings[name]
		if len(bs) == 0 {
			if builtinNames[name] {
				continue
			}
			if !unres[name] {
				unres[name] = true
				unresolved = append(unresolved, name)
			}
			if len(m.stars) > 0 {
				starsUsed = true
			}
			continue
		}
		for _, b := range bs {
			if _, ok := pieces[b.stmt]; ok || (target != nil && b.stmt.Start == target.start) {
				continue
			}
			if isTargetStmt(b.stmt, roots) {
				continue
			}
			kind := b.kind
			if kind == "assignment" && isConstantName(name) {
				kind = "constant"
			}
			pieces[b.stmt] = &piece{start: b.stmt.Start, text: b.stmt.LineText(src), kind: kind, name: name, row: b.stmt.Row, end: b.stmt.EndRow,
				nodes: []*node{b.stmt}}
			if b.kind != "import" {
				queue = append(queue, freeNames(b.stmt, src)...)
			} else if b.stmt.Type != "import_statement" && b.stmt.Type != "import_from_statement" {
				queue = append(queue, freeNames(b.stmt, src)...)
			}
		}
	}
	if starsUsed {
		for _, st := range m.stars {
			if _, ok := pieces[st]; !ok {
				pieces[st] = &piece{start: st.Start, text: st.LineText(src), kind: "import", row: st.Row, end: st.EndRow, nodes: []*node{st}}
			}
		}
	}
	all := []*piece{target}
	for _, p := range pieces {
		all = append(all, p)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].start < all[j].start })
	var b strings.Builder
	var pulled []lang.PulledIn
	imports := lang.Imports{}
	mods := map[string]string{}
	for i, p := range all {
		if i > 0 {
			prev := all[i-1]
			if isBlock(prev.kind) || isBlock(p.kind) {
				b.WriteString("\n\n\n")
			} else if prev.kind != p.kind {
				b.WriteString("\n\n")
			} else {
				b.WriteString("\n")
			}
		}
		b.WriteString(strings.TrimRight(p.text, " \t\r\n"))
		if p.kind != "import" && p.kind != "target" {
			pulled = append(pulled, lang.PulledIn{Name: p.name, Kind: p.kind, StartLine: p.row + 1, EndLine: p.end + 1})
		}
	}
	b.WriteString("\n")
	// imports: every import statement that ended up in the program, including
	// those inside function bodies
	code := b.String()
	for _, p := range all {
		x.importsIn(p, mods)
	}
	for _, r := range roots {
		r.Walk(func(n *node) bool {
			if n.Type == "import_statement" || n.Type == "import_from_statement" {
				for _, bd := range m.importBindings(n) {
					mods[bd.path] = x.classify(bd.path)
				}
				return false
			}
			return true
		})
	}
	set := map[string]map[string]bool{"stdlib": {}, "third_party": {}, "local": {}}
	for path, kind := range mods {
		top := strings.Split(path, ".")[0]
		if strings.HasPrefix(path, ".") {
			top = path
			if i := strings.LastIndex(path, "."); i > 0 {
				top = path[:i]
			}
		}
		if top == "__future__" {
			continue
		}
		set[kind][top] = true
	}
	imports.Stdlib = slices.Sorted(maps.Keys(set["stdlib"]))
	imports.ThirdParty = slices.Sorted(maps.Keys(set["third_party"]))
	imports.Local = slices.Sorted(maps.Keys(set["local"]))
	prog := &program{code: code, pulled: pulled, unresolved: unresolved, imports: imports}
	for _, p := range all {
		if p.nodes == nil {
			prog.nodes = nil
			break
		}
		prog.nodes = append(prog.nodes, p.nodes...)
		prog.rewritten = prog.rewritten || p.rewritten
	}
	return prog
}

func (x *extractor) importsIn(p *piece, mods map[string]string) {
	if p.kind != "import" {
		return
	}
	for _, bs := range x.m.bindings {
		for _, b := range bs {
			if b.kind == "import" && b.stmt.Start == p.start {
				mods[b.path] = x.classify(b.path)
			}
		}
	}
	for _, st := range x.m.stars {
		if st.Start == p.start {
			if mn := st.Child("module_name"); mn != nil {
				path := mn.Text(x.m.src)
				mods[path] = x.classify(path)
			}
		}
	}
}

func isTargetStmt(st *node, roots []*node) bool {
	for _, r := range roots {
		if r == st || (r.Start >= st.Start && r.End <= st.End && st.Type != "if_statement" && st.Type != "try_statement") {
			return true
		}
	}
	return false
}

func isBlock(kind string) bool { return kind == "function" || kind == "class" || kind == "target" }

func isConstantName(name string) bool {
	return strings.ToUpper(name) == name && strings.ToLower(name) != name
}

// classify says where an imported module comes from: the standard library, the
// repository itself (a relative import, or a module of the repository's own files,
// Options.LocalModules), or a third-party package.
func (x *extractor) classify(path string) string {
	if strings.HasPrefix(path, ".") {
		return "local"
	}
	top := strings.Split(path, ".")[0]
	switch {
	case isStdlib(top):
		return "stdlib"
	case slices.Contains(x.opts.LocalModules, top):
		return "local"
	}
	return "third_party"
}

// freeNames lists, in order of first use, the names n reads that n itself does
// not bind (parameters, assignments, loop and with targets, imports, definitions).
func freeNames(n *node, src []byte) []string {
	bound := map[string]bool{}
	var refs []string
	seen := map[string]bool{}
	ref := func(name string) {
		if !seen[name] {
			seen[name] = true
			refs = append(refs, name)
		}
	}
	bindTargets := func(t *node) {
		for _, nm := range targetNames(t, src) {
			bound[nm] = true
		}
	}
	var visit func(n *node)
	visit = func(n *node) {
		switch n.Type {
		case "comment":
			return
		case "identifier":
			ref(n.Text(src))
			return
		case "attribute":
			if o := n.Child("object"); o != nil {
				visit(o)
			}
			return
		case "keyword_argument":
			if v := n.Child("value"); v != nil {
				visit(v)
			}
			return
		case "parameters", "lambda_parameters":
			for _, p := range n.NamedKids() {
				switch p.Type {
				case "identifier":
					bound[p.Text(src)] = true
				case "default_parameter", "typed_default_parameter":
					if nm := p.Child("name"); nm != nil {
						bound[nm.Text(src)] = true
					}
					if v := p.Child("value"); v != nil {
						visit(v)
					}
					if t := p.Child("type"); t != nil {
						visit(t)
					}
				case "typed_parameter":
					for _, k := range p.NamedKids() {
						switch k.Type {
						case "identifier":
							bound[k.Text(src)] = true
						case "list_splat_pattern", "dictionary_splat_pattern":
							bound[strings.TrimLeft(k.Text(src), "*")] = true
						case "type":
							visit(k)
						}
					}
				case "list_splat_pattern", "dictionary_splat_pattern":
					bound[strings.TrimLeft(p.Text(src), "*")] = true
				}
			}
			return
		case "function_definition", "class_definition":
			if nm := n.Child("name"); nm != nil {
				bound[nm.Text(src)] = true
			}
			for _, c := range n.Children {
				if c.Field != "name" {
					visit(c)
				}
			}
			return
		case "import_statement", "import_from_statement", "future_import_statement":
			for _, c := range n.Children {
				switch c.Type {
				case "dotted_name":
					if c.Field == "name" || n.Type == "import_statement" {
						bound[strings.Split(c.Text(src), ".")[0]] = true
					}
				case "aliased_import":
					bound[c.Child("alias").Text(src)] = true
				}
			}
			return
		case "global_statement", "nonlocal_statement":
			for _, c := range n.NamedKids() {
				if c.Type == "identifier" {
					ref(c.Text(src))
				}
			}
			return
		case "assignment", "augmented_assignment":
			bindTargets(n.Child("left"))
		case "for_statement", "for_in_clause":
			bindTargets(n.Child("left"))
		case "as_pattern":
			if a := n.Child("alias"); a != nil {
				bindTargets(a)
				if a.Type == "as_pattern_target" {
					for _, k := range a.NamedKids() {
						bindTargets(k)
					}
				}
			}
		case "named_expression":
			if nm := n.Child("name"); nm != nil {
				bound[nm.Text(src)] = true
			}
		case "string":
			for _, c := range n.Children {
				if c.Type == "interpolation" {
					visit(c)
				}
			}
			return
		}
		for _, c := range n.Children {
			visit(c)
		}
	}
	visit(n)
	var out []string
	for _, r := range refs {
		if !bound[r] {
			out = append(out, r)
		}
	}
	return out
}
