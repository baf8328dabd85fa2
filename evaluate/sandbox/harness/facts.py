"""Static facts about the code, from its syntax tree, before any of it runs: what
it imports, defines and reads from outside itself, whether it handles errors and
checks statuses, and which definitions reach a request. Also what the dummy
arguments are made of: the string keys the code indexes with, its set-up hooks, the
keys of its dict literals and of its **kwargs lookups (the lists and dicts below,
filled in by _facts), and, read from the syntax tree only when a run needs them,
the literals each function tests its parameters against and those the code
compares input() answers with."""
import _ast
import builtins

_str, _type, _len, _isinstance, _getattr = str, type, len, isinstance, getattr
_list = list
_id = object.__hash__  # id() without its audit event (see batch._id)

# names of the calls by which a definition reaches a request (an HTTP verb, client
# or connection)
_HTTPISH = frozenset(("get", "post", "put", "patch", "delete", "head", "options", "request", "urlopen", "send",
                      "stream", "getresponse", "Request", "ClientSession", "Client", "AsyncClient", "Session",
                      "HTTPSConnection", "HTTPConnection", "PoolManager", "fetch"))


# string keys the code indexes anything with (`row["review"]`): the columns of the
# dummy input file
_sub_keys = []
# top-level functions an application runs before it serves: a FastAPI/Starlette
# lifespan (an async context manager taking the app) and startup handlers
_setup_hooks = []

# string keys of the dict literals in each definition, by function name: dummy
# values of last resort, for code that looks its input up in a table of its own
_dict_keys = {}

# string keys a definition looks up in its **kwargs mapping (`context["ds"]`,
# `opts.get("limit")`), by function name: passed as keyword arguments with dummies
_kw_keys = {}

# the syntax trees of the definitions, by function name, and of the whole code:
# what _str_tests and _answers read when they are first needed
_def_nodes = {}
_tree = []

# what a definition tests its parameters against, by function name, then parameter
# ("links[]" for the elements of a parameter it loops over): _Tests of the literals
# a dummy can be made to pass (`if "instagram.com" in link`, `kind == "video"`);
# filled in by _tests_of
_str_tests = {}


def _facts(tree):
    """The facts report for the code's syntax tree: syntax, imports, has_try,
    has_status_check, defs (functions and Class.method names), reach (the defs that
    reach a request) and free names. Fills in the tables above as it goes."""
    imports, defs = [], []
    loaded, stored = set(), set()
    Name, Store, Del, arg = _ast.Name, _ast.Store, _ast.Del, _ast.arg
    alias, ExceptHandler, Global, Nonlocal = _ast.alias, _ast.ExceptHandler, _ast.Global, _ast.Nonlocal
    has_try = has_status = False
    stack = [tree]
    Import, ImportFrom, Try = _ast.Import, _ast.ImportFrom, _ast.Try
    TryStar = _getattr(_ast, "TryStar", Try)
    Attribute, FunctionDef, AsyncFunctionDef, ClassDef = _ast.Attribute, _ast.FunctionDef, _ast.AsyncFunctionDef, _ast.ClassDef
    AST = _ast.AST
    Subscript, Constant = _ast.Subscript, _ast.Constant
    while stack:
        n = stack.pop()
        t = _type(n)
        if t is Subscript and _type(n.slice) is Constant and _type(n.slice.value) is _str:
            k = n.slice.value
            if _len(_sub_keys) < 10 and k.isidentifier() and k not in _sub_keys:
                _sub_keys.append(k)
        if t is Name:
            (stored if _type(n.ctx) in (Store, Del) else loaded).add(n.id)
        elif t is arg:
            stored.add(n.arg)
        elif t is alias:
            stored.add((n.asname or n.name).split(".", 1)[0])
        elif t in (FunctionDef, AsyncFunctionDef, ClassDef):
            stored.add(n.name)
        elif t is ExceptHandler and n.name:
            stored.add(n.name)
        elif t is Global or t is Nonlocal:
            stored.update(n.names)
        if t is Import:
            for a in n.names:
                imports.append(a.name)
        elif t is ImportFrom:
            imports.append("." * n.level + (n.module or ""))
        elif t is Try or t is TryStar:
            if n.handlers:
                has_try = True
        elif t is Attribute:
            if n.attr in ("status_code", "raise_for_status", "ok", "status", "is_success", "is_error", "getcode"):
                has_status = True
        for f in n._fields:
            v = _getattr(n, f, None)
            if _type(v) is _list:
                for x in v:
                    if _isinstance(x, AST):
                        stack.append(x)
            elif _isinstance(v, AST):
                stack.append(v)
    calls = {}
    for n in tree.body:
        if _type(n) in (FunctionDef, AsyncFunctionDef):
            if _is_setup_hook(n):
                _setup_hooks.append(n.name)
            defs.append(n.name)
            calls[n.name] = _called(n)
            _dict_keys[n.name] = _literal_keys(n)
            _kw_keys[n.name] = _kwarg_keys(n)
            _def_nodes.setdefault(n.name, []).append(n)
        elif _type(n) is ClassDef:
            for m in n.body:
                if _type(m) in (FunctionDef, AsyncFunctionDef):
                    defs.append(n.name + "." + m.name)
                    calls[n.name + "." + m.name] = _called(m)
                    _dict_keys[m.name] = _literal_keys(m)
                    _kw_keys[m.name] = _kwarg_keys(m)
                    _def_nodes.setdefault(m.name, []).append(m)
    _tree[:] = [tree]
    # A definition reaches a request when it calls an HTTP verb or client, or calls a
    # definition that does.
    reach = set(d for d in defs if calls[d] & _HTTPISH)
    changed = True
    while changed:
        changed = False
        for d in defs:
            if d not in reach and any(d2.rsplit(".", 1)[-1] in calls[d] for d2 in reach):
                reach.add(d)
                changed = True
    free = sorted(x for x in loaded - stored if not hasattr(builtins, x) and x not in ("__file__", "__name__"))
    return {"syntax": True, "imports": imports, "has_try": has_try, "has_status_check": has_status, "defs": defs,
            "reach": [d for d in defs if d in reach], "free": free[:100]}


