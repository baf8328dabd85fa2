package javascript

import (
	"context"
	"regexp"
	"sort"
	"strings"
)

// binding is one module-level definition of a name.
type binding struct {
	name  string
	kind  string // import | constant | assignment | function | class
	stmt  *node  // the top-level statement that defines it (what extraction copies)
	value *node  // assignment: the right-hand side
	path  string // import: the module and member the name stands for ("axios", "undici.request")
}

// assign is one local definition of a name inside a function, in source order.
type assign struct {
	pos   uint32 // where the definition takes effect
	value *node  // right-hand side (nil when unknown: a loop or catch variable)
	aug   string // "+=" for an augmented assignment, else ""
	// state is set on a name bound from a hook's or a reactive store's value
	// (const [url, setUrl] = useState(…); const url = ref(…)): component state,
	// which the code changes as it runs.
	state bool
}

// fnInfo is one function anywhere in the file: a named one (a declaration, a
// function bound to a name, a method) or an anonymous callback.
type fnInfo struct {
	node  *node // function_declaration, function_expression, arrow_function, method_definition, …
	outer *node // what defines it: its statement, method, class field or object pair (Source, lines, comments)
	stmt  *node // what extraction copies: outer, or the statement holding the object outer is a member of
	name  string
	qual  string
	named bool
	// callback names what an anonymous function is passed to ("useEffect",
	// "then", "addEventListener"), "" for a named one.
	callback string
	class    *classInfo // set for methods and class fields
	parent   *fnInfo    // enclosing function (named or not)
	async    bool
	params   []param
	locals   map[string][]assign
	reqs     []*reqSite
	helpers  []helperUse
	topLevel bool // outer is a statement of the program itself
}

// owner is the named function a request made in f belongs to: f itself or its
// nearest named enclosing function; nil at module level.
func (f *fnInfo) owner() *fnInfo {
	for g := f; g != nil; g = g.parent {
		if g.named {
			return g
		}
	}
	return nil
}

// param is one parameter name of a function, with its default value; field is
// set for a name destructured out of an object parameter ({ city } → city).
type param struct {
	name  string
	def   *node
	index int    // position of the parameter it comes from
	field string // key in a destructured object parameter
}

// classInfo is one class.
type classInfo struct {
	node    *node // class_declaration, class, abstract_class_declaration
	outer   *node // the top-level statement holding it
	name    string
	attrs   map[string][]*node // fields and this.x = … in methods
	methods map[string]*fnInfo
	top     bool
}

// helperUse is a call from one function to another of the same file.
type helperUse struct {
	call   *node
	callee *fnInfo
}

// module is the analysis of one file.
type module struct {
	src      []byte
	root     *node
	bindings map[string][]*binding
	funcs    []*fnInfo
	byNode   map[*node]*fnInfo
	classes  []*classInfo
	topFuncs map[string]*fnInfo
	topClass map[string]*classInfo
	objects  map[string]map[string]*fnInfo // module object name → its methods
	comments []*node
	// mutations are top-level statements that configure a module-level name
	// (api.defaults.headers.common[k] = v, api.interceptors.request.use(…)).
	mutations map[string][]*node
	// nested indexes the named functions by the function they are nested in
	// (nil: module level) and name.
	nested  map[*fnInfo]map[string]*fnInfo
	ctx     context.Context
	steps   int
	expired bool
}

// scan walks n like walk, but stops once the file's deadline has passed: the
// scans made per request site are what could grow with a file's size.
func (m *module) scan(n *node, fn func(*node) bool) {
	n.Walk(func(c *node) bool {
		if m.steps++; m.steps&1023 == 0 && m.ctx != nil && m.ctx.Err() != nil {
			m.expired = true
		}
		if m.expired {
			return false
		}
		return fn(c)
	})
}

var functionTypes = map[string]bool{
	"function_declaration": true, "generator_function_declaration": true, "function_expression": true,
	"function": true, "generator_function": true, "arrow_function": true, "method_definition": true,
}

var classTypes = map[string]bool{"class_declaration": true, "class": true, "abstract_class_declaration": true}

