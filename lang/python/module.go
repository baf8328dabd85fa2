package python

import (
	"sccg/lang"

	"sort"
	"strings"
)

// binding is one module-level definition of a name.
type binding struct {
	name  string
	kind  string // import | assignment | function | class
	stmt  *node  // the top-level statement that defines it (what extraction copies)
	value *node  // assignment: the right-hand side
	path  string // import: the dotted path the name stands for ("requests", "urllib.request.urlopen")
}

// assign is one local definition of a name inside a function, in source order.
type assign struct {
	pos   uint32 // where the definition takes effect
	value *node  // right-hand side (nil when unknown, e.g. a for target)
	aug   string // augmented operator ("+="), "for" (loop over value), "for-items" or ""
	idx   int    // for-items: position of the name in the loop target (0 key, 1 value)
	vars  []string
}

// fnInfo is one function definition anywhere in the file.
type fnInfo struct {
	def      *node // function_definition
	outer    *node // decorated_definition when decorated, else def
	name     string
	qual     string
	class    *classInfo // set for methods
	parent   *fnInfo    // enclosing function of a nested one
	async    bool
	params   []param
	locals   map[string][]assign
	imports  map[string]string // names imported inside the function → dotted path
	reqs     []*reqSite        // request call sites directly in this function
	helpers  []helperUse       // calls of same-file functions, in source order
	topLevel bool              // defined at module level (not in a class or function)
}

// param is one parameter of a function.
type param struct {
	name string
	def  *node // default value or nil
	ann  *node // annotation or nil
}

// classInfo is one class definition.
type classInfo struct {
	def     *node
	outer   *node
	name    string
	attrs   map[string][]*node // class-level assignments and self.X = … in methods
	methods map[string]*fnInfo
	top     bool
}

// helperUse is a call from one function to another of the same file.
type helperUse struct {
	call   *node
	callee *fnInfo
	method bool // called as self.name(…): skip the self parameter when binding
}

// module is the analysis of one file.
type module struct {
	src      []byte
	root     *node
	bindings map[string][]*binding
	stars    []*node // star imports
	funcs    []*fnInfo
	classes  []*classInfo
	topFuncs map[string]*fnInfo
	topClass map[string]*classInfo
	comments []*node
	libs     map[string]bool  // client libraries the file imports
	stored   map[string]*node // container name → assignment storing a client in it (memo)
	// sessHeaders memoizes the headers set on a session attribute across a class
	sessHeaders map[string][]kv
	// members memoizes each class's methods by name
	members map[*classInfo]map[string]*node
}

func newModule(src []byte, root *node) *module {
	m := &module{
		src: src, root: root,
		bindings: map[string][]*binding{},
		topFuncs: map[string]*fnInfo{},
		topClass: map[string]*classInfo{},
		libs:     map[string]bool{},
		stored:   map[string]*node{},

		sessHeaders: map[string][]kv{},
		members:     map[*classInfo]map[string]*node{},
	}
	for _, st := range root.Children {
		m.bindStatement(st, st)
	}
	m.collectDefs(root, nil, nil)
	root.Walk(func(n *node) bool {
		if n.Type == "comment" {
			m.comments = append(m.comments, n)
		}
		return true
	})
	return m
}

// isMainGuard reports whether st is `if __name__ == "__main__":`.
func (m *module) isMainGuard(st *node) bool {
	if st.Type != "if_statement" {
		return false
	}
	c := st.Child("condition")
	return c != nil && strings.Contains(c.Text(m.src), "__name__") && strings.Contains(c.Text(m.src), "__main__")
}