def _is_setup_hook(fn):
    """Whether fn is a startup handler or a lifespan context manager."""
    for dec in fn.decorator_list:
        t = _type(dec)
        if t is _ast.Call and _type(dec.func) is _ast.Attribute and dec.func.attr == "on_event":
            a = dec.args[0] if dec.args else None
            if _type(a) is _ast.Constant and a.value == "startup":
                return True
        name = dec.id if t is _ast.Name else (dec.attr if t is _ast.Attribute else "")
        if name == "asynccontextmanager" and fn.args.args and (fn.args.args[0].arg == "app" or "lifespan" in fn.name):
            return True
    return False


def _kwarg_keys(fn):
    """The string keys fn looks up in its **kwargs mapping (at most 20)."""
    kw = fn.args.kwarg
    if kw is None:
        return ()
    name = kw.arg
    out = []
    stack = [fn]
    Subscript, Call, Attribute, Name, Constant = _ast.Subscript, _ast.Call, _ast.Attribute, _ast.Name, _ast.Constant
    while stack and _len(out) < 20:
        n = stack.pop()
        t = _type(n)
        key = None
        if t is Subscript and _type(n.value) is Name and n.value.id == name:
            key = n.slice
        elif (t is Call and _type(n.func) is Attribute and n.func.attr in ("get", "pop", "setdefault")
              and _type(n.func.value) is Name and n.func.value.id == name and n.args):
            key = n.args[0]
        if _type(key) is Constant and _type(key.value) is _str and key.value.isidentifier() and key.value not in out:
            out.append(key.value)
        stack.extend(_kids(n))
    return out


def _literal_keys(fn):
    """The first non-empty string key of each dict literal in fn, outermost first
    (at most 3)."""
    out = []
    stack = [fn]
    Dict, Constant = _ast.Dict, _ast.Constant
    while stack and _len(out) < 3:
        n = stack.pop(0)
        if _type(n) is Dict:
            for k in n.keys:
                if _type(k) is Constant and _type(k.value) is _str and k.value:
                    out.append(k.value)
                    break
        stack.extend(_kids(n))
    return out


def _called(fn):
    """The names a definition calls: plain names and attribute names."""
    out = set()
    stack = [fn]
    Call, Name, Attribute = _ast.Call, _ast.Name, _ast.Attribute
    while stack:
        n = stack.pop()
        if _type(n) is Call:
            f = n.func
            if _type(f) is Name:
                out.add(f.id)
            elif _type(f) is Attribute:
                out.add(f.attr)
        stack.extend(_kids(n))
    return out