func newModule(ctx context.Context, src []byte, root *node) *module {
	m := &module{
		src: src, root: root, ctx: ctx,
		nested:    map[*fnInfo]map[string]*fnInfo{},
		bindings:  map[string][]*binding{},
		byNode:    map[*node]*fnInfo{},
		topFuncs:  map[string]*fnInfo{},
		topClass:  map[string]*classInfo{},
		objects:   map[string]map[string]*fnInfo{},
		mutations: map[string][]*node{},
	}
	for _, st := range root.Children {
		m.bindStatement(st, st)
	}
	m.collect(root, nil, nil, "")
	root.Walk(func(n *node) bool {
		if n.Type == "comment" || n.Type == "html_comment" {
			m.comments = append(m.comments, n)
		}
		return true
	})
	return m
}

// bindStatement records the names a top-level statement defines; top is the
// statement to copy.
func (m *module) bindStatement(st, top *node) {
	src := m.src
	add := func(b *binding) {
		b.stmt = top
		m.bindings[b.name] = append(m.bindings[b.name], b)
	}
	switch st.Type {
	case "import_statement":
		spec := stringValue(st.Child("source"), src)
		for _, b := range importBindings(st, spec, src) {
			add(b)
		}
	case "lexical_declaration", "variable_declaration":
		for _, d := range st.NamedKids() {
			if d.Type != "variable_declarator" {
				continue
			}
			name, val := d.Child("name"), d.Child("value")
			if name == nil {
				continue
			}
			if spec, member, ok := requireOf(val, src); ok {
				for _, b := range patternImports(name, spec, member, src) {
					add(b)
				}
				continue
			}
			if name.Type == "identifier" {
				kind := "assignment"
				if isConstantName(name.Text(src)) {
					kind = "constant"
				}
				add(&binding{name: name.Text(src), kind: kind, value: val})
				continue
			}
			for _, nm := range patternNames(name, src) {
				add(&binding{name: nm, kind: "assignment"})
			}
		}
	case "function_declaration", "generator_function_declaration":
		if nm := st.Child("name"); nm != nil {
			add(&binding{name: nm.Text(src), kind: "function"})
		}
	case "class_declaration", "abstract_class_declaration":
		if nm := st.Child("name"); nm != nil {
			add(&binding{name: nm.Text(src), kind: "class"})
		}
	case "interface_declaration", "type_alias_declaration", "enum_declaration":
		if nm := st.Child("name"); nm != nil {
			add(&binding{name: nm.Text(src), kind: "type"})
		}
	case "export_statement":
		if d := st.Child("declaration"); d != nil {
			m.bindStatement(d, top)
		}
	case "expression_statement":
		for _, e := range st.NamedKids() {
			switch e.Type {
			case "assignment_expression":
				l := e.Child("left")
				if l != nil && l.Type == "identifier" {
					add(&binding{name: l.Text(src), kind: "assignment", value: e.Child("right")})
				} else if base := baseName(l, src); base != "" && base != "module" && base != "exports" && base != "window" {
					m.mutations[base] = append(m.mutations[base], top)
				}
			case "call_expression":
				if fn := e.Child("function"); fn != nil && fn.Type == "member_expression" {
					if base := baseName(fn.Child("object"), src); base != "" {
						m.mutations[base] = append(m.mutations[base], top)
					}
				}
			}
		}
	}
}

// baseName is the identifier a member chain starts from (api in
// api.defaults.headers.common["k"]), "" when it starts elsewhere.
func baseName(n *node, src []byte) string {
	for n != nil {
		switch n.Type {
		case "identifier":
			return n.Text(src)
		case "member_expression", "subscript_expression":
			n = n.Child("object")
		default:
			return ""
		}
	}
	return ""
}

// importBindings returns the names an import statement binds: the default import
// stands for the module, a named one for module.name.
func importBindings(st *node, spec string, src []byte) []*binding {
	var out []*binding
	clause := firstOfType(st, "import_clause")
	if clause == nil {
		return nil
	}
	for _, c := range clause.NamedKids() {
		switch c.Type {
		case "identifier":
			out = append(out, &binding{name: c.Text(src), kind: "import", path: spec})
		case "namespace_import":
			if id := firstOfType(c, "identifier"); id != nil {
				out = append(out, &binding{name: id.Text(src), kind: "import", path: spec})
			}
		case "named_imports":
			for _, s := range c.NamedKids() {
				if s.Type != "import_specifier" {
					continue
				}
				name := s.Child("name")
				alias := s.Child("alias")
				if alias == nil {
					alias = name
				}
				if name == nil {
					continue
				}
				member := strings.Trim(name.Text(src), `"'`)
				path := spec + "." + member
				if member == "default" {
					path = spec
				}
				out = append(out, &binding{name: alias.Text(src), kind: "import", path: path})
			}
		}
	}
	return out
}

