"""Whether a completion is tame: safe to run in a batch, one after another in one
sandboxed child, because by its syntax tree alone it cannot reach what the next
completion finds. A batch child checks every job with _wild before any of it
runs; a job that is not tame goes back to the Go side, which runs it in a child
of its own. What the check cannot see (an alias of a module whose attribute is
then set, a lazy import inside the standard library) the batch child's store
check and its verification after each job catch instead (see batch)."""
import sys as _sys
import _ast

from .facts import _walk

_type, _len, _isinstance, _getattr = type, len, isinstance, getattr
_id = object.__hash__  # id() without its audit event (see batch._id)
_str = str

# Standard modules tame code may import: what generated request code uses, none of
# which hands out the interpreter's or the process's state. Anything else of the
# standard library (sys, gc, inspect, ctypes, threading, multiprocessing, signal,
# subprocess, atexit, importlib, asyncio, socket, pickle, operator, ...) is not
# tame; a module outside the standard library is a stub or a recorder.
_ALLOW = frozenset((
    "json", "os", "datetime", "time", "urllib", "base64", "hashlib", "hmac", "logging", "typing", "re",
    "random", "math", "uuid", "collections", "functools", "itertools", "dataclasses", "enum", "string",
    "textwrap", "copy", "csv", "io", "pathlib", "traceback", "html", "http", "email", "mimetypes",
    "secrets", "statistics", "fractions", "abc", "contextlib", "warnings", "argparse", "calendar",
    "binascii", "zlib", "gzip", "pprint", "numbers", "xml", "shlex", "ast", "bisect", "heapq",
    "configparser", "struct", "difflib", "unicodedata", "glob", "fnmatch", "urllib3", "requests",
    "httpx", "aiohttp", "__future__", "decimal", "shutil", "ssl", "posixpath", "genericpath",
))

# Functions of allowed modules that change a registry the module keeps (which a
# batch neither compares nor puts back): code that names one is not tame.
_REGISTRIES = frozenset((
    "registerDOMImplementation", "map_to_type", "register",
    "register_archive_format", "unregister_archive_format", "register_unpack_format", "unregister_unpack_format",
    "register_dialect", "unregister_dialect", "field_size_limit", "register_namespace", "add_charset", "add_alias",
    "add_codec", "addLevelName", "setLoggerClass", "setLogRecordFactory", "global_enum", "uses_netloc",
    "uses_relative", "uses_params", "uses_query", "uses_fragment", "non_hierarchical", "scheme_chars", "tzset",
    "putenv", "unsetenv", "add_type", "umask", "pthread_sigmask", "reconfigure", "detach",
))

# What hands out frames (and through them the harness's own state) or reads
# attributes by a name built at run time, and a mapping whose stores land in
# another: names tame code may not use.
_ACCESSORS = frozenset(("walk_stack", "walk_tb", "currentframe", "get_field", "attrgetter", "methodcaller",
                     "setitem", "delitem", "ChainMap", "settrace", "setprofile"))

# Methods that change their object in place: tame code only calls them (the
# batch checks the object of each call), never holds one (f = x.append).
_MUTATORS = frozenset(("append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse", "update",
                       "setdefault", "popitem", "add", "discard", "difference_update", "intersection_update",
                       "symmetric_difference_update", "appendleft", "extendleft", "popleft", "rotate",
                       "addFilter", "removeFilter", "close", "move_to_end"))

# argparse's parsers, which set the attributes of any namespace object given.
_PARSE_INTO = frozenset(("parse_args", "parse_known_args", "parse_intermixed_args", "parse_known_intermixed_args"))

# Dunder methods a class of the code's may define: none of them changes how a name
# is looked up or how the code's objects answer the harness.
_DUNDER_DEF = frozenset((
    "__init__", "__repr__", "__str__", "__enter__", "__exit__", "__aenter__", "__aexit__", "__call__", "__eq__",
    "__ne__", "__hash__", "__lt__", "__le__", "__gt__", "__ge__", "__iter__", "__next__", "__aiter__",
    "__anext__", "__len__", "__getitem__", "__setitem__", "__delitem__", "__contains__", "__post_init__",
    "__bool__", "__new__", "__format__", "__add__", "__sub__", "__mul__", "__truediv__", "__await__",
    "__getattr__", "__setattr__", "__init_subclass__", "__class_getitem__", "__missing__",
    "__reversed__", "__radd__", "__iadd__", "__neg__", "__abs__", "__int__", "__float__", "__index__",
    "__del__", "__copy__", "__deepcopy__", "__or__", "__and__", "__xor__", "__ror__", "__rand__", "__mod__",
    "__floordiv__", "__pow__", "__rsub__", "__rmul__", "__rtruediv__", "__isub__", "__imul__", "__ior__",
    "__getstate__", "__setstate__", "__reduce__", "__set_name__", "__get__", "__set__", "__delete__",
    "__dir__", "__round__", "__complex__", "__bytes__", "__invert__", "__pos__", "__matmul__",
))