class _Tests:
    """The literals a value is tested against: equal to (`==`, `in ("a", "b")`,
    `case "a":`), containing (`"x" in v`), starting and ending with."""

    __slots__ = ("eq", "has", "pre", "suf")

    def __init__(self):
        self.eq, self.has, self.pre, self.suf = [], [], [], []

    def add(self, kind, v):
        lst = _getattr(self, kind)
        if _len(lst) < 8 and v not in lst and (_type(v) is not _str or _len(v) <= 200):
            lst.append(v)


# string methods whose result stands for the string it was called on
_SAME_STR = frozenset(("lower", "upper", "strip", "lstrip", "rstrip", "casefold", "title", "capitalize"))


def _tests_of(name):
    """What the definitions named name test their parameters against (see
    _str_tests), read from their syntax trees on first use."""
    if name not in _str_tests:
        out = {}
        for fn in _def_nodes.get(name, ()):
            for k, v in _param_tests(fn).items():
                out.setdefault(k, v)
        _str_tests[name] = out
    return _str_tests[name]


def _param_tests(fn):
    """What fn tests each parameter (and the elements of each parameter it loops
    over) against: {name or name + "[]": _Tests}."""
    a = fn.args
    params = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
    if a.vararg is not None:
        params.append(a.vararg.arg)
    role = {p: p for p in params}  # a local name -> the parameter (or its elements) it holds
    nodes = _walk(fn)
    Name, Call, Attribute = _ast.Name, _ast.Call, _ast.Attribute
    for _ in range(3):  # aliases of aliases: `url = link.strip()`, `for l in links:`
        for n in nodes:
            t = _type(n)
            if t is _ast.For and _type(n.target) is Name:
                r = _source(n.iter, role)
                if r is not None and r[-2:] != "[]" and n.target.id not in role:
                    role[n.target.id] = r + "[]"
            elif t is _ast.Assign and _len(n.targets) == 1 and _type(n.targets[0]) is Name:
                r = _source(n.value, role)
                if r is not None and n.targets[0].id not in role:
                    role[n.targets[0].id] = r
    out = {}

    def tests(r):
        if r not in out:
            out[r] = _Tests()
        return out[r]

    for n in nodes:
        t = _type(n)
        if t is _ast.Compare:
            left = n.left
            for op, right in zip(n.ops, n.comparators):
                ot = _type(op)
                if ot in (_ast.In, _ast.NotIn):
                    r = _source(right, role)
                    if r is not None and _type(left) is _ast.Constant and _type(left.value) is _str:
                        tests(r).add("has", left.value)
                    r = _source(left, role)
                    if r is not None:
                        for v in _constants(right):
                            tests(r).add("eq", v)
                elif ot in (_ast.Eq, _ast.NotEq):
                    for x, y in ((left, right), (right, left)):
                        r = _source(x, role)
                        if r is not None and _type(y) is _ast.Constant and _type(y.value) in (_str, int, float):
                            tests(r).add("eq", y.value)
                left = right
        elif (t is Call and _type(n.func) is Attribute and n.func.attr in ("startswith", "endswith")
              and n.args):
            r = _source(n.func.value, role)
            if r is not None:
                for v in _constants(n.args[0]):
                    if _type(v) is _str:
                        tests(r).add("pre" if n.func.attr == "startswith" else "suf", v)
        elif t is _getattr(_ast, "Match", None):
            r = _source(n.subject, role)
            if r is not None:
                for c in n.cases:
                    p = c.pattern
                    if _type(p) is _ast.MatchValue and _type(p.value) is _ast.Constant:
                        tests(r).add("eq", p.value.value)
    return out


def _source(e, role):
    """The parameter (role) an expression stands for: a name that holds it, or a
    string method called on one (`link.lower()`); None for anything else."""
    Name, Call, Attribute = _ast.Name, _ast.Call, _ast.Attribute
    while _type(e) is Call and _type(e.func) is Attribute and e.func.attr in _SAME_STR:
        e = e.func.value
    if _type(e) is Name:
        return role.get(e.id)
    return None


def _constants(e):
    """The literal values of a constant or of a tuple, list or set of constants."""
    if _type(e) is _ast.Constant:
        return [e.value] if _type(e.value) in (_str, int, float) else []
    if _type(e) in (_ast.Tuple, _ast.List, _ast.Set):
        return [x.value for x in e.elts if _type(x) is _ast.Constant and _type(x.value) in (_str, int, float)]
    return []