// requireOf recognises require("spec") and require("spec").member as a value.
func requireOf(n *node, src []byte) (spec, member string, ok bool) {
	n = unwrap(n)
	if n == nil {
		return "", "", false
	}
	if n.Type == "member_expression" {
		if s, mem, ok := requireOf(n.Child("object"), src); ok && mem == "" {
			p := n.Child("property").Text(src)
			if p == "default" {
				return s, "", true
			}
			return s, p, true
		}
		return "", "", false
	}
	if n.Type != "call_expression" {
		return "", "", false
	}
	fn := n.Child("function")
	if fn == nil || fn.Type != "identifier" || fn.Text(src) != "require" {
		return "", "", false
	}
	args := n.Child("arguments")
	if args == nil {
		return "", "", false
	}
	k := args.NamedKids()
	if len(k) == 0 || k[0].Type != "string" {
		return "", "", false
	}
	return stringValue(k[0], src), "", true
}

// patternImports binds the names of a require's target: a name, or the names of
// an object pattern ({ request } = require("undici")).
func patternImports(pat *node, spec, member string, src []byte) []*binding {
	base := spec
	if member != "" {
		base = spec + "." + member
	}
	switch pat.Type {
	case "identifier":
		return []*binding{{name: pat.Text(src), kind: "import", path: base}}
	case "object_pattern":
		var out []*binding
		for _, c := range pat.NamedKids() {
			switch c.Type {
			case "shorthand_property_identifier_pattern":
				out = append(out, &binding{name: c.Text(src), kind: "import", path: spec + "." + c.Text(src)})
			case "pair_pattern":
				k, v := c.Child("key"), c.Child("value")
				if k != nil && v != nil && v.Type == "identifier" {
					out = append(out, &binding{name: v.Text(src), kind: "import", path: spec + "." + strings.Trim(k.Text(src), `"'`)})
				}
			case "object_assignment_pattern":
				if l := c.Child("left"); l != nil {
					out = append(out, &binding{name: l.Text(src), kind: "import", path: spec + "." + l.Text(src)})
				}
			}
		}
		return out
	}
	var out []*binding
	for _, nm := range patternNames(pat, src) {
		out = append(out, &binding{name: nm, kind: "import", path: base})
	}
	return out
}

// patternNames lists the names a binding pattern binds.
func patternNames(p *node, src []byte) []string {
	if p == nil {
		return nil
	}
	switch p.Type {
	case "identifier", "shorthand_property_identifier_pattern":
		return []string{p.Text(src)}
	case "object_pattern", "array_pattern", "rest_pattern":
		var out []string
		for _, c := range p.NamedKids() {
			out = append(out, patternNames(c, src)...)
		}
		return out
	case "pair_pattern":
		return patternNames(p.Child("value"), src)
	case "assignment_pattern", "object_assignment_pattern":
		return patternNames(p.Child("left"), src)
	case "required_parameter", "optional_parameter":
		return patternNames(p.Child("pattern"), src)
	}
	return nil
}

func firstOfType(n *node, typ string) *node {
	for _, c := range n.Children {
		if c.Type == typ {
			return c
		}
	}
	return nil
}

// unwrap looks through parentheses, await and TypeScript's type assertions.
func unwrap(n *node) *node {
	for n != nil {
		switch n.Type {
		case "parenthesized_expression", "await_expression", "as_expression", "non_null_expression",
			"satisfies_expression", "type_assertion":
			k := n.NamedKids()
			if len(k) == 0 {
				return n
			}
			n = k[0]
			if n.Type == "type_arguments" && len(k) > 1 { // <T>x
				n = k[1]
			}
		default:
			return n
		}
	}
	return nil
}

// stringValue returns the text of a plain string literal, escapes decoded.
func stringValue(n *node, src []byte) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range n.Children {
		switch c.Type {
		case "string_fragment":
			b.WriteString(c.Text(src))
		case "escape_sequence":
			b.WriteString(unescape(c.Text(src)))
		}
	}
	return b.String()
}

