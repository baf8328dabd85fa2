package crawl

import (
	"fmt"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v4"
)

// Warning is a problem found in a description file that does not change what an
// endpoint is: it was repaired or ignored, and the API was imported anyway.
type Warning struct {
	Reason  string `json:"reason"`            // a stable snake_case code
	File    string `json:"file,omitempty"`    // relative to the docs folder
	Pointer string `json:"pointer,omitempty"` // JSON pointer into the file
	Line    int    `json:"line,omitempty"`
	Detail  string `json:"detail"`
}

// Warning reasons a description can get.
const (
	WarnTypeRepaired       = "type_repaired"
	WarnNullTypeRepaired   = "null_type_repaired"
	WarnNumberAsString     = "number_as_string_repaired"
	WarnBooleanAsString    = "boolean_as_string_repaired"
	WarnValueDropped       = "invalid_value_dropped"
	WarnVersionAsNumber    = "version_as_number_repaired"
	WarnSchemaRequired     = "schema_required_repaired"
	WarnExclusiveBound     = "exclusive_bound_repaired"
	WarnHostRepaired       = "host_repaired"
	WarnExternalRefDropped = "external_ref_dropped"
	WarnWebhooksIgnored    = "webhooks_ignored"
	WarnExampleMismatch    = "example_mismatch_ignored"
	WarnDefaultMismatch    = "default_mismatch_ignored"
	WarnFormatIgnored      = "format_ignored"
	WarnPatternIgnored     = "pattern_ignored"
	WarnValidationIgnored  = "validation_ignored"
	WarnServerSkipped      = "server_skipped"
	WarnServerRepaired     = "server_url_repaired"
	WarnServerVariable     = "server_variable_expanded"
	WarnRelativeServer     = "relative_server_resolved"
	WarnNoTitle            = "no_title"
	WarnSlugTaken          = "slug_taken"
	WarnOperationNoHost    = "operation_without_host"
	WarnRefInlined         = "ref_inlined"
)

// repairer walks the raw YAML/JSON tree of one description file before
// kin-openapi reads it, fixing the typos that would make unmarshalling fail (a
// number written as a string, an unknown type name, a 3.1 type list in a 3.0
// file…), one warning per repair, so that every problem is reported at once.
type repairer struct {
	file     string // relative name, for warnings
	v31      bool   // an OpenAPI 3.1 (or later) document
	swagger  bool   // a Swagger 2.0 document
	warnings []Warning
	// ref checks an external $ref; it returns a reason to drop it, or "".
	ref func(ref string) string
	// inline reads what an external $ref names, its own $refs rewritten to be
	// relative to this file.
	inline func(ref string) (*yaml.Node, error)
	// data is told each $ref inside an example, default or other value: the file it
	// names holds data, not OpenAPI, and is not repaired.
	data func(ref string)
}

func (r *repairer) warn(reason string, n *yaml.Node, ptr, format string, a ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	r.warnings = append(r.warnings, Warning{Reason: reason, File: r.file, Pointer: ptr, Line: line, Detail: fmt.Sprintf(format, a...)})
}

// namesMaps are the keys whose mapping value is keyed by names (of properties,
// paths, responses, media types…) rather than by OpenAPI keywords.
var namesMaps = map[string]bool{"properties": true, "patternProperties": true, "definitions": true, "schemas": true,
	"paths": true, "responses": true, "headers": true, "content": true, "callbacks": true, "links": true,
	"requestBodies": true, "variables": true, "$defs": true, "dependentSchemas": true, "webhooks": true,
	"encoding": true, "pathItems": true, "parameters": true}

// valueKeys hold values (examples, defaults, enumerations), metadata or security
// schemes, with no schema inside to repair.
var valueKeys = map[string]bool{"example": true, "examples": true, "default": true, "enum": true, "const": true,
	"mapping": true, "scopes": true, "security": true, "required": true,
	"securitySchemes": true, "securityDefinitions": true, "links": true}

// numberKeys are schema keywords whose value must be a number.
var numberKeys = map[string]bool{"maximum": true, "minimum": true, "multipleOf": true, "maxLength": true, "minLength": true,
	"maxItems": true, "minItems": true, "maxProperties": true, "minProperties": true}

// boolKeys are keywords whose value must be a boolean.
var boolKeys = map[string]bool{"nullable": true, "deprecated": true, "uniqueItems": true, "readOnly": true, "writeOnly": true,
	"allowEmptyValue": true, "explode": true, "allowReserved": true}