// bindStatement records the names a top-level statement (or a statement nested in a
// top-level try/if/with) defines; top is the top-level statement to copy.
func (m *module) bindStatement(st, top *node) {
	switch st.Type {
	case "import_statement", "import_from_statement", "future_import_statement":
		for _, b := range m.importBindings(st) {
			b.stmt = top
			m.bindings[b.name] = append(m.bindings[b.name], b)
		}
	case "expression_statement":
		for _, c := range st.NamedKids() {
			if c.Type == "assignment" {
				m.bindAssignment(c, top)
			}
		}
	case "function_definition":
		if nm := st.Child("name"); nm != nil {
			n := nm.Text(m.src)
			m.bindings[n] = append(m.bindings[n], &binding{name: n, kind: "function", stmt: top})
		}
	case "class_definition":
		if nm := st.Child("name"); nm != nil {
			n := nm.Text(m.src)
			m.bindings[n] = append(m.bindings[n], &binding{name: n, kind: "class", stmt: top})
		}
	case "decorated_definition":
		if d := st.Child("definition"); d != nil {
			m.bindStatement(d, top)
		}
	case "ERROR":
		// statements tree-sitter could still make out inside a broken region
		// stand for themselves
		if st == top {
			for _, c := range st.Children {
				m.bindStatement(c, c)
			}
		}
	case "if_statement", "try_statement", "with_statement", "else_clause", "elif_clause",
		"except_clause", "finally_clause", "block":
		if m.isMainGuard(st) {
			return
		}
		for _, c := range st.Children {
			if c.Type == "block" || strings.HasSuffix(c.Type, "_clause") || c.Type == "else_clause" {
				for _, s := range c.Children {
					m.bindStatement(s, top)
				}
			} else if c.Named && c.Field != "condition" {
				m.bindStatement(c, top)
			}
		}
	}
}

func (m *module) bindAssignment(a *node, top *node) {
	left, right := a.Child("left"), a.Child("right")
	if right != nil && right.Type == "assignment" { // a = b = value
		m.bindAssignment(right, top)
		right = right.Child("right")
	}
	for _, name := range targetNames(left, m.src) {
		val := right
		if left.Type != "identifier" {
			val = nil
		}
		m.bindings[name] = append(m.bindings[name], &binding{name: name, kind: "assignment", stmt: top, value: val})
	}
}

// importBindings returns the names an import statement binds.
func (m *module) importBindings(st *node) []*binding {
	var out []*binding
	switch st.Type {
	case "import_statement":
		for _, c := range st.Children {
			switch c.Type {
			case "dotted_name":
				full := c.Text(m.src)
				first := strings.Split(full, ".")[0]
				out = append(out, &binding{name: strings.TrimSpace(first), kind: "import", path: strings.TrimSpace(first)})
				m.noteLib(full)
			case "aliased_import":
				full := c.Child("name").Text(m.src)
				alias := c.Child("alias").Text(m.src)
				out = append(out, &binding{name: alias, kind: "import", path: full})
				m.noteLib(full)
			}
		}
	case "import_from_statement", "future_import_statement":
		mod := ""
		if mn := st.Child("module_name"); mn != nil {
			mod = strings.Join(strings.Fields(mn.Text(m.src)), "")
		} else {
			mod = "__future__"
		}
		m.noteLib(mod)
		for _, c := range st.Children {
			if c.Field != "name" {
				if c.Type == "wildcard_import" {
					m.stars = append(m.stars, st)
				}
				continue
			}
			switch c.Type {
			case "dotted_name":
				nm := c.Text(m.src)
				out = append(out, &binding{name: nm, kind: "import", path: joinDotted(mod, nm)})
				m.noteLib(joinDotted(mod, nm))
			case "aliased_import":
				nm := c.Child("name").Text(m.src)
				out = append(out, &binding{name: c.Child("alias").Text(m.src), kind: "import", path: joinDotted(mod, nm)})
				m.noteLib(joinDotted(mod, nm))
			}
		}
	}
	return out
}

func joinDotted(mod, name string) string {
	if strings.HasSuffix(mod, ".") {
		return mod + name
	}
	return mod + "." + name
}

// noteLib remembers which HTTP client libraries the file imports.
func (m *module) noteLib(path string) {
	first := strings.Split(path, ".")[0]
	switch first {
	case "requests", "httpx", "aiohttp":
		m.libs[first] = true
	case "urllib", "urllib2":
		m.libs[lang.LibURLLib] = true
	case "http", "httplib":
		if strings.HasPrefix(path, "http.client") || first == "httplib" {
			m.libs[lang.LibHTTPClient] = true
		}
	}
}

// targetNames lists the identifiers an assignment target binds (a, (a, b), [a, *b]);
// attribute and subscript targets bind nothing.
func targetNames(t *node, src []byte) []string {
	if t == nil {
		return nil
	}
	switch t.Type {
	case "identifier":
		return []string{t.Text(src)}
	case "pattern_list", "tuple_pattern", "list_pattern", "expression_list", "tuple", "list",
		"list_splat_pattern", "parenthesized_expression", "as_pattern_target":
		var out []string
		for _, c := range t.NamedKids() {
			out = append(out, targetNames(c, src)...)
		}
		return out
	}
	return nil
}