func isConstantName(name string) bool {
	return strings.ToUpper(name) == name && strings.ToLower(name) != name
}

// collect finds every function and class, recording nesting and how each is
// named. cls is the class whose body n is, fn the enclosing function, path the
// object-literal keys leading to n ("api", "methods").
func (m *module) collect(n *node, cls *classInfo, fn *fnInfo, path string) {
	for _, c := range n.Children {
		switch {
		case functionTypes[c.Type]:
			f := m.newFunc(c, cls, fn, path)
			m.collect(c, nil, f, "")
			continue
		case classTypes[c.Type]:
			ci := m.newClass(c, fn)
			m.collect(c, ci, fn, "")
			continue
		case c.Type == "field_definition" || c.Type == "public_field_definition":
			m.collect(c, cls, fn, path)
			continue
		case c.Type == "class_body":
			m.collect(c, cls, fn, path)
			continue
		}
		m.collect(c, nil, fn, objectPath(c, path, m.src))
	}
}

// objectPath extends the object-literal path when n is an object bound to a name
// or a pair's value.
func objectPath(n *node, path string, src []byte) string {
	switch n.Type {
	case "variable_declarator":
		if nm := n.Child("name"); nm != nil && nm.Type == "identifier" {
			return nm.Text(src)
		}
	case "pair":
		if k := n.Child("key"); k != nil {
			return joinQual(path, keyText(k, src))
		}
	case "assignment_expression":
		return assignedName(n.Child("left"), src)
	case "export_statement":
		return ""
	}
	return path
}

func joinQual(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + "." + b
}

// keyText is the name of a pair or method key.
func keyText(k *node, src []byte) string {
	switch k.Type {
	case "string":
		return stringValue(k, src)
	case "computed_property_name":
		return ""
	}
	return k.Text(src)
}

// assignedName names the target of an assignment to a function: module.exports.x
// and exports.x are x, Foo.prototype.bar is Foo.bar, this.x is x.
func assignedName(l *node, src []byte) string {
	if l == nil {
		return ""
	}
	t := strings.Join(strings.Fields(l.Text(src)), "")
	for _, p := range []string{"module.exports.", "exports.", "this.", "window.", "globalThis."} {
		t = strings.TrimPrefix(t, p)
	}
	if t == "module.exports" || t == "exports" {
		return ""
	}
	t = strings.ReplaceAll(t, ".prototype.", ".")
	if strings.ContainsAny(t, "[]()'\"` ") {
		return ""
	}
	return t
}