# Attribute names under which a module of the allow-list holds one outside it
# that would hand out frames, builtins, arbitrary calls or process state
# (logging.sys, dataclasses.inspect, copy.weakref): refused on anything but a
# module named as such (_module_root), whose chain _chain follows, since an alias of the module
# (l = logging; l.sys) escapes that check. Modules that hand out nothing of the kind (stat, errno, keyword,
# pyexpat's errors and model) are left out: their names are common words.
_OFF_LIST = frozenset(("sys", "_sys", "builtins", "bltns", "inspect", "operator", "posix", "_posix", "os", "_os",
                       "_thread", "threading", "pickle", "weakref", "types", "_types", "copyreg", "socket",
                       "_socket", "gc", "importlib", "ctypes", "subprocess", "signal", "atexit", "linecache",
                       "codecs", "tempfile", "_imp", "marshal", "runpy", "pdb"))

# Imports within an allowed package that are not tame themselves.
_DENY_SUB = frozenset(("logging.config", "http.server", "xml.etree.cElementTree"))

# What of os tame code may touch: reads of the environment, path helpers and the
# file operations the guard confines to the scratch directory (which a batch
# empties after each job).
_OS_ATTRS = frozenset(("environ", "getenv", "path", "sep", "linesep", "name", "getcwd", "curdir", "pardir",
                       "pathsep", "extsep", "PathLike", "makedirs", "mkdir", "remove", "unlink", "rmdir",
                       "listdir", "scandir", "walk", "stat", "rename", "replace", "fspath", "getpid"))

# What of sys tame code may touch: leaving (SystemExit, which the harness catches
# as a child of its own does), the standard streams (the batch checks what a call
# of a method that changes its object does to them, and compares them after each
# job), the arguments (the harness's own for each job) and constants.
_SYS_ATTRS = frozenset(("exit", "argv", "stdout", "stderr", "stdin", "version", "version_info", "platform",
                        "maxsize", "byteorder", "hexversion", "float_info", "int_info"))

# Builtins that reach code, namespaces or the interpreter. (exit and quit are not
# builtins in the sandbox, which skips site: the harness's stub for an undefined
# name answers them, in a batch as in a child of its own.)
_NO_CALL = frozenset(("exec", "eval", "compile", "__import__", "globals", "locals", "vars", "breakpoint",
                      "setattr", "delattr", "memoryview", "classmethod"))

# Modules tame code may import only under their own name, and use only through
# the attributes listed (an alias would escape that check).
_BY_NAME = {"os": _OS_ATTRS, "sys": _SYS_ATTRS}

# getattr and hasattr are tame with a constant name that is not a dunder.
_CONST_NAME = frozenset(("getattr", "hasattr"))

# Builtins tame code may only call, never hold: held, they are called where the
# check cannot see it (`s = setattr`, `map(setattr, ...)`, `partial(getattr, m)`).
_NO_VALUE = frozenset(("exec", "eval", "compile", "globals", "locals", "vars", "breakpoint", "setattr",
                       "delattr", "getattr"))

# Dunder names tame code may read.
_DUNDER_OK = frozenset(("__name__", "__file__", "__doc__"))

# Attributes of frames, tracebacks, generators and code objects: the way from any
# exception or generator to the harness's namespaces.
_INTERNAL = ("f_", "tb_", "gi_", "cr_", "ag_", "co_")

# Substrings of the code that make the harness itself import a module in the
# child (stubs._prepare_stdlib, run._run_coro), which a batch would then share.
_MENTIONS = ("asyncio", "sqlite3")


def _dunder(s):
    return _len(s) > 4 and s[:2] == "__" and s[-2:] == "__"


