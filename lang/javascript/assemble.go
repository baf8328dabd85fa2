package javascript

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"sccg/lang"
)

// program is an assembled self-contained program.
type program struct {
	// nodes are the file's statements the program is made of, in order, when it
	// copies them as they are (no method picked out of its class, no nested
	// function dedented): then the file's tree vouches for its syntax and hash.
	nodes      []*node
	code       string
	pulled     []lang.PulledIn
	unresolved []string
	imports    lang.Imports
}

// piece is one block of the extracted program.
type piece struct {
	start uint32
	text  string
	kind  string // import | constant | assignment | function | class | type | target
	name  string
	row   int
	end   int
	node  *node
}

// assemble builds f's self-contained program: f (a method: its class reduced to
// what f needs), plus the imports and module-level definitions its free names
// refer to, transitively, in source order.
func (x *extractor) assemble(f *fnInfo) *program {
	src := x.m.src
	closure := map[string]*fnInfo{} // a name bound in an enclosing function → the nearest one
	for g := f.parent; g != nil; g = g.parent {
		for n := range g.locals {
			if closure[n] == nil {
				closure[n] = g
			}
		}
		for _, p := range g.params {
			if closure[p.name] == nil {
				closure[p.name] = g
			}
		}
	}
	var extra []lang.PulledIn
	var target *piece
	var roots []*node
	var skip map[*node]bool
	verbatim := false
	switch {
	case f.class != nil && f.class.top && f.parent == nil:
		ci := f.class
		members := x.classMembers(ci, f)
		body := ci.node.Child("body")
		var b strings.Builder
		b.WriteString(strings.TrimRight(lineTextTo(src, ci.outer, body.Start+1), " \t"))
		for _, mem := range members {
			b.WriteString("\n")
			b.WriteString(mem.LineText(src))
			if mem != f.outer {
				extra = append(extra, lang.PulledIn{Name: ci.name + "." + memberName(mem, src), Kind: memberKind(mem),
					StartLine: mem.Row + 1, EndLine: mem.EndRow + 1})
			}
		}
		b.WriteString("\n}")
		extra = append(extra, lang.PulledIn{Name: ci.name, Kind: "class", StartLine: ci.outer.Row + 1, EndLine: body.Row + 1})
		target = &piece{start: ci.outer.Start, text: b.String(), kind: "target", row: ci.outer.Row, end: ci.outer.EndRow, node: ci.outer}
		roots = append(roots, members...)
		for _, c := range ci.node.Children {
			if c.Type == "class_heritage" || c.Type == "decorator" {
				roots = append(roots, c)
			}
		}
		if ci.outer != ci.node {
			// @Injectable() export class …: the decorators stand on the export
			for _, c := range ci.outer.Children {
				if c.Type == "decorator" {
					roots = append(roots, c)
				}
			}
		}
	case objectOf(f) != nil:
		// an object's method: the object reduced to its data and the methods f
		// reaches through this
		text, dropped, kept := x.reducedObject(f)
		if f.stmt.Col > 0 {
			text = lang.Dedent(text, f.stmt.Col)
		}
		target = &piece{start: f.stmt.Start, text: text, kind: "target", row: f.stmt.Row, end: f.stmt.EndRow, node: f.stmt}
		roots = []*node{f.stmt}
		skip = dropped
		for _, k := range kept {
			extra = append(extra, lang.PulledIn{Name: k.qual, Kind: "method", StartLine: k.outer.Row + 1, EndLine: k.outer.EndRow + 1})
		}
	case f.topLevel:
		target = &piece{start: f.stmt.Start, text: f.stmt.LineText(src), kind: "target", row: f.stmt.Row, end: f.stmt.EndRow, node: f.stmt}
		roots = []*node{f.stmt}
		verbatim = f.stmt.Col == 0
	default:
		target = &piece{start: f.stmt.Start, text: lang.Dedent(f.stmt.LineText(src), f.stmt.Col), kind: "target", row: f.stmt.Row,
			end: f.stmt.EndRow, node: f.stmt}
		roots = []*node{f.stmt}
	}
	p := x.build(roots, target, closure, skip)
	if !verbatim {
		p.nodes = nil
	}
	p.pulled = append(p.pulled, extra...)
	sort.SliceStable(p.pulled, func(i, j int) bool { return p.pulled[i].StartLine < p.pulled[j].StartLine })
	return p
}

