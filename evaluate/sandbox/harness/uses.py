"""What the code does with a name, read from its syntax tree, and values that take
those uses: a parameter or an undefined global passed to range() or added to a
number is a number, one the code splits or strips is a string, one it calls
.items() on or unpacks with ** a dict with an item; a parameter it indexes with a
string is a record (a string that also takes a record's uses, or a dict), one it
loops over or indexes with a number an iterable, and a request whose .GET, .POST,
.args or .form it reads (Django, Flask, DRF) carries a query that holds every key.
An undefined global only ever becomes a number, a string or a dict: for any other
use the permissive stub serves. Read from the code only, so every completion is
called the same way."""
import _ast

from .facts import _def_nodes, _tree, _unguarded, _walk
from .values import _ADict, _Any, _Lenient, _PStr

_str, _type, _len, _isinstance, _getattr = str, type, len, isinstance, getattr
_int, _float, _bool, _list, _tuple, _dict, _set = int, float, bool, list, tuple, dict, set

# The kinds of use.
_INT, _STR, _DICT, _RECORD, _ITER, _REQUEST = "int", "str", "dict", "record", "iter", "request"
# a URL the code cuts at, or searches for, a text ("url\0github.com/"); a value the
# code puts where a repository's owner and name go (f"{API}/repos/{repo}")
_URL, _SPAN = "url\0", "span"
# what a repository's owner and name look like, as one value
_OWNER_NAME = "octocat/hello-world"
# methods whose text argument says what a string holds
_CUT_METHODS = frozenset(("split", "rsplit", "replace", "startswith", "find", "index", "partition", "rpartition"))
_URL_PARSERS = frozenset(("urlparse", "urlsplit"))

# methods that only a string has (called on a name, they make it a string)
_STR_METHODS = frozenset(("split", "rsplit", "strip", "lstrip", "rstrip", "lower", "upper", "startswith", "endswith",
                          "replace", "encode", "title", "capitalize", "splitlines", "isdigit", "isalpha", "isalnum",
                          "zfill", "casefold", "partition", "rpartition", "join"))
# methods that make a name a dict
_DICT_METHODS = frozenset(("items", "keys", "values"))
# methods that make a name a list
_LIST_METHODS = frozenset(("append", "extend", "sort"))
# attributes of a web framework's request that hold its query or form
_QUERY_ATTRS = frozenset(("GET", "POST", "args", "form", "query_params", "COOKIES", "FILES"))
# arithmetic that makes a name a number when the other side is a number
_NUM_OPS = (_ast.Add, _ast.Sub, _ast.Mult, _ast.Div, _ast.FloorDiv, _ast.Mod, _ast.Pow)
_ORDER = (_ast.Lt, _ast.LtE, _ast.Gt, _ast.GtE)

# kinds by function name, then parameter; and of the undefined globals, by name
_param_kind_cache = {}
_global_kind_cache = {}


def _param_kinds(name):
    """The kinds of use of the parameters of the definitions named name:
    {parameter: kind}, read on first use."""
    if name not in _param_kind_cache:
        out = {}
        for fn in _def_nodes.get(name, ()):
            a = fn.args
            params = set(x.arg for x in a.posonlyargs + a.args + a.kwonlyargs)
            for k, v in _kinds(fn, params).items():
                out.setdefault(k, v)
        _param_kind_cache[name] = out
    return _param_kind_cache[name]


def _global_kind(name):
    """The kind of use of name across the whole code (for a global it never
    defines), or None."""
    if not _global_kind_cache and _tree:
        _global_kind_cache.update(_kinds(_tree[0], None))
        _global_kind_cache[""] = None  # computed
    return _global_kind_cache.get(name)