def _wild(tree, code, nodes=None):
    """Why the module tree (of source code) is not tame; "" when it is. nodes:
    the tree's nodes as facts._walk lists them, when the caller has them."""
    for m in _MENTIONS:
        if m in code:
            return "mentions " + m
    Import, ImportFrom, Attribute, Name, Call = _ast.Import, _ast.ImportFrom, _ast.Attribute, _ast.Name, _ast.Call
    Global, Constant, Subscript = _ast.Global, _ast.Constant, _ast.Subscript
    Assign, AugAssign, AnnAssign, Delete = _ast.Assign, _ast.AugAssign, _ast.AnnAssign, _ast.Delete
    imported, aliased = set(), set()
    unused = {}  # names bound by an import that is tame only while they are never used
    if nodes is None:
        nodes = _walk(tree)
    binds, why = _bindings(nodes)
    if why:
        return why
    for n in nodes:
        t = _type(n)
        if t is Import or t is ImportFrom:
            if t is ImportFrom:
                if n.level:  # a module of the code's own package: a stub
                    continue
                names = [n.module or ""]
            else:
                names = [a.name for a in n.names]
            why_of = {}
            for full in names:
                top = full.split(".", 1)[0]
                if full == "sys":
                    continue  # as os: only the attributes of _SYS_ATTRS (see below)
                if (top in _STDLIB and top not in _ALLOW) or full in _DENY_SUB or top == "":
                    why_of[full] = "imports " + full
                    # importing a module already loaded only binds a name: tame
                    # while the code never uses it
                    if full not in _sys.modules:
                        return why_of[full]
            for a in n.names:
                # the reason of the module this name comes from (import os, sys: os is tame)
                wild = why_of.get(n.module or "" if t is ImportFrom else a.name, "")
                if a.name == "*":
                    if wild:
                        return wild
                    continue
                bound = (a.asname or a.name).split(".", 1)[0]
                imported.add(bound)
                if a.asname or t is ImportFrom:
                    aliased.add(bound)  # not the module's own name: _chain cannot follow it
                if wild:
                    unused[bound] = wild
                if t is ImportFrom and n.module in _BY_NAME and a.name not in _BY_NAME[n.module]:
                    return "imports %s.%s" % (n.module, a.name)
                if t is Import and a.name in _BY_NAME and a.asname and a.asname != a.name:
                    return "imports %s as %s" % (a.name, a.asname)
                if a.name in _REGISTRIES or a.name in _ACCESSORS:
                    return "imports " + a.name
                if t is ImportFrom and n.module:
                    # from typing import operator: a module the allow-list keeps out
                    m = _sys.modules.get(n.module)
                    v = m.__dict__.get(a.name) if _type(m) is _ModuleType else None
                    if _type(v) is _ModuleType and _getattr(v, "__name__", "").split(".", 1)[0] not in _ALLOW:
                        return "imports %s from %s" % (a.name, n.module)
    by_names = {m: 0 for m in _BY_NAME}  # the loads of os and sys, and of them those that read an attribute
    by_attrs = {m: 0 for m in _BY_NAME}
    callees = {_id(n.func) for n in nodes if _type(n) is Call}
    dynamic = _constant_imports(nodes)
    for n in nodes:
        t = _type(n)
        if _id(n) in dynamic:
            continue
        if t is Attribute:
            a = n.attr
            if a in _ACCESSORS:
                return "uses " + a
            if a in _MUTATORS and _id(n) not in callees:
                return "holds %s, a method that changes its object" % a
            if a[:1] == "_" and not _dunder(a) and _type(n.ctx) is not _ast.Load and not _on_self(n):
                return "sets the private attribute " + a
            by = n.value.id if _type(n.value) is Name and n.value.id in _BY_NAME else None
            if by is not None:
                by_attrs[by] += 1
            if (_dunder(a) and not (a in _DUNDER_OK and _type(n.ctx) is _ast.Load)) or a.startswith(_INTERNAL):
                return "attribute " + a
            if by is not None and a not in _BY_NAME[by]:
                return "%s.%s" % (by, a)
            if a in _REGISTRIES:
                return "uses " + a
            if a in _OFF_LIST and _module_root(n, imported - aliased, binds, dynamic) is None:
                return "reads %s, which names a module outside the allow-list" % a
            why = _chain(n, imported, binds, dynamic)
            if why:
                return why
        elif t is Name:
            if n.id in _ACCESSORS:
                return "uses " + n.id
            if _dunder(n.id) and n.id not in _DUNDER_OK:
                return "name " + n.id
            if n.id in unused:
                return unused[n.id]
            if n.id in _NO_VALUE and _id(n) not in callees:
                return "uses %s as a value" % n.id
            if n.id in _STDLIB and n.id not in _ALLOW and n.id not in binds:
                # the harness would import it for the code (stubs._Globals)
                return "uses %s without importing it" % n.id
            if n.id in _BY_NAME:
                if _type(n.ctx) is not _ast.Load:
                    return "rebinds " + n.id
                by_names[n.id] += 1
        elif t is Call:
            f = n.func
            if _type(f) is Attribute and f.attr in _PARSE_INTO and \
                    (_len(n.args) > 1 or any(k.arg == "namespace" for k in n.keywords)):
                return "parses arguments into an object of its choosing"
            if _type(f) is Name:
                if f.id in _NO_CALL:
                    return "calls " + f.id
                if f.id in _CONST_NAME:
                    if _len(n.args) < 2 or _type(n.args[1]) is not Constant or _type(n.args[1].value) is not _str \
                            or _dunder(n.args[1].value) or n.args[1].value.startswith(_INTERNAL) \
                            or n.args[1].value in _REGISTRIES:
                        return f.id + " with a name that is not a constant"
        elif t is Constant and _type(n.value) is _str and "_" in n.value:
            why = _named_internals(n.value)
            if why:
                return why
        elif t is Global:
            for x in n.names:
                if x in imported:
                    return "global " + x
        elif t is AugAssign and _type(n.target) is not Name and not _plain_target(n.target):
            return "augments a computed target"
        elif t is Assign or t is AugAssign or t is AnnAssign or t is Delete:
            targets = n.targets if t is Assign or t is Delete else [n.target]
            for tg in targets:
                why = _shared_target(tg, imported)
                if why:
                    return why
    for m in _BY_NAME:
        if by_names[m] != by_attrs[m]:  # bare os (passed around, aliased) escapes the attribute check
            return m + " used as a value"
    return ""