func (m *module) newFunc(n *node, cls *classInfo, parent *fnInfo, path string) *fnInfo {
	src := m.src
	f := &fnInfo{node: n, outer: n, parent: parent, locals: map[string][]assign{}}
	for _, c := range n.Children {
		if c.Type == "async" {
			f.async = true
		}
	}
	p := n.Parent
	switch {
	case n.Type == "function_declaration" || n.Type == "generator_function_declaration":
		f.name, f.named = n.Child("name").Text(src), true
	case n.Type == "method_definition":
		f.name, f.named = keyText(n.Child("name"), src), true
		if cls != nil {
			f.class = cls
			f.qual = cls.name + "." + f.name
		} else {
			f.qual = joinQual(path, f.name)
		}
	case p != nil && p.Type == "variable_declarator" && n.Field == "value" && p.Child("name") != nil && p.Child("name").Type == "identifier":
		f.name, f.named = p.Child("name").Text(src), true
	case p != nil && p.Type == "assignment_expression" && n.Field == "right":
		if nm := assignedName(p.Child("left"), src); nm != "" {
			f.named = true
			f.qual = nm
			f.name = nm[strings.LastIndex(nm, ".")+1:]
		}
	case p != nil && p.Type == "pair" && n.Field == "value":
		if k := keyText(p.Child("key"), src); k != "" {
			// collect has already extended path with the pair's key
			f.name, f.named = k, true
			f.qual = path
			if f.qual == "" {
				f.qual = k
			}
			f.outer = p
		}
	case p != nil && (p.Type == "field_definition" || p.Type == "public_field_definition") && cls != nil:
		k := p.Child("property")
		if k == nil {
			k = p.Child("name")
		}
		if k != nil {
			f.name, f.named, f.class = k.Text(src), true, cls
			f.qual = cls.name + "." + f.name
			f.outer = p
		}
	case p != nil && p.Type == "export_statement":
		f.name, f.named = "default", true
		if nm := n.Child("name"); nm != nil {
			f.name = nm.Text(src)
		}
	}
	if f.named {
		if f.qual == "" {
			f.qual = f.name
			if o := parent.owner(); o != nil {
				f.qual = o.qual + "." + f.name
			}
		}
		f.stmt = statementOf(f.outer, m.root)
		if f.outer.Type != "pair" && f.outer.Type != "method_definition" {
			f.outer = f.stmt
		}
		if f.class == nil && parent == nil && f.stmt.Parent == m.root {
			f.topLevel = true
			if n.Type != "method_definition" && (p == nil || p.Type != "pair") && !strings.Contains(f.qual, ".") {
				m.topFuncs[f.name] = f
			}
		}
		if f.class != nil {
			f.class.methods[f.name] = f
			f.outer = n
			if n.Type != "method_definition" {
				f.outer = p
			}
			f.stmt = f.outer
		}
		if (n.Type == "method_definition" && f.class == nil) || (p != nil && p.Type == "pair") {
			if parent == nil {
				obj := path
				if i := strings.IndexByte(obj, '.'); i >= 0 {
					obj = obj[:i]
				}
				if m.objects[obj] == nil {
					m.objects[obj] = map[string]*fnInfo{}
				}
				m.objects[obj][strings.TrimPrefix(f.qual, obj+".")] = f
			}
		}
	} else {
		f.name = "<anonymous>"
		f.callback = callbackName(n, src)
		if o := parent.owner(); o != nil {
			f.qual = o.qual
		}
	}
	if f.named && f.class == nil {
		if m.nested[parent] == nil {
			m.nested[parent] = map[string]*fnInfo{}
		}
		if _, ok := m.nested[parent][f.name]; !ok {
			m.nested[parent][f.name] = f
		}
	}
	f.params = m.params(n)
	m.collectLocals(f)
	m.funcs = append(m.funcs, f)
	m.byNode[n] = f
	return f
}

// statementOf returns the statement that holds n: the top-level statement for
// something at module level (through export, declarations and assignments), or
// the declaration statement inside a function.
func statementOf(n, root *node) *node {
	for p := n; p != nil; p = p.Parent {
		if p.Parent == root {
			return p
		}
		switch p.Type {
		case "lexical_declaration", "variable_declaration", "expression_statement", "function_declaration",
			"generator_function_declaration":
			// a declaration inside a function body stands for itself
			if p.Parent != nil && p.Parent.Type == "statement_block" {
				return p
			}
		}
	}
	return n
}

// callbackName names what an anonymous function is passed to: the called
// function or method ("useEffect", "app.get", "window.addEventListener", "then"
// for a method of a call's result), or "(iife)" for a function called where it
// is written.
func callbackName(n *node, src []byte) string {
	p := n.Parent
	for p != nil && p.Type == "parenthesized_expression" {
		p = p.Parent
	}
	if p == nil {
		return ""
	}
	if p.Type == "call_expression" {
		return "(iife)"
	}
	if p.Type != "arguments" || p.Parent == nil || p.Parent.Type != "call_expression" {
		return ""
	}
	fn := p.Parent.Child("function")
	switch {
	case fn == nil:
		return ""
	case fn.Type == "identifier":
		return fn.Text(src)
	case fn.Type == "member_expression":
		// app.get, window.addEventListener; a method of a call's result by its name (then)
		if baseName(fn, src) != "" && !strings.ContainsAny(fn.Text(src), "([\n") {
			return fn.Text(src)
		}
		return fn.Child("property").Text(src)
	}
	return ""
}

