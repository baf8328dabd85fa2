"""Compiles the harness package once per sandbox, from source:

    python -I -S -B build.py

writes the bundle __main__ loads, a marshalled tuple of (module name, code object)
for __init__ and every module it lists, and compiles __main__ itself into
__main__.pyc."""
import marshal
import os
import py_compile
import sys

BUNDLE = "bundle"  # as __main__.BUNDLE


def build(here):
    """Compiles the package in directory here."""
    init = _compile(here, "__init__")
    names = {}
    exec(init, names)
    mods = [("__init__", init)]
    for name in names["MODULES"] + names["BATCH"] + (names["SERVER"],):
        mods.append((name, _compile(here, name)))
    tmp = os.path.join(here, BUNDLE + ".tmp")
    with open(tmp, "wb") as f:
        f.write(marshal.dumps(tuple(mods)))
    os.replace(tmp, os.path.join(here, BUNDLE))
    src = os.path.join(here, "__main__.py")
    py_compile.compile(src, cfile=src + "c", doraise=True)


def _compile(here, name):
    path = os.path.join(here, name + ".py")
    with open(path, "rb") as f:
        return compile(f.read(), path, "exec", dont_inherit=True)


if __name__ == "__main__":
    build(os.path.dirname(os.path.abspath(sys.argv[0])))