def _constant_imports(nodes):
    """The identities of the calls __import__("m") among nodes (and of their
    __import__ names) that import as `import m` would and are read one attribute
    at once, as tame as m.attr: m a module of the allow-list, not a package's
    module, the attribute not private (and of os, one tame code may touch: see
    _BY_NAME)."""
    out = set()
    Call, Name, Constant = _ast.Call, _ast.Name, _ast.Constant
    for n in nodes:
        if _type(n) is not _ast.Attribute or _type(n.ctx) is not _ast.Load:
            continue
        c = n.value
        if _type(c) is not Call or _type(c.func) is not Name or c.func.id != "__import__" or c.keywords or \
                _len(c.args) != 1 or _type(c.args[0]) is not Constant or _type(c.args[0].value) is not _str:
            continue
        m = c.args[0].value
        if m in _ALLOW and m not in _DENY_SUB and n.attr[:1] != "_" and (m not in _BY_NAME or n.attr in _BY_NAME[m]):
            out.add(_id(c))
            out.add(_id(c.func))
    return out


def _module_root(n, imported, binds, dynamic):
    """Attribute chain n as read from a module by its name: the attributes read,
    outermost first, the module's name and the chain's root node; None when the
    chain starts elsewhere. The name is imported (as imported: those bound by
    an import), a standard module the harness would import for the code, or
    __import__("m") among dynamic."""
    names = [n.attr]
    root = n.value
    while _type(root) is _ast.Attribute:
        names.append(root.attr)
        root = root.value
    if _type(root) is _ast.Call and _id(root) in dynamic:
        r = root.args[0].value  # __import__("m"): as `import m` binds m
    elif _type(root) is _ast.Name and (root.id in imported or root.id in _STDLIB and root.id not in binds):
        r = root.id
    else:
        return None
    names.reverse()
    return names, r, root


def _chain(n, imported, binds, dynamic=()):
    """Why attribute n, read from a module (imported, or a standard one the harness
    would import for the code), is not tame: a private attribute of the module or
    of anything under it, or a module outside the allow-list reached through the
    module's attributes (logging.sys, dataclasses.inspect), or os reached so with
    an attribute outside _OS_ATTRS."""
    found = _module_root(n, imported, binds, dynamic)
    if found is None:
        return ""
    names, r, root = found
    if any(a[:1] == "_" and not _dunder(a) for a in names):
        return "uses a private attribute under " + r
    mod = _sys.modules.get(r) if r not in imported or r in _sys.modules or _type(root) is _ast.Call else None
    for i, a in enumerate(names):
        if mod is None or _type(mod) is not _ModuleType:
            return ""
        v = mod.__dict__.get(a)
        if _type(v) is not _ModuleType:
            return ""
        top = _getattr(v, "__name__", "").split(".", 1)[0]
        if top not in _ALLOW:
            return "reaches %s through %s" % (top, r)
        if top == "os" and i + 1 < _len(names) and names[i + 1] not in _OS_ATTRS:
            return "reaches os.%s through %s" % (names[i + 1], r)
        mod = v
    return ""


