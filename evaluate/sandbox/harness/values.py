"""Permissive values: what the code under test gets in place of whatever it has
no real value for (a stubbed module, an undefined name, a dummy argument, the body
of a fake response). They tolerate every use, so the code runs on to its requests.

Their class names reach the code's own error messages ("'_Any' object is not
callable") and so the reported errors; they keep the names they always had."""
import sys

_str, _type, _len, _isinstance = str, type, len, isinstance
_int, _float, _bool, _bytes = int, float, bool, bytes
_getframe = sys._getframe
_BaseException = BaseException

# How many items a stub holds (its len, what iterating it gives): one, so loops over
# stubbed data run once; the harness tries 0 (stubs are empty and falsy: the branch
# for no data, a cache miss) and 2 (the branch that needs several items) when a call
# reaches no request with one, and last _MISS: empty stubs that are also what a
# lookup that found nothing returns, None (`if cache.get(k) is None:`, `== None`).
_shape = [1]
_MISS = -1

# What a stub reads as where a path is wanted (os.path.join, Path, os.stat): the
# dummy input file, once the run has written it.
_path = ["stub"]

# The opcodes of unpacking (UNPACK_SEQUENCE, UNPACK_EX, EXTENDED_ARG), looked up
# on the first unpacking of a stub.
_UNPACK = []


def _items():
    """How many items iterating a stub gives: as many as the statement that iterates
    it unpacks (`lat, lon = stub`, `first, *rest = stub`), else _shape."""
    try:
        f = _getframe(2)  # 0: this function, 1: __iter__, 2: the code that iterates
        co, i = f.f_code.co_code, f.f_lasti
        if not _UNPACK:
            import opcode
            m = opcode.opmap
            _UNPACK.extend((m["UNPACK_SEQUENCE"], m["UNPACK_EX"], m["EXTENDED_ARG"]))
        op = co[i]
        if op == _UNPACK[0] or op == _UNPACK[1]:
            arg, j, shift = co[i + 1], i - 2, 8
            while j >= 0 and co[j] == _UNPACK[2]:
                arg |= co[j + 1] << shift
                j, shift = j - 2, shift + 8
            return arg if op == _UNPACK[0] else (arg & 0xFF) + (arg >> 8)
    except _BaseException:
        pass
    return _shape[0]


class _Lenient:
    """Mixin: any attribute a fake lacks is a permissive _Any. Dunder names stay
    missing, so protocols (iteration, pickling, copying) take their normal paths."""

    __slots__ = ()

    def __getattr__(self, name):
        if name[:2] == "__" and name[-2:] == "__":
            raise AttributeError(name)
        return _Any()