def _kinds(root, names):
    """{name: kind} for the names under root (all names when names is None) whose
    uses say what they hold."""
    seen = {}
    Name, Constant, Call, Attribute = _ast.Name, _ast.Constant, _ast.Call, _ast.Attribute

    def name_of(e):
        e = _unguarded(e)
        if _type(e) is Name and (names is None or e.id in names):
            return e.id
        return None

    def add(e, kind):
        n = name_of(e)
        if n is not None:
            seen.setdefault(n, _set()).add(kind)

    def number(e):
        return _type(e) is Constant and _type(e.value) in (_int, _float)

    def string(e):
        return _type(e) is Constant and _type(e.value) is _str

    cuts = {}

    def cut(e, text):
        n = name_of(e)
        if n is not None and n not in cuts:
            cuts[n] = text

    def span(parts):
        # parts: the pieces of an f-string or a concatenation, in order
        for i, e in enumerate(parts):
            if i == 0 or name_of(e) is None or not string(parts[i - 1]) or \
                    not parts[i - 1].value.lower().endswith("repos/"):
                continue
            nxt = parts[i + 1] if i + 1 < _len(parts) else None
            if nxt is None:
                add(e, _SPAN)
            elif string(nxt) and nxt.value[:1] in ("?", "#"):
                add(e, _SPAN)
            elif string(nxt) and nxt.value[:1] == "/" and (nxt.value.strip("/") or i + 2 >= _len(parts)):
                add(e, _SPAN)

    def flat(e):
        if _type(e) is _ast.BinOp and _isinstance(e.op, _ast.Add):
            return flat(e.left) + flat(e.right)
        return [e]

    for n in _walk(root):
        t = _type(n)
        if t is _ast.JoinedStr:
            span([v.value if _type(v) is _ast.FormattedValue else v for v in n.values])
        elif t is _ast.BinOp and _isinstance(n.op, _ast.Add):
            span(flat(n))
        if t is Call:
            f = n.func
            if _type(f) is Attribute and f.attr in _CUT_METHODS and n.args and string(n.args[0]) and \
                    _len(n.args[0].value) > 1 and ("." in n.args[0].value or "/" in n.args[0].value):
                cut(f.value, n.args[0].value)
            fname = f.id if _type(f) is Name else (f.attr if _type(f) is Attribute else "")
            if fname in _URL_PARSERS and n.args:
                cut(n.args[0], "")
            if _type(f) is Name and f.id == "range":
                for a in n.args:
                    add(a, _INT)
            elif _type(f) is Name and f.id == "len" and n.args:
                add(n.args[0], _ITER)
            elif _type(f) is Attribute:
                if f.attr in _STR_METHODS:
                    add(f.value, _STR)
                elif f.attr in _DICT_METHODS and not n.args:
                    add(f.value, _DICT)
                elif f.attr in _LIST_METHODS:
                    add(f.value, _ITER)
            for k in n.keywords:
                if k.arg is None:
                    add(k.value, _DICT)
        elif t is _ast.BinOp and _isinstance(n.op, _NUM_OPS):
            for x, y in ((n.left, n.right), (n.right, n.left)):
                if number(y) and _type(y.value) is not _bool:
                    add(x, _INT)
                elif string(y):
                    # "a" + x: a string; "-" * x: a count; "%s" % x: anything
                    if _isinstance(n.op, _ast.Add):
                        add(x, _STR)
                    elif _isinstance(n.op, _ast.Mult):
                        add(x, _INT)
        elif t is _ast.AugAssign and _isinstance(n.op, _NUM_OPS) and number(_unguarded(n.value)):
            add(n.target, _INT)
        elif t is _ast.Compare:
            left = n.left
            for op, right in zip(n.ops, n.comparators):
                if _isinstance(op, _ORDER):
                    if number(right):
                        add(left, _INT)
                    if number(left):
                        add(right, _INT)
                elif _isinstance(op, (_ast.In, _ast.NotIn)):
                    add(right, _ITER)
                left = right
        elif t is _ast.Slice:
            add(n.lower, _INT)
            add(n.upper, _INT)
        elif t is _ast.Subscript:
            add(n.value, _RECORD if string(n.slice) else _ITER)  # x["id"]: a record; x[0]: a sequence
        elif t is _ast.For or t is _ast.AsyncFor or t is _ast.comprehension:
            add(n.iter, _ITER)
        elif t is Attribute and n.attr in _QUERY_ATTRS:
            add(n.value, _REQUEST)
    out = {}
    for n, text in cuts.items():
        out[n] = _URL + text
    for n, ks in seen.items():
        if n in out:
            continue
        if _SPAN in ks:
            out[n] = _SPAN
        elif _REQUEST in ks:
            out[n] = _REQUEST
        elif _DICT in ks and _STR not in ks and _INT not in ks:
            out[n] = _DICT
        elif _INT in ks and _STR not in ks and _ITER not in ks and _RECORD not in ks:
            out[n] = _INT
        elif _STR in ks and _INT not in ks:
            out[n] = _STR
        elif _RECORD in ks and _INT not in ks:
            out[n] = _RECORD
        elif _ITER in ks and _INT not in ks:
            out[n] = _ITER
    return out