def _kids(n):
    """The child nodes of n, in field order."""
    out = []
    AST = _ast.AST
    for fld in n._fields:
        v = _getattr(n, fld, None)
        if _type(v) is _list:
            out.extend(x for x in v if _isinstance(x, AST))
        elif _isinstance(v, AST):
            out.append(v)
    return out


# The name a batch gives the store check every store of a tame job goes through
# (batch._guard_stores): a dunder, which tame code can neither name nor bind.
_GUARD = "__sccg_store__"
# ... and the one the object of a method call that changes it goes through (and
# the name augmented in place: x += v becomes x += __sccg_call__(v, x)).
_GUARD_CALL = "__sccg_call__"


def _unguarded(e):
    """Expression e as the code wrote it: a store target's (or a changing method
    call's) object a batch wrapped in its check, unwrapped."""
    if _type(e) is _ast.Call and _type(e.func) is _ast.Name and e.func.id in (_GUARD, _GUARD_CALL) and e.args:
        return e.args[0]
    return e


def _walk(root):
    """Every node under root, in source order (each node's children as _kids
    finds them, inlined: a job walks its tree several times)."""
    out, stack = [], [root]
    pop, push, extend = stack.pop, out.append, stack.extend
    AST = _ast.AST
    while stack:
        n = pop()
        push(n)
        kids = []
        for fld in n._fields:
            v = _getattr(n, fld, None)
            if _type(v) is _list:
                kids.extend([x for x in v if _isinstance(x, AST)])
            elif _isinstance(v, AST):
                kids.append(v)
        if kids:
            kids.reverse()
            extend(kids)
    return out


def _answers():
    """What input() answers, in order: the literals the code compares its answers
    with (`if choice == "2":`, `while cmd != "q":`), those whose branch leaves the
    loop or function (break, return, exit) last, and between them a free answer
    ("test"); at most 40."""
    nodes = _walk(_tree[0]) if _tree else []
    Name, Call = _ast.Name, _ast.Call
    derived = set()  # names that hold an answer

    def holds_answer(e):
        for x in _walk(e):
            if _type(x) is Call and _type(x.func) is Name and x.func.id == "input":
                return True
            if _type(x) is Name and x.id in derived:
                return True
        return False

    for _ in range(2):
        for n in nodes:
            t = _type(n)
            if t is _ast.Assign or t is _ast.AnnAssign or t is _ast.NamedExpr:
                targets = n.targets if t is _ast.Assign else [n.target]
                if n.value is not None and holds_answer(n.value):
                    derived.update(x.id for x in targets if _type(x) is Name)
    stays, leaves = [], []
    parent_if = {}
    for n in nodes:
        if _type(n) in (_ast.If, _ast.While):
            parent_if[_id(n.test)] = n
    NotEq, NotIn = _ast.NotEq, _ast.NotIn
    for n in nodes:
        t = _type(n)
        lits = []
        if t is _ast.Compare:
            sides = [n.left] + n.comparators
            if any(holds_answer(x) for x in sides):
                for x in sides:
                    lits.extend(_constants(x))
        elif t is _getattr(_ast, "Match", None) and holds_answer(n.subject):
            for c in n.cases:
                if _type(c.pattern) is _ast.MatchValue and _type(c.pattern.value) is _ast.Constant:
                    lits.append(c.pattern.value.value)
        if not lits:
            continue
        branch = parent_if.get(_id(n))
        if branch is None:
            dest = stays
        elif _type(branch) is _ast.If:
            dest = leaves if _leaves(branch.body) else stays
        else:  # `while answer != "q":` leaves on "q"
            dest = leaves if t is _ast.Compare and _type(n.ops[0]) in (NotEq, NotIn) else stays
        for v in lits:
            v = _str(v)
            if v not in stays and v not in leaves and _len(stays) + _len(leaves) < 40:
                dest.append(v)
    return stays + ["test"] + leaves


def _leaves(body):
    """Whether a branch leaves: a statement of it is break, return, raise or a call
    of exit (`print("bye")` before it or not)."""
    for st in body:
        t = _type(st)
        if t in (_ast.Break, _ast.Return, _ast.Raise):
            return True
        if t is _ast.Expr and _type(st.value) is _ast.Call:
            f = st.value.func
            name = f.id if _type(f) is _ast.Name else (f.attr if _type(f) is _ast.Attribute else "")
            if name in ("exit", "quit", "_exit"):
                return True
    return False