// lineTextTo is src from the start of n's line to end.
func lineTextTo(src []byte, n *node, end uint32) string {
	start := int(n.Start)
	for start > 0 && src[start-1] != '\n' && (src[start-1] == ' ' || src[start-1] == '\t') {
		start--
	}
	return string(src[start:end])
}

// classMembers picks the members of f's class that f needs: fields, the
// constructor, f, and the methods reached through this.name, transitively.
func (x *extractor) classMembers(ci *classInfo, f *fnInfo) []*node {
	src := x.m.src
	body := ci.node.Child("body")
	byName := map[string]*node{}
	for _, c := range body.NamedKids() {
		if c.Type == "method_definition" {
			if nm := c.Child("name"); nm != nil {
				byName[keyText(nm, src)] = c
			}
		}
	}
	want := map[*node]bool{f.outer: true}
	queue := []*node{f.outer}
	if c, ok := byName["constructor"]; ok {
		want[c] = true
		queue = append(queue, c)
	}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		st.Walk(func(n *node) bool {
			if n.Type == "member_expression" {
				if o := n.Child("object"); o != nil && o.Type == "this" {
					if c, ok := byName[n.Child("property").Text(src)]; ok && !want[c] {
						want[c] = true
						queue = append(queue, c)
					}
				}
			}
			return true
		})
	}
	var out []*node
	var pendingDecorators []*node
	for _, c := range body.Children {
		switch {
		case c.Type == "decorator":
			pendingDecorators = append(pendingDecorators, c)
			continue
		case c.Type == "method_definition" || c.Type == "method_signature" || c.Type == "abstract_method_signature":
			if want[c] {
				out = append(out, pendingDecorators...)
				out = append(out, c)
			}
		case c.Type == "field_definition" || c.Type == "public_field_definition" || c.Type == "class_static_block" ||
			c.Type == "index_signature":
			out = append(out, pendingDecorators...)
			out = append(out, c)
			// a field's terminating semicolon is a sibling
		case c.Type == ";" && len(out) > 0 && out[len(out)-1].End == c.Start:
			out[len(out)-1] = extendTo(out[len(out)-1], c.End)
		}
		pendingDecorators = nil
	}
	return out
}

// extendTo returns a copy of n that ends at end (a field with its semicolon).
func extendTo(n *node, end uint32) *node {
	c := *n
	c.End = end
	return &c
}

func memberName(st *node, src []byte) string {
	if nm := st.Child("name"); nm != nil {
		return keyText(nm, src)
	}
	if nm := st.Child("property"); nm != nil {
		return nm.Text(src)
	}
	return st.Type
}

func memberKind(st *node) string {
	if st.Type == "method_definition" {
		return "method"
	}
	return "class_attribute"
}