var httpMethods = map[string]bool{"get": true, "put": true, "post": true, "delete": true, "options": true, "head": true,
	"patch": true, "trace": true}

// externalRef is the target of a mapping that is only a $ref to another file, or "".
func externalRef(n *yaml.Node) string {
	if n.Kind != yaml.MappingNode || len(n.Content) != 2 || n.Content[0].Value != "$ref" || n.Content[1].Kind != yaml.ScalarNode {
		return ""
	}
	if ref := n.Content[1].Value; !strings.HasPrefix(ref, "#") {
		return ref
	}
	return ""
}

// textKeys are keywords whose value must be text.
var textKeys = map[string]bool{"description": true, "summary": true, "title": true, "operationId": true}

func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		if mapValue(n, "$ref") != nil {
			return "a $ref"
		}
		return "an object"
	case yaml.SequenceNode:
		return "a list"
	}
	return "a value"
}

// typeAliases maps type names people write to the OpenAPI type (and the format it
// implies).
var typeAliases = map[string][2]string{
	"float": {"number", "float"}, "double": {"number", "double"}, "decimal": {"number", ""}, "numeric": {"number", ""},
	"int": {"integer", ""}, "int32": {"integer", "int32"}, "int64": {"integer", "int64"}, "integer64": {"integer", "int64"},
	"integer32": {"integer", "int32"}, "long": {"integer", "int64"}, "short": {"integer", ""}, "uint": {"integer", ""},
	"bool": {"boolean", ""}, "str": {"string", ""}, "text": {"string", ""}, "char": {"string", ""},
	"date": {"string", "date"}, "datetime": {"string", "date-time"}, "date-time": {"string", "date-time"},
	"uuid": {"string", "uuid"}, "email": {"string", "email"}, "uri": {"string", "uri"}, "url": {"string", "uri"},
	"binary": {"string", "binary"}, "byte": {"string", "byte"}, "password": {"string", "password"},
	"list": {"array", ""}, "dict": {"object", ""}, "map": {"object", ""}, "json": {"object", ""}, "hash": {"object", ""},
}

func (r *repairer) validType(t string) bool {
	switch t {
	case "string", "number", "integer", "boolean", "array", "object":
		return true
	case "null":
		return r.v31
	case "file":
		return r.swagger
	}
	return false
}

// repairDoc repairs a whole document.
func (r *repairer) repairDoc(root *yaml.Node) {
	if root.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i].Value, root.Content[i+1]
		switch k {
		case "openapi", "swagger":
			if v.Kind == yaml.ScalarNode && v.ShortTag() != "!!str" {
				r.warn(WarnVersionAsNumber, v, "/"+k, "%s: %s written as a number; read as the string %q", k, v.Value, v.Value)
				v.Tag, v.Style = "!!str", yaml.DoubleQuotedStyle
			}
		case "info":
			if iv := mapValue(v, "version"); iv != nil && iv.Kind == yaml.ScalarNode && iv.ShortTag() != "!!str" {
				r.warn(WarnVersionAsNumber, iv, "/info/version", "info.version %s written as a number; read as the string %q", iv.Value, iv.Value)
				iv.Tag, iv.Style = "!!str", yaml.DoubleQuotedStyle
			}
		case "host":
			if r.swagger {
				r.repairSwaggerHost(root, v)
			}
		}
	}
	r.walk(root, "", false)
}

// repairSwaggerHost splits a Swagger 2 host written as a URL ("https://api.x.com/v1")
// into host, schemes and basePath, which is what it means.
func (r *repairer) repairSwaggerHost(root, v *yaml.Node) {
	if v.Kind != yaml.ScalarNode || !strings.Contains(v.Value, "/") {
		return
	}
	raw := v.Value
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		scheme, rest = "", raw
	}
	host, path, _ := strings.Cut(rest, "/")
	v.Value = host
	if scheme != "" && mapValue(root, "schemes") == nil {
		setMapValue(root, "schemes", &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{strNode(scheme)}})
	}
	if path = strings.Trim(path, "/"); path != "" {
		base := "/" + path
		if bp := mapValue(root, "basePath"); bp != nil && bp.Kind == yaml.ScalarNode {
			base += "/" + strings.Trim(bp.Value, "/")
			bp.Value = strings.TrimRight(base, "/")
		} else {
			setMapValue(root, "basePath", strNode(base))
		}
	}
	r.warn(WarnHostRepaired, v, "/host", "host %q is a URL; read as host %q with its scheme and path as schemes and basePath", raw, host)
}