// collectDefs finds every function and class, recording nesting.
func (m *module) collectDefs(n *node, cls *classInfo, fn *fnInfo) {
	if n == nil {
		return // a definition without a body (a syntax error)
	}
	for _, c := range n.Children {
		def, outer := c, c
		if c.Type == "decorated_definition" {
			def = c.Child("definition")
			if def == nil {
				continue
			}
		}
		switch def.Type {
		case "function_definition":
			f := m.newFunc(def, outer, cls, fn)
			m.collectDefs(def.Child("body"), nil, f)
			continue
		case "class_definition":
			ci := m.newClass(def, outer, fn == nil && cls == nil)
			m.collectDefs(def.Child("body"), ci, fn)
			if cls == nil && fn == nil {
				m.topClass[ci.name] = ci
			}
			continue
		}
		if c.Type == "ERROR" || c.Type == "block" || strings.HasSuffix(c.Type, "_statement") || strings.HasSuffix(c.Type, "_clause") || c.Type == "module" {
			m.collectDefs(c, cls, fn)
		}
	}
}

func (m *module) newFunc(def, outer *node, cls *classInfo, parent *fnInfo) *fnInfo {
	f := &fnInfo{def: def, outer: outer, class: cls, parent: parent, locals: map[string][]assign{}, imports: map[string]string{}}
	f.name = def.Child("name").Text(m.src)
	if def.Child("name") == nil {
		f.name = "<anonymous>"
	}
	f.async = len(def.Children) > 0 && def.Children[0].Type == "async"
	switch {
	case parent != nil:
		f.qual = parent.qual + "." + f.name
	case cls != nil:
		f.qual = cls.name + "." + f.name
		cls.methods[f.name] = f
	default:
		f.qual = f.name
		f.topLevel = true
		m.topFuncs[f.name] = f
	}
	if parent == nil && cls != nil && !cls.top {
		f.topLevel = false
	}
	f.params = m.params(def.Child("parameters"))
	m.collectLocals(f)
	m.funcs = append(m.funcs, f)
	return f
}

func (m *module) params(ps *node) []param {
	var out []param
	if ps == nil {
		return nil
	}
	for _, c := range ps.NamedKids() {
		var p param
		switch c.Type {
		case "identifier":
			p.name = c.Text(m.src)
		case "typed_parameter":
			for _, k := range c.NamedKids() {
				if k.Type == "identifier" && p.name == "" {
					p.name = k.Text(m.src)
				} else if k.Type == "list_splat_pattern" || k.Type == "dictionary_splat_pattern" {
					p.name = strings.TrimLeft(k.Text(m.src), "*")
				}
			}
			p.ann = c.Child("type")
		case "default_parameter", "typed_default_parameter":
			p.name = c.Child("name").Text(m.src)
			p.def = c.Child("value")
			p.ann = c.Child("type")
		case "list_splat_pattern", "dictionary_splat_pattern":
			p.name = strings.TrimLeft(c.Text(m.src), "*")
		default:
			continue
		}
		out = append(out, p)
	}
	return out
}

func (m *module) newClass(def, outer *node, top bool) *classInfo {
	ci := &classInfo{def: def, outer: outer, attrs: map[string][]*node{}, methods: map[string]*fnInfo{}, top: top}
	ci.name = def.Child("name").Text(m.src)
	m.classes = append(m.classes, ci)
	if body := def.Child("body"); body != nil {
		for _, st := range body.Children {
			if st.Type != "expression_statement" {
				continue
			}
			for _, a := range st.NamedKids() {
				if a.Type == "assignment" && a.Child("left").Type == "identifier" && a.Child("right") != nil {
					nm := a.Child("left").Text(m.src)
					ci.attrs[nm] = append(ci.attrs[nm], a.Child("right"))
				}
			}
		}
	}
	return ci
}