func (m *module) params(fn *node) []param {
	src := m.src
	var out []param
	if p := fn.Child("parameter"); p != nil { // x => …
		return []param{{name: p.Text(src)}}
	}
	ps := fn.Child("parameters")
	if ps == nil {
		return nil
	}
	for i, c := range ps.NamedKids() {
		pat, def := c, (*node)(nil)
		switch c.Type {
		case "required_parameter", "optional_parameter":
			pat, def = c.Child("pattern"), c.Child("value")
		case "assignment_pattern":
			pat, def = c.Child("left"), c.Child("right")
		case "comment":
			continue
		}
		if pat == nil {
			continue
		}
		switch pat.Type {
		case "identifier":
			out = append(out, param{name: pat.Text(src), def: def, index: i})
		case "this":
		case "rest_pattern":
			for _, nm := range patternNames(pat, src) {
				out = append(out, param{name: nm, index: i})
			}
		case "object_pattern":
			for _, k := range pat.NamedKids() {
				switch k.Type {
				case "shorthand_property_identifier_pattern":
					out = append(out, param{name: k.Text(src), index: i, field: k.Text(src)})
				case "object_assignment_pattern":
					if l := k.Child("left"); l != nil {
						out = append(out, param{name: l.Text(src), def: k.Child("right"), index: i, field: l.Text(src)})
					}
				case "pair_pattern":
					key := keyText(k.Child("key"), src)
					for _, nm := range patternNames(k.Child("value"), src) {
						out = append(out, param{name: nm, index: i, field: key})
					}
				}
			}
		default:
			for _, nm := range patternNames(pat, src) {
				out = append(out, param{name: nm, index: i})
			}
		}
	}
	return out
}

func (m *module) newClass(n *node, fn *fnInfo) *classInfo {
	ci := &classInfo{node: n, outer: statementOf(n, m.root), attrs: map[string][]*node{}, methods: map[string]*fnInfo{}}
	if nm := n.Child("name"); nm != nil {
		ci.name = nm.Text(m.src)
	} else if p := n.Parent; p != nil && p.Type == "variable_declarator" {
		ci.name = p.Child("name").Text(m.src)
	} else {
		ci.name = "default"
	}
	ci.top = fn == nil && ci.outer.Parent == m.root
	if ci.top {
		m.topClass[ci.name] = ci
	}
	if body := n.Child("body"); body != nil {
		for _, c := range body.NamedKids() {
			switch c.Type {
			case "field_definition", "public_field_definition":
				k := c.Child("property")
				if k == nil {
					k = c.Child("name")
				}
				if v := c.Child("value"); k != nil && v != nil {
					ci.attrs[k.Text(m.src)] = append(ci.attrs[k.Text(m.src)], v)
				}
			case "method_definition":
				// constructor(private base = "https://…") makes a field
				if nm := c.Child("name"); nm != nil && nm.Text(m.src) == "constructor" {
					if ps := c.Child("parameters"); ps != nil {
						for _, p := range ps.NamedKids() {
							if p.Type == "required_parameter" || p.Type == "optional_parameter" {
								if firstOfType(p, "accessibility_modifier") != nil || firstOfType(p, "readonly") != nil {
									if pat, v := p.Child("pattern"), p.Child("value"); pat != nil && v != nil {
										ci.attrs[pat.Text(m.src)] = append(ci.attrs[pat.Text(m.src)], v)
									}
								}
							}
						}
					}
				}
			}
		}
	}
	m.classes = append(m.classes, ci)
	return ci
}

// collectLocals records the local definitions of f (not of nested functions), and
// for methods the this.x = … assignments into the class's attributes.
func (m *module) collectLocals(f *fnInfo) {
	src := m.src
	add := func(name string, a assign) { f.locals[name] = append(f.locals[name], a) }
	body := f.node.Child("body")
	if body == nil {
		return
	}
	var visit func(n *node)
	visit = func(n *node) {
		for _, c := range n.Children {
			switch c.Type {
			case "function_declaration", "generator_function_declaration":
				if nm := c.Child("name"); nm != nil {
					add(nm.Text(src), assign{pos: c.Start})
				}
				continue
			case "function_expression", "arrow_function", "function", "generator_function", "method_definition",
				"class", "class_declaration":
				continue
			case "variable_declarator":
				name, val := c.Child("name"), c.Child("value")
				state := isStateCall(val, src)
				if name != nil && name.Type == "identifier" {
					add(name.Text(src), assign{pos: c.End, value: val, state: state})
				} else {
					for _, nm := range patternNames(name, src) {
						add(nm, assign{pos: c.End, state: state})
					}
				}
			case "assignment_expression":
				l, r := c.Child("left"), c.Child("right")
				if l != nil && l.Type == "identifier" {
					add(l.Text(src), assign{pos: c.End, value: r})
				} else if l != nil && l.Type == "member_expression" && f.class != nil {
					if o := l.Child("object"); o != nil && o.Type == "this" && r != nil {
						nm := l.Child("property").Text(src)
						f.class.attrs[nm] = append(f.class.attrs[nm], r)
					}
				}
			case "augmented_assignment_expression":
				l := c.Child("left")
				if l != nil && l.Type == "identifier" {
					op := c.Child("operator")
					aug := "+="
					if op != nil {
						aug = op.Text(src)
					}
					add(l.Text(src), assign{pos: c.End, value: c.Child("right"), aug: aug})
				}
			case "for_in_statement":
				for _, nm := range patternNames(c.Child("left"), src) {
					add(nm, assign{pos: c.Start})
				}
			case "catch_clause":
				for _, nm := range patternNames(c.Child("parameter"), src) {
					add(nm, assign{pos: c.Start})
				}
			}
			visit(c)
		}
	}
	visit(body)
	for _, ls := range f.locals {
		sort.SliceStable(ls, func(i, j int) bool { return ls[i].pos < ls[j].pos })
	}
}