// walk repairs the mapping or sequence n at ptr. names says n is keyed by names
// (properties, paths…), so its keys are not keywords.
func (r *repairer) walk(n *yaml.Node, ptr string, names bool) {
	if n == nil {
		return
	}
	switch n.Kind {
	case yaml.SequenceNode:
		for i, c := range n.Content {
			r.walk(c, ptr+"/"+strconv.Itoa(i), false)
		}
		return
	case yaml.MappingNode:
	default:
		return
	}
	if names {
		if ref := externalRef(n); ref != "" && r.inline != nil && r.ref(ref) == "" {
			// A whole map of properties, responses… given as a $ref to a file:
			// OpenAPI has no $ref there, kin-openapi would fail on it.
			if m, err := r.inline(ref); err == nil && m.Kind == yaml.MappingNode {
				r.warn(WarnRefInlined, n, ptr, "%s is a $ref to %s, which OpenAPI does not allow there; read in place", lastKey(ptr), ref)
				n.Content = m.Content
			}
		}
		if isScalar(mapValue(n, "$ref")) && len(n.Content) == 2 { // still a $ref: a map of one entry named "$ref" breaks the file
			r.warn(WarnValueDropped, n, ptr, "%s is a $ref, which OpenAPI does not allow there; dropped", lastKey(ptr))
			n.Content = nil
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if strings.HasPrefix(k, "x-") {
				continue
			}
			r.walk(n.Content[i+1], ptr+"/"+escapePointer(k), false)
		}
		return
	}
	if ref := mapValue(n, "$ref"); ref != nil && ref.Kind == yaml.ScalarNode && r.ref != nil {
		if why := r.ref(ref.Value); why != "" {
			r.warn(WarnExternalRefDropped, ref, ptr+"/$ref", "$ref %q %s; read as an empty (any) schema or object", ref.Value, why)
			n.Content = nil
			return
		}
	}
	isParam := mapValue(n, "in") != nil
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, v := n.Content[i], n.Content[i+1]
		k := kn.Value
		at := ptr + "/" + escapePointer(k)
		switch {
		case strings.HasPrefix(k, "x-"):
			continue
		case httpMethods[k] && strings.Count(ptr, "/") == 2 && strings.HasPrefix(ptr, "/paths/") && r.inline != nil && externalRef(v) != "":
			// An operation written as a $ref to a file (split descriptions do it);
			// OpenAPI has no $ref there, so kin-openapi would read an empty operation.
			ref := externalRef(v)
			if r.ref(ref) == "" {
				if op, err := r.inline(ref); err == nil {
					n.Content[i+1] = op
					r.warn(WarnRefInlined, v, at, "operation is a $ref to %s, which OpenAPI does not allow there; read in place", ref)
					v = op
				}
			}
		case k == "type" && (v.Kind == yaml.ScalarNode || v.Kind == yaml.SequenceNode):
			if r.repairType(n, i, at) {
				i -= 2 // the pair was removed
			}
			continue
		case numberKeys[k] && v.Kind == yaml.ScalarNode:
			if r.repairNumber(n, i, at) {
				i -= 2
			}
			continue
		case (k == "exclusiveMaximum" || k == "exclusiveMinimum") && v.Kind == yaml.ScalarNode:
			if r.repairExclusive(n, i, at) {
				i -= 2
			}
			continue
		case textKeys[k] && v.Kind != yaml.ScalarNode:
			r.warn(WarnValueDropped, v, at, "%s is %s, not text; dropped", k, nodeKind(v))
			n.Content = append(n.Content[:i], n.Content[i+2:]...)
			i -= 2
			continue
		case boolKeys[k] && v.Kind == yaml.ScalarNode:
			r.repairBool(v, at, k)
			continue
		case k == "required" && v.Kind == yaml.ScalarNode:
			if isParam || mapValue(n, "content") != nil || mapValue(n, "schema") != nil || mapValue(n, "name") != nil {
				r.repairBool(v, at, k)
				continue
			}
			r.warn(WarnSchemaRequired, v, at, "required: %s in a schema (it lists property names); dropped", v.Value)
			n.Content = append(n.Content[:i], n.Content[i+2:]...)
			i -= 2
			continue
		case k == "webhooks" && ptr == "":
			r.warn(WarnWebhooksIgnored, kn, at, "%d webhook(s) (%s) are requests the API makes, not endpoints to call; ignored",
				len(v.Content)/2, strings.Join(mapKeys(v), ", "))
			n.Content = append(n.Content[:i], n.Content[i+2:]...)
			i -= 2
			continue
		case valueKeys[k]:
			if r.data != nil {
				refsIn(v, r.data, 0)
			}
			continue
		}
		r.walk(v, at, namesMaps[k] && v.Kind == yaml.MappingNode)
	}
}