def _typed(d, kind, name):
    """Dummy d made to take the uses of its kind, or d when it takes them already."""
    if kind is None:
        return d
    td = _type(d)
    if kind == _INT:
        if td in (_int, _float):
            return d
        if _isinstance(d, _str) and d.isdigit():
            return _int(d)
        return 2024 if "year" in (name or "").lower() else 1
    if kind == _STR:
        # a string that also takes a record's uses (x["id"] beside x.strip())
        return _PStr(d) if _type(d) is _str else (d if _isinstance(d, _str) else _PStr("test"))
    if kind == _DICT:
        if _isinstance(d, _dict) and (_len(d) or td is not _ADict):
            return d
        return _ADict({"test": _PStr("test")})
    if kind == _RECORD:
        if _type(d) is _str:
            return _PStr(d)
        if _isinstance(d, (_PStr, _dict, _Any)):
            return d
        return _ADict({"test": _PStr("test")})
    if kind == _ITER:
        if _isinstance(d, (_list, _tuple, _dict, _str, _set, _Any)):
            return d
        return [_PStr("test")]
    if kind == _REQUEST:
        return _Request()
    if kind == _SPAN:
        return _OWNER_NAME
    if kind.startswith(_URL):
        return _url_holding(kind[_len(_URL):])
    return d


def _url_holding(text):
    """A URL that holds text, where the code cuts a parameter at it or searches for
    it: a repository's page when text names a host ("github.com/"), a page with an
    id after text when it is a path ("/playlist/"), a page with a path when the
    code parses the value whole (urlparse)."""
    if "://" in text:
        return text.rstrip("/") + "/" + _OWNER_NAME
    if text and "." in text.split("/", 1)[0]:
        return "https://" + text.rstrip("/") + "/" + _OWNER_NAME
    if text:
        return "https://example.com/" + text.strip("/") + "/4uLU6hMCjMI75M1A2tKUQC"
    return "https://example.com/" + _OWNER_NAME


class _Query(_Lenient, dict):
    """A request's query or form (request.GET, request.args): it holds every key
    the code asks for, as a string; a default other than None or "" is what it
    says."""

    def __contains__(self, k):
        return True

    def __missing__(self, k):
        return _PStr("test")

    def get(self, k, default=None, *a, **kw):
        if dict.__contains__(self, k):
            return dict.__getitem__(self, k)
        if default is None or default == "":
            return _PStr("test")
        return default

    def getlist(self, k, *a, **kw):
        return [_PStr("test")]


class _Request(_Any):
    """A web framework's request whose query the code reads: a stub with a query
    (_Query) in each of the attributes that hold one."""

    __slots__ = ()

    def __getattr__(self, name):
        if name in _QUERY_ATTRS:
            return _Query()
        return _Any.__getattr__(self, name)


def _undefined_value(name):
    """What an undefined global is bound to by its uses: a number, a string, a
    dict with an item; else None (a permissive stub)."""
    kind = _global_kind(name)
    if kind == _INT or kind == _STR or kind == _DICT:
        return _typed(None, kind, name)
    return None