// moduleValue returns the value of the last module-level definition of name
// when it is an assignment, or nil.
func (m *module) moduleValue(name string) *node {
	bs := m.bindings[name]
	for i := len(bs) - 1; i >= 0; i-- {
		if bs[i].kind == "constant" || bs[i].kind == "assignment" {
			return bs[i].value
		}
		return nil
	}
	return nil
}

// importPath returns what a module-level name imports ("axios", "undici.request"),
// or "".
func (m *module) importPath(name string) string {
	for _, b := range m.bindings[name] {
		if b.kind == "import" {
			return b.path
		}
	}
	return ""
}

// funcAt returns the innermost function containing n, or nil.
func (m *module) funcAt(n *node) *fnInfo {
	for p := n.Parent; p != nil; p = p.Parent {
		if f, ok := m.byNode[p]; ok {
			return f
		}
	}
	return nil
}

// enclosingClass returns the class a function (or its enclosing function) belongs to.
func enclosingClass(f *fnInfo) *classInfo {
	for ; f != nil; f = f.parent {
		if f.class != nil {
			return f.class
		}
	}
	return nil
}

// bound reports whether name is a parameter or local of f or of a function
// enclosing it.
func bound(f *fnInfo, name string) bool {
	for g := f; g != nil; g = g.parent {
		if len(g.locals[name]) > 0 {
			return true
		}
		for _, p := range g.params {
			if p.name == name {
				return true
			}
		}
	}
	return false
}

// dotted renders an identifier/member chain with its first name resolved through
// the module's imports: axios.get → "axios.get", http.request where
// http = require("node:https") → "https.request". A name bound locally is left
// as written.
func (m *module) dotted(n *node, f *fnInfo) string {
	n = unwrap(n)
	if n == nil {
		return ""
	}
	switch n.Type {
	case "identifier":
		name := n.Text(m.src)
		if bound(f, name) {
			for g := f; g != nil; g = g.parent {
				if ls := g.locals[name]; len(ls) > 0 {
					if spec, mem, ok := requireOf(ls[len(ls)-1].value, m.src); ok {
						return normalizeSpec(joinQual(spec, mem))
					}
					break
				}
			}
			return name
		}
		if p := m.importPath(name); p != "" {
			return normalizeSpec(p)
		}
		return name
	case "member_expression":
		obj := m.dotted(n.Child("object"), f)
		if obj == "" {
			return ""
		}
		return obj + "." + n.Child("property").Text(m.src)
	case "this":
		return "this"
	}
	return ""
}

// normalizeSpec drops Node's node: scheme and a /promises-less subpath: what a
// callee's module is called by.
func normalizeSpec(p string) string {
	return strings.TrimPrefix(p, "node:")
}

// stateHooks are the calls whose value is component state: React's hooks (useX),
// Vue's ref and reactive, Solid's createSignal.
var stateHook = regexp.MustCompile(`^(use[A-Z]\w*|ref|reactive|shallowRef|createSignal)$`)

// isStateCall reports a call to a state hook (useState(…), React.useState(…),
// ref(…)).
func isStateCall(n *node, src []byte) bool {
	n = unwrap(n)
	if n == nil || n.Type != "call_expression" {
		return false
	}
	fn := n.Child("function")
	if fn != nil && fn.Type == "member_expression" {
		fn = fn.Child("property")
	}
	return fn != nil && stateHook.MatchString(fn.Text(src))
}