// repairType fixes the type at pair i of schema n; it reports whether it removed
// the pair.
func (r *repairer) repairType(n *yaml.Node, i int, ptr string) bool {
	v := n.Content[i+1]
	if v.Kind == yaml.SequenceNode {
		var kept []*yaml.Node
		hasNull := false
		for _, c := range v.Content {
			t, ok := r.typeName(c, ptr)
			switch {
			case !ok:
			case t == "null" && !r.v31:
				hasNull = true
			default:
				kept = append(kept, strNode(t))
			}
		}
		if r.v31 {
			v.Content = kept
			if len(kept) == 0 {
				n.Content = append(n.Content[:i], n.Content[i+2:]...)
				return true
			}
			return false
		}
		switch len(kept) {
		case 1:
			n.Content[i+1] = kept[0]
			if hasNull {
				setMapValue(n, "nullable", boolNode(true))
			}
			r.warn(WarnNullTypeRepaired, v, ptr, "type list %s is OpenAPI 3.1; read as type %s%s", flowList(v), kept[0].Value, nullableNote(hasNull))
			return false
		default:
			if hasNull {
				setMapValue(n, "nullable", boolNode(true))
			}
			r.warn(WarnNullTypeRepaired, v, ptr, "type list %s is OpenAPI 3.1; read as any type%s", flowList(v), nullableNote(hasNull))
			n.Content = append(n.Content[:i], n.Content[i+2:]...)
			return true
		}
	}
	raw := v.Value
	if v.ShortTag() == "!!null" {
		if r.v31 {
			return false
		}
		r.warn(WarnNullTypeRepaired, v, ptr, "type null; read as any type, nullable")
		n.Content = append(n.Content[:i], n.Content[i+2:]...)
		setMapValue(n, "nullable", boolNode(true))
		return true
	}
	t, ok := r.typeName(v, ptr)
	if !ok {
		n.Content = append(n.Content[:i], n.Content[i+2:]...)
		return true
	}
	if t == "null" && !r.v31 {
		r.warn(WarnNullTypeRepaired, v, ptr, "type null is OpenAPI 3.1; read as any type, nullable")
		n.Content = append(n.Content[:i], n.Content[i+2:]...)
		setMapValue(n, "nullable", boolNode(true))
		return true
	}
	if t != raw {
		v.Value, v.Tag, v.Style = t, "!!str", 0
		if f := typeAliases[strings.ToLower(strings.TrimSpace(raw))][1]; f != "" && mapValue(n, "format") == nil {
			setMapValue(n, "format", strNode(f))
		}
	}
	return false
}

// typeName reads one type name, repairing an alias or a case slip ("float",
// "Integer"); ok is false for a name it does not know, which it reports as dropped.
func (r *repairer) typeName(c *yaml.Node, ptr string) (string, bool) {
	raw := c.Value
	if c.Kind != yaml.ScalarNode {
		r.warn(WarnTypeRepaired, c, ptr, "type is not a name; dropped (any type)")
		return "", false
	}
	low := strings.ToLower(strings.TrimSpace(raw))
	if r.validType(low) || low == "null" {
		if low != raw {
			r.warn(WarnTypeRepaired, c, ptr, "type %q read as %q", raw, low)
		}
		return low, true
	}
	if a, ok := typeAliases[low]; ok {
		r.warn(WarnTypeRepaired, c, ptr, "type %q is not an OpenAPI type; read as %q", raw, a[0])
		return a[0], true
	}
	r.warn(WarnTypeRepaired, c, ptr, "unknown type %q; dropped (any type)", raw)
	return "", false
}

// repairNumber turns a number keyword written as a string into a number, or drops
// it when it is not one.
func (r *repairer) repairNumber(n *yaml.Node, i int, ptr string) bool {
	v := n.Content[i+1]
	switch v.ShortTag() {
	case "!!int", "!!float":
		return false
	}
	k := n.Content[i].Value
	s := strings.TrimSpace(v.Value)
	if _, err := strconv.ParseFloat(s, 64); err == nil && s != "" {
		r.warn(WarnNumberAsString, v, ptr, "%s: %q is a string; read as the number %s", k, v.Value, s)
		v.Value, v.Tag, v.Style = s, numberTag(s), 0
		return false
	}
	r.warn(WarnValueDropped, v, ptr, "%s: %q is not a number; dropped", k, v.Value)
	n.Content = append(n.Content[:i], n.Content[i+2:]...)
	return true
}