class _Any(_Lenient):
    """A value that tolerates every use: attribute, call, index, iteration, await."""

    __slots__ = ()

    def __call__(self, *a, **k):
        if _len(a) == 1 and not k and _type(a[0]).__name__ in ("function", "type", "method", "coroutine"):
            return a[0]  # a decorator from a stubbed library keeps the function
        return _Any()

    def __getitem__(self, k):
        return _Any()

    def get(self, *a, **k):
        """`request.args.get("q", "")`: a scalar default gives the value its type, so
        code that quotes, joins or compares it gets a str (an empty default reads as
        set, as environment lookups do); no default, None or a container: a stub."""
        d = a[1] if _len(a) >= 2 else k.get("default")
        if d is None and _shape[0] == _MISS:
            return None  # a cache miss: `if cache.get(key) is None:`
        t = _type(d)
        if t is _str:
            return d or "test"
        if t is _bytes:
            return d or b"test"
        if t in (_int, _float, _bool):
            return d
        return _Any()

    def __setitem__(self, k, v):
        pass

    def __delitem__(self, k):
        pass

    def __setattr__(self, k, v):
        pass

    def __iter__(self):
        return iter([_Any() for _ in range(_items())])

    def __len__(self):
        return _shape[0] if _shape[0] > 0 else 0

    def __bool__(self):
        return _shape[0] > 0  # an empty stub is falsy: `if cached:` takes the branch that fetches

    def __contains__(self, k):
        return False

    def __str__(self):
        return "stub"

    __repr__ = __str__

    def __format__(self, spec):
        return "stub"

    def __int__(self):
        return 0

    __index__ = __int__

    def __float__(self):
        return 0.0

    def __eq__(self, o):
        # `if request.method == "POST":` takes the branch that does the work; a stub
        # is a value, though, never None (`if coords != None:` goes on), but in a
        # cache miss it is what a lookup that found nothing returns (`if cached ==
        # None:` fetches)
        return o is not None or _shape[0] == _MISS

    def __ne__(self, o):
        return not self.__eq__(o)

    def __fspath__(self):
        return _path[0]

    def __lt__(self, o):
        return False

    __le__ = __gt__ = __ge__ = __lt__

    def __hash__(self):
        return id(self)

    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False

    async def __aenter__(self):
        return self

    async def __aexit__(self, *a):
        return False

    def __await__(self):
        # what awaiting a stub gives is a stub of its kind (`msg = await bot.reply(...)`)
        if False:
            yield
        return _type(self)()

    def __aiter__(self):
        return _AIter(_items())

    def __mro_entries__(self, bases):
        return (_StubBase,)

    def _op(self, *a):
        return _Any()

    def __add__(self, o):
        # a stub joined to a string is a string: `BASE + "/search"` keeps its path,
        # `"https://host/" + name` its host
        return "stub" + o if _isinstance(o, _str) else _Any()

    def __radd__(self, o):
        return o + "stub" if _isinstance(o, _str) else _Any()

    __sub__ = __rsub__ = __mul__ = __rmul__ = _op
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _op
    __pow__ = __rpow__ = __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = _op
    __neg__ = __pos__ = __abs__ = __invert__ = __matmul__ = __rmatmul__ = _op
    __lshift__ = __rlshift__ = __rshift__ = __rrshift__ = _op


class _Free(_Any):
    """What a global name the code reads and never defines is bound to: a stub
    that, in a cache miss (_MISS), returns None when called, as a lookup helper
    that found nothing does (`if check_cache(key) is None:`)."""

    __slots__ = ()

    def __call__(self, *a, **k):
        if _shape[0] == _MISS and not (_len(a) == 1 and not k and _type(a[0]).__name__ in ("function", "type", "method")):
            return None
        return _Any.__call__(self, *a, **k)


class _AIter:
    """What `async for` over a stub iterates: n stubs."""

    __slots__ = ("n",)

    def __init__(self, n):
        self.n = n

    def __aiter__(self):
        return self

    async def __anext__(self):
        if self.n <= 0:
            raise StopAsyncIteration
        self.n -= 1
        return _Any()


class _PStr(_str):
    """A dummy string that also takes the uses of a record: a missing attribute or a
    string key is a stub (`for item in items: item["id"]`), so one element serves
    code that expects strings and code that expects records."""

    __slots__ = ()

    def __getattr__(self, name):
        if name[:2] == "__" and name[-2:] == "__":
            raise AttributeError(name)
        return _Any()

    def __getitem__(self, k):
        if _isinstance(k, _str):
            return _Any()
        return _str.__getitem__(self, k)


class _StubBase(_Lenient):
    """The base class a class gets when it derives from a stubbed library class."""

    def __init__(self, *a, **k):
        pass

    def __init_subclass__(cls, **k):
        pass


class _ADict(_Lenient, dict):
    """A dict that answers every missing key: configuration passed as a dummy."""

    def __missing__(self, k):
        return _PStr("test")


ModuleType = _type(sys)


class _StubModule(_Lenient, ModuleType):
    """A module that is not installed: every attribute is a permissive stub."""


def _module(name, attrs, package=False):
    m = _StubModule(name)
    m.__dict__.update(attrs)
    if package:
        m.__path__ = []
    return m