def _plain_target(e):
    """Whether target e is made of names, constants, attributes and subscripts
    alone: loading it again (see batch._guard_stores) runs nothing of the code's."""
    T = _type(e)
    if T is _ast.Name or T is _ast.Constant:
        return True
    if T is _ast.Attribute:
        return _plain_target(e.value)
    if T is _ast.Subscript:
        return _plain_target(e.value) and _plain_target(e.slice)
    return False


def _on_self(n):
    """Whether attribute n belongs to the first parameter of a method (self, cls),
    whose private attributes are the code's own."""
    v = n.value
    return _type(v) is _ast.Name and v.id in ("self", "cls")


def _named_internals(text):
    """Why string constant text is not tame: it names a dunder or a frame's,
    traceback's or code object's attribute, which Formatter.get_field,
    operator.attrgetter and their kin would look up ("0.__globals__")."""
    for part in text.replace("[", ".").replace("]", ".").replace("{", ".").replace("}", ".").split("."):
        p = part.strip()
        if _dunder(p) and p not in _DUNDER_OK and p != "__main__":
            return "a string that names " + p
        if p in _FRAME_ATTRS:
            return "a string that names " + p
    return ""


# Attributes of frames, tracebacks and code objects, by name.
_FRAME_ATTRS = frozenset(("f_back", "f_globals", "f_locals", "f_builtins", "f_code", "tb_frame", "tb_next",
                          "gi_frame", "cr_frame", "ag_frame", "gi_code", "co_consts", "co_code"))


def _bindings(nodes):
    """The names the code binds anywhere (assigned, defined, imported, a parameter,
    caught, captured, declared), and why a binding is not tame: one that could
    hide the batch's store check (a name of the harness's; a dunder method outside
    _DUNDER_DEF, such as a metaclass's __prepare__)."""
    out = set()
    for n in nodes:
        t = _type(n)
        names = ()
        if t is _ast.Name:
            if _type(n.ctx) is not _ast.Load:
                names = (n.id,)
        elif t is _ast.FunctionDef or t is _ast.AsyncFunctionDef:
            if _dunder(n.name) and n.name not in _DUNDER_DEF:
                return out, "defines " + n.name
            names = (n.name,)
        elif t is _ast.ClassDef:
            names = (n.name,)
        elif t is _ast.arg:
            names = (n.arg,)
        elif t is _ast.alias:
            names = ((n.asname or n.name).split(".", 1)[0],)
        elif t is _ast.ExceptHandler or t is _ast.MatchAs or t is _ast.MatchStar:
            names = (n.name,) if n.name else ()
        elif t is _ast.MatchMapping:
            names = (n.rest,) if n.rest else ()
        elif t is _ast.Global or t is _ast.Nonlocal:
            names = n.names
        for x in names:
            if x[:6] == "__sccg":
                return out, "binds " + x
            out.add(x)
    return out, ""


def _shared_target(tg, imported):
    """Why assigning to (or deleting) target tg changes what is shared: an attribute
    or item of an imported module (os.environ items aside: each job has its own)."""
    T = _type(tg)
    if T is _ast.Tuple or T is _ast.List:
        for e in tg.elts:
            why = _shared_target(e, imported)
            if why:
                return why
        return ""
    if T is _ast.Starred:
        return _shared_target(tg.value, imported)
    if T is not _ast.Attribute and T is not _ast.Subscript:
        return ""
    root = tg
    while _type(root) in (_ast.Attribute, _ast.Subscript):
        root = root.value
    if _type(root) is _ast.Call and _type(root.func) is _ast.Name and root.func.id == "__import__":
        return "assigns to an attribute of __import__(...)"
    if _type(root) is not _ast.Name or root.id not in imported:
        return ""
    if T is _ast.Subscript and _type(tg.value) is _ast.Attribute and tg.value.attr == "environ" \
            and _type(tg.value.value) is _ast.Name and tg.value.value.id == "os":
        return ""
    return "assigns to an attribute of " + root.id


_STDLIB = _getattr(_sys, "stdlib_module_names", frozenset())
_ModuleType = _type(_sys)