// repairExclusive handles exclusiveMaximum/Minimum, a boolean in 3.0 and Swagger 2
// and a number in 3.1: a number in a 3.0 file becomes the bound plus true, a
// string is read as what it says.
func (r *repairer) repairExclusive(n *yaml.Node, i int, ptr string) bool {
	kn, v := n.Content[i], n.Content[i+1]
	bound := "maximum"
	if kn.Value == "exclusiveMinimum" {
		bound = "minimum"
	}
	s := strings.TrimSpace(v.Value)
	if b, ok := boolWord(s); ok {
		if v.ShortTag() != "!!bool" {
			r.warn(WarnBooleanAsString, v, ptr, "%s: %q is a string; read as %t", kn.Value, v.Value, b)
			v.Value, v.Tag, v.Style = strconv.FormatBool(b), "!!bool", 0
		}
		if r.v31 { // 3.1: exclusiveMaximum: true means nothing; the bound is the maximum
			r.warn(WarnExclusiveBound, v, ptr, "%s: %t is OpenAPI 3.0; dropped", kn.Value, b)
			n.Content = append(n.Content[:i], n.Content[i+2:]...)
			return true
		}
		return false
	}
	if _, err := strconv.ParseFloat(s, 64); err != nil || s == "" {
		r.warn(WarnValueDropped, v, ptr, "%s: %q is neither a number nor a boolean; dropped", kn.Value, v.Value)
		n.Content = append(n.Content[:i], n.Content[i+2:]...)
		return true
	}
	if v.ShortTag() != "!!int" && v.ShortTag() != "!!float" {
		r.warn(WarnNumberAsString, v, ptr, "%s: %q is a string; read as the number %s", kn.Value, v.Value, s)
		v.Value, v.Tag, v.Style = s, numberTag(s), 0
	}
	if r.v31 {
		return false
	}
	r.warn(WarnExclusiveBound, v, ptr, "%s: %s is OpenAPI 3.1; read as %s: %s, %s: true", kn.Value, s, bound, s, kn.Value)
	if mapValue(n, bound) == nil {
		setMapValue(n, bound, &yaml.Node{Kind: yaml.ScalarNode, Tag: numberTag(s), Value: s})
	}
	n.Content[i+1] = boolNode(true)
	return false
}

func (r *repairer) repairBool(v *yaml.Node, ptr, key string) {
	if v.ShortTag() == "!!bool" {
		return
	}
	if b, ok := boolWord(v.Value); ok {
		r.warn(WarnBooleanAsString, v, ptr, "%s: %q is a string; read as %t", key, v.Value, b)
		v.Value, v.Tag, v.Style = strconv.FormatBool(b), "!!bool", 0
		return
	}
	r.warn(WarnValueDropped, v, ptr, "%s: %q is not a boolean; read as false", key, v.Value)
	v.Value, v.Tag, v.Style = "false", "!!bool", 0
}

// boolWord reads "true" or "false" in any case.
func boolWord(s string) (value, ok bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

func numberTag(s string) string {
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		return "!!int"
	}
	return "!!float"
}

func nullableNote(null bool) string {
	if null {
		return ", nullable"
	}
	return ""
}

func flowList(v *yaml.Node) string {
	var parts []string
	for _, c := range v.Content {
		parts = append(parts, c.Value)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func isScalar(n *yaml.Node) bool { return n != nil && n.Kind == yaml.ScalarNode }

// mapValue returns the value of key in mapping n, or nil.
func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// setMapValue sets key in mapping n to v.
func setMapValue(n *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			n.Content[i+1] = v
			return
		}
	}
	n.Content = append(n.Content, strNode(key), v)
}

func mapKeys(n *yaml.Node) []string {
	var out []string
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, n.Content[i].Value)
	}
	return out
}

func strNode(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func boolNode(b bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(b)}
}

// refsIn calls f with every $ref to another file under n.
func refsIn(n *yaml.Node, f func(string), depth int) {
	if n == nil || depth > 200 {
		return
	}
	if ref := mapValue(n, "$ref"); isScalar(ref) && !strings.HasPrefix(ref.Value, "#") {
		f(ref.Value)
	}
	for _, c := range n.Content {
		refsIn(c, f, depth+1)
	}
}

// lastKey is the last key of a JSON pointer.
func lastKey(ptr string) string {
	k := ptr[strings.LastIndexByte(ptr, '/')+1:]
	return strings.ReplaceAll(strings.ReplaceAll(k, "~1", "/"), "~0", "~")
}

func escapePointer(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}