// build resolves the free names of roots against the module, transitively, and
// joins the target with what it pulled in, in source order.
//
// A name bound in a function enclosing the target (a React component's
// constants, the variables of a window.onload handler) is resolved to its
// declaration there, copied out of the function (kind "closure"); a parameter of
// the enclosing function stays unresolved.
func (x *extractor) build(roots []*node, target *piece, closure map[string]*fnInfo, skip map[*node]bool) *program {
	m := x.m
	src := m.src
	pieces := map[*node]*piece{}
	var unresolved []string
	unres := map[string]bool{}
	done := map[string]bool{}
	var queue []string
	for _, r := range roots {
		queue = append(queue, freeNamesSkipping(r, src, skip)...)
	}
	inTarget := func(st *node) bool {
		for _, r := range roots {
			if st == r || (r.Start >= st.Start && r.End <= st.End) || (st.Start >= r.Start && st.End <= r.End) {
				return true
			}
		}
		return target.node != nil && st.Start >= target.node.Start && st.End <= target.node.End
	}
	add := func(st *node, kind, name string) {
		if _, ok := pieces[st]; ok || inTarget(st) {
			return
		}
		pieces[st] = &piece{start: st.Start, text: st.LineText(src), kind: kind, name: name, row: st.Row, end: st.EndRow, node: st}
		if kind != "import" {
			queue = append(queue, freeNames(st, src)...)
		}
	}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if done[name] {
			continue
		}
		done[name] = true
		if g := closure[name]; g != nil {
			if st := enclosingDecl(g, name, src); st != nil && !inTarget(st) {
				if _, ok := pieces[st]; !ok {
					pieces[st] = &piece{start: st.Start, text: lang.Dedent(st.LineText(src), st.Col), kind: "closure", name: name,
						row: st.Row, end: st.EndRow, node: st}
					queue = append(queue, freeNames(st, src)...)
				}
				continue
			}
			if !unres[name] {
				unres[name] = true
				unresolved = append(unresolved, name)
			}
			continue
		}
		typeRef := strings.HasPrefix(name, "type:")
		if typeRef {
			name = strings.TrimPrefix(name, "type:")
			if done[name] {
				continue
			}
		}
		bs := m.bindings[name]
		if len(bs) == 0 {
			if jsGlobals[name] || typeRef {
				continue
			}
			if !unres[name] {
				unres[name] = true
				unresolved = append(unresolved, name)
			}
			continue
		}
		for _, b := range bs {
			add(b.stmt, b.kind, name)
		}
		for _, st := range m.mutations[name] {
			if configures(st, src) {
				add(st, "assignment", name)
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
	for i, p := range all {
		if i > 0 {
			prev := all[i-1]
			if prev.kind != p.kind || isBlock(p.kind) || isBlock(prev.kind) || p.kind == "closure" && (isDeclBlock(p.node) || isDeclBlock(prev.node)) {
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
	var nodes []*node
	for _, p := range all {
		if p.node == nil || p.node.Parent != m.root || p.node.Col != 0 {
			nodes = nil
			break
		}
		nodes = append(nodes, p.node)
	}
	// imports: the import statements and requires the program holds
	specs := map[string]bool{}
	for _, p := range all {
		if p.node == nil {
			continue
		}
		for _, s := range importSpecs(p.node, src) {
			specs[s] = true
		}
	}
	for _, r := range roots {
		for _, s := range importSpecs(r, src) {
			specs[s] = true
		}
	}
	set := map[string]map[string]bool{"stdlib": {}, "third_party": {}, "local": {}}
	for s := range specs {
		kind, name := x.classify(s)
		set[kind][name] = true
	}
	imports := lang.Imports{
		Stdlib:     slices.Sorted(maps.Keys(set["stdlib"])),
		ThirdParty: slices.Sorted(maps.Keys(set["third_party"])),
		Local:      slices.Sorted(maps.Keys(set["local"])),
	}
	if imports.Stdlib == nil {
		imports.Stdlib = []string{}
	}
	if imports.ThirdParty == nil {
		imports.ThirdParty = []string{}
	}
	return &program{nodes: nodes, code: b.String(), pulled: pulled, unresolved: unresolved, imports: imports}
}

// enclosingDecl is the statement directly in g's body that declares name — a
// const, let or var declaration, a function or a class — or nil (a parameter, a
// name bound deeper in the body).
func enclosingDecl(g *fnInfo, name string, src []byte) *node {
	body := g.node.Child("body")
	if body == nil || body.Type != "statement_block" {
		return nil
	}
	for _, st := range body.Children {
		switch st.Type {
		case "lexical_declaration", "variable_declaration":
			for _, d := range st.Children {
				if d.Type == "variable_declarator" && bindsIn(d.Child("name"), name, src) {
					return st
				}
			}
		case "function_declaration", "generator_function_declaration", "class_declaration":
			if st.Child("name").Text(src) == name {
				return st
			}
		}
	}
	return nil
}

// bindsIn reports whether a binding target (a name or a destructuring pattern)
// binds name.
func bindsIn(t *node, name string, src []byte) bool {
	found := false
	t.Walk(func(n *node) bool {
		if found {
			return false
		}
		if n.Text(src) == name && (n.Type == "shorthand_property_identifier_pattern" || n.Type == "identifier" && bindsName(n)) {
			found = true
		}
		return true
	})
	return found
}

// configures reports a module-level statement that configures an instance or
// client the program uses: its defaults, interceptors or headers.
func configures(st *node, src []byte) bool {
	t := st.Text(src)
	i := strings.IndexAny(t, "=(")
	if i < 0 {
		return false
	}
	head := t[:i]
	return strings.Contains(head, "defaults") || strings.Contains(head, "interceptors") || strings.Contains(head, "headers") ||
		strings.Contains(head, "searchParams")
}

func isBlock(kind string) bool {
	return kind == "function" || kind == "class" || kind == "target" || kind == "type"
}

// isDeclBlock reports a function or class declaration: set apart by blank lines
// among the constants copied out of an enclosing function.
func isDeclBlock(st *node) bool {
	return st != nil && (st.Type == "function_declaration" || st.Type == "generator_function_declaration" || st.Type == "class_declaration")
}

// importSpecs lists the module specifiers imported or required in n.
func importSpecs(n *node, src []byte) []string {
	var out []string
	n.Walk(func(c *node) bool {
		switch c.Type {
		case "import_statement", "export_statement":
			if s := c.Child("source"); s != nil {
				out = append(out, stringValue(s, src))
			}
			return c.Type == "export_statement"
		case "call_expression":
			fn := c.Child("function")
			if fn != nil && (fn.Type == "import" || fn.Type == "identifier" && fn.Text(src) == "require") {
				if a := positional(c); len(a) == 1 && a[0].Type == "string" {
					out = append(out, stringValue(a[0], src))
				}
			}
		}
		return true
	})
	return out
}

// classify says where an imported module comes from: Node's built-ins, the
// repository itself (a relative specifier, or a path or alias that names one of
// its files), or an npm package, and the name it is listed under.
func (x *extractor) classify(spec string) (kind, name string) {
	switch {
	case strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "/"):
		return "local", spec
	case IsBuiltin(spec):
		return "stdlib", strings.TrimPrefix(packageName(spec), "node:")
	case repoHas(x.opts.Path, x.opts.RepoPaths, spec):
		return "local", spec
	}
	return "third_party", packageName(spec)
}

// freeNames lists, in order of first use, the names n reads that n itself does
// not bind (parameters, declarations, function and class names, catch and loop
// variables, imports). Type names are listed too, as "type:Name", so the type
// declarations they name are pulled in; a type with none is never unresolved.
func freeNames(n *node, src []byte) []string { return freeNamesSkipping(n, src, nil) }

// freeNamesSkipping is freeNames leaving out the subtrees in skip.
func freeNamesSkipping(n *node, src []byte, skip map[*node]bool) []string {
	bound := map[string]bool{}
	var refs []string
	seen := map[string]bool{}
	n.Walk(func(c *node) bool {
		if skip[c] {
			return false
		}
		switch c.Type {
		case "comment", "html_comment", "string", "regex", "property_identifier", "statement_identifier":
			return c.Type != "comment" && c.Type != "html_comment" && c.Type != "regex" && c.Type != "string"
		case "type_identifier":
			if c.Field == "name" && c.Parent != nil && c.Parent.Type != "generic_type" {
				return false // the name of a class, interface or type being declared
			}
			name := "type:" + c.Text(src)
			if !seen[name] {
				seen[name] = true
				refs = append(refs, name)
			}
			return false
		case "identifier", "shorthand_property_identifier":
			name := c.Text(src)
			if c.Type == "identifier" && bindsName(c) {
				bound[name] = true
				return false
			}
			if c.Type == "identifier" && c.Parent != nil && jsxName(c.Parent) && name != "" && name[0] >= 'a' && name[0] <= 'z' {
				return false // an intrinsic element: <div>
			}
			if !seen[name] {
				seen[name] = true
				refs = append(refs, name)
			}
			return false
		case "shorthand_property_identifier_pattern":
			bound[c.Text(src)] = true
			return false
		case "type_parameter":
			if nm := c.Child("name"); nm != nil {
				bound[nm.Text(src)] = true
			}
		}
		return true
	})
	var out []string
	for _, r := range refs {
		if !bound[strings.TrimPrefix(r, "type:")] {
			out = append(out, r)
		}
	}
	return out
}

func jsxName(p *node) bool {
	switch p.Type {
	case "jsx_opening_element", "jsx_closing_element", "jsx_self_closing_element":
		return true
	}
	return false
}

// bindsName reports an identifier in a binding position.
func bindsName(id *node) bool {
	p := id.Parent
	if p == nil {
		return false
	}
	switch p.Type {
	case "variable_declarator":
		return id.Field == "name"
	case "formal_parameters", "rest_pattern", "array_pattern", "import_clause", "namespace_import":
		return true
	case "required_parameter", "optional_parameter":
		return id.Field == "pattern"
	case "assignment_pattern", "object_assignment_pattern":
		return id.Field == "left" && inPattern(p)
	case "pair_pattern":
		return id.Field == "value"
	case "function_declaration", "function_expression", "function", "generator_function_declaration",
		"generator_function", "class_declaration", "class", "abstract_class_declaration":
		return id.Field == "name"
	case "catch_clause":
		return id.Field == "parameter"
	case "arrow_function":
		return id.Field == "parameter"
	case "import_specifier":
		return id.Field == "alias" || p.Child("alias") == nil
	case "for_in_statement":
		return id.Field == "left" && p.Child("kind") != nil
	}
	return false
}

func inPattern(p *node) bool {
	for q := p.Parent; q != nil; q = q.Parent {
		switch q.Type {
		case "formal_parameters", "object_pattern", "array_pattern", "variable_declarator":
			return true
		case "expression_statement", "statement_block", "program":
			return false
		}
	}
	return false
}

// objectMethods are the named functions that are members of object literals
// inside the statement st.
func (x *extractor) objectMethods(st *node) []*fnInfo {
	var out []*fnInfo
	for _, g := range x.m.funcs {
		if g.named && g.stmt == st && objectOf(g) != nil {
			out = append(out, g)
		}
	}
	return out
}

// keptMembers are the object functions kept beside the target: state
// initialisers (data, setup) and what the target reaches through this.name.
var keptMembers = map[string]bool{"data": true, "setup": true}

// reducedObject returns the text of f's statement with the other methods of its
// object literals left out, except those f reaches through this.name
// (transitively) and the state initialisers; the left-out members' nodes; and
// the kept ones besides f.
func (x *extractor) reducedObject(f *fnInfo) (string, map[*node]bool, []*fnInfo) {
	src := x.m.src
	all := x.objectMethods(f.stmt)
	byName := map[string][]*fnInfo{}
	for _, g := range all {
		byName[g.name] = append(byName[g.name], g)
	}
	want := map[*fnInfo]bool{f: true}
	queue := []*fnInfo{f}
	for _, g := range all {
		if keptMembers[g.name] && objectOf(g) == objectOf(f) || keptMembers[g.name] && within(objectOf(g), objectOf(f)) {
			if !want[g] {
				want[g] = true
				queue = append(queue, g)
			}
		}
	}
	for len(queue) > 0 {
		g := queue[0]
		queue = queue[1:]
		g.outer.Walk(func(n *node) bool {
			if n.Type == "member_expression" {
				if o := n.Child("object"); o != nil && o.Type == "this" {
					for _, h := range byName[n.Child("property").Text(src)] {
						if !want[h] {
							want[h] = true
							queue = append(queue, h)
						}
					}
				}
			}
			return true
		})
	}
	dropped := map[*node]bool{}
	var kept []*fnInfo
	type cut struct{ start, end int }
	var cuts []cut
	for _, g := range all {
		if want[g] {
			if g != f {
				kept = append(kept, g)
			}
			continue
		}
		if within(g.outer, f.outer) && g.outer.Start <= f.outer.Start && f.outer.End <= g.outer.End {
			continue // f is inside g's object value
		}
		dropped[g.outer] = true
		cuts = append(cuts, cut{int(g.outer.Start), int(g.outer.End)})
	}
	base := lineStart(src, int(f.stmt.Start))
	if strings.TrimSpace(string(src[base:f.stmt.Start])) != "" {
		base = int(f.stmt.Start) // other code before it on its line
	}
	text := src[base:f.stmt.End]
	var b strings.Builder
	pos := 0
	sort.Slice(cuts, func(i, j int) bool { return cuts[i].start < cuts[j].start })
	for _, c := range cuts {
		s, e := c.start-base, c.end-base
		if s < pos {
			continue
		}
		// the member's comma, then its whole lines when it stands on lines of its own
		for e < len(text) && (text[e] == ' ' || text[e] == '\t') {
			e++
		}
		if e < len(text) && text[e] == ',' {
			e++
		}
		ls := s
		for ls > 0 && (text[ls-1] == ' ' || text[ls-1] == '\t') {
			ls--
		}
		le := e
		for le < len(text) && (text[le] == ' ' || text[le] == '\t') {
			le++
		}
		if (ls == 0 || text[ls-1] == '\n') && le < len(text) && text[le] == '\n' {
			s, e = ls, le+1
			// the comments directly above the member go with it
			for s > 0 {
				prev := strings.LastIndexByte(string(text[:s-1]), '\n') + 1
				line := strings.TrimSpace(string(text[prev : s-1]))
				if !strings.HasPrefix(line, "//") && !(strings.HasPrefix(line, "/*") && strings.HasSuffix(line, "*/")) {
					break
				}
				s = prev
			}
		}
		if s < pos {
			s = pos
		}
		b.Write(text[pos:s])
		pos = e
	}
	b.Write(text[pos:])
	return b.String(), dropped, kept
}

// lineStart is the offset of the start of the line holding offset i.
func lineStart(src []byte, i int) int {
	for i > 0 && src[i-1] != '\n' {
		i--
	}
	return i
}