// collectLocals records the local definitions of f (not of nested functions), and
// for methods the self.X = … assignments into the class's attributes.
func (m *module) collectLocals(f *fnInfo) {
	body := f.def.Child("body")
	add := func(name string, a assign) { f.locals[name] = append(f.locals[name], a) }
	var visit func(n *node)
	visit = func(n *node) {
		for _, c := range n.Children {
			switch c.Type {
			case "function_definition", "class_definition", "decorated_definition", "lambda":
				if c.Type == "function_definition" || c.Type == "decorated_definition" {
					d := c
					if c.Type == "decorated_definition" {
						d = c.Child("definition")
					}
					if d != nil && d.Child("name") != nil {
						add(d.Child("name").Text(m.src), assign{pos: c.Start})
					}
				}
				continue
			case "assignment":
				left, right := c.Child("left"), c.Child("right")
				for right != nil && right.Type == "assignment" {
					right = right.Child("right")
				}
				if left != nil && left.Type == "identifier" {
					add(left.Text(m.src), assign{pos: c.End, value: right})
				} else if left != nil && left.Type == "attribute" && f.class != nil {
					obj := left.Child("object")
					if obj != nil && obj.Type == "identifier" && (obj.Text(m.src) == "self" || obj.Text(m.src) == "cls") && right != nil {
						nm := left.Child("attribute").Text(m.src)
						f.class.attrs[nm] = append(f.class.attrs[nm], right)
					}
				} else {
					for _, nm := range targetNames(left, m.src) {
						add(nm, assign{pos: c.End})
					}
				}
			case "augmented_assignment":
				left := c.Child("left")
				if left != nil && left.Type == "identifier" {
					op := c.Child("operator")
					add(left.Text(m.src), assign{pos: c.End, value: c.Child("right"), aug: op.Text(m.src)})
				}
			case "with_item":
				if v := c.Child("value"); v != nil && v.Type == "as_pattern" {
					val := v.NamedKids()
					alias := v.Child("alias")
					if len(val) > 0 && alias != nil {
						for _, nm := range targetNames(alias, m.src) {
							add(nm, assign{pos: c.End, value: val[0]})
						}
					}
				}
			case "for_statement", "for_in_clause":
				l, r := c.Child("left"), c.Child("right")
				if l != nil && l.Type == "identifier" && r != nil {
					add(l.Text(m.src), assign{pos: c.Start, value: r, aug: "for"})
				} else if l != nil && (l.Type == "pattern_list" || l.Type == "tuple_pattern") && r != nil && len(l.NamedKids()) == 2 &&
					r.Type == "call" && r.Child("function").Type == "attribute" && r.Child("function").Child("attribute").Text(m.src) == "items" {
					names := targetNames(l, m.src)
					for i, nm := range names {
						add(nm, assign{pos: c.Start, value: r.Child("function").Child("object"), aug: "for-items", idx: i, vars: names})
					}
				} else {
					for _, nm := range targetNames(c.Child("left"), m.src) {
						add(nm, assign{pos: c.Start})
					}
				}
			case "import_statement", "import_from_statement":
				for _, b := range m.importBindings(c) {
					f.imports[b.name] = b.path
				}
				continue
			case "named_expression":
				if nm := c.Child("name"); nm != nil {
					add(nm.Text(m.src), assign{pos: c.End, value: c.Child("value")})
				}
			}
			visit(c)
		}
	}
	if body != nil {
		visit(body)
	}
	for _, ls := range f.locals {
		sort.SliceStable(ls, func(i, j int) bool { return ls[i].pos < ls[j].pos })
	}
}

// moduleValue returns the value of the last module-level assignment to name, or nil.
func (m *module) moduleValue(name string) *node {
	bs := m.bindings[name]
	for i := len(bs) - 1; i >= 0; i-- {
		if bs[i].kind == "assignment" {
			return bs[i].value
		}
		if bs[i].kind != "assignment" {
			return nil
		}
	}
	return nil
}

// importPath returns the dotted path a module-level import binds name to.
func (m *module) importPath(name string) (string, bool) {
	bs := m.bindings[name]
	for i := len(bs) - 1; i >= 0; i-- {
		if bs[i].kind == "import" {
			return bs[i].path, true
		}
	}
	return "", false
}

// dotted returns the dotted name of an identifier/attribute chain with the leading
// import alias expanded (r.get → requests.get when `import requests as r`).
func (m *module) dotted(n *node, f *fnInfo) string {
	switch n.Type {
	case "identifier":
		name := n.Text(m.src)
		if f != nil {
			if p, ok := localImport(m, f, name); ok {
				return p
			}
			if _, local := f.locals[name]; local {
				return name
			}
		}
		if p, ok := m.importPath(name); ok {
			return p
		}
		return name
	case "attribute":
		obj := m.dotted(n.Child("object"), f)
		if obj == "" {
			return ""
		}
		return obj + "." + n.Child("attribute").Text(m.src)
	}
	return ""
}

// localImport handles imports written inside a function body.
func localImport(m *module, f *fnInfo, name string) (string, bool) {
	for g := f; g != nil; g = g.parent {
		if p, ok := g.imports[name]; ok {
			return p, true
		}
	}
	return "", false
}
