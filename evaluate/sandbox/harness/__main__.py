"""Entry point of the harness. The Go side starts it as

    python -I -S -B __main__.pyc REPORT_FD SCRATCH CPU_S AS_BYTES FSIZE_BYTES NOFILE NPROC

for one job, or as ``__main__.pyc serve CTRL_FD ns|off`` for a fork server. A job
is read from SCRATCH/job.txt and removed before the code runs: a nonce line, the
name of the function to run (may be empty), then the code.

``__main__.py build`` is run once per sandbox: it compiles the package into
BUNDLE (the code objects of its modules, marshalled in load order) and this file
into ``__main__.pyc``.

Isolated mode puts no directory on sys.path, so this file loads the package that
sits next to it itself, as PACKAGE, a name no generated code imports: from the
bundle when it is there (one read and no import finder at work; importing a dozen
modules through the path finder costs every exec'd run ~9% more instructions),
else from the sources.
"""
import sys
import posix
import marshal

PACKAGE = "_sccg_harness"
BUNDLE = "bundle"
ModuleType = type(sys)


def main(argv):
    here = __file__.rpartition("/")[0] or "."
    if argv[1:2] == ["build"]:
        build(here)
        return
    core = load(here).core
    if len(argv) >= 4 and argv[1] == "serve":
        core._serve(int(argv[2]), argv[3] == "ns")
    else:
        core._setup(int(argv[1]), argv[2], argv[3:8], core._read_job(argv[2]))
        core._run()


def load(here):
    """Loads the package in directory here, with all its modules, as PACKAGE."""
    try:
        mods = marshal.loads(_read(here + "/" + BUNDLE))
    except (OSError, EOFError, ValueError, TypeError):
        return _load_sources(here)
    pkg = None
    for name, code in mods:  # __init__ first
        m = ModuleType(PACKAGE if pkg is None else PACKAGE + "." + name)
        m.__file__ = code.co_filename
        m.__package__ = PACKAGE
        if pkg is None:
            m.__path__ = [here]
            pkg = m
        sys.modules[m.__name__] = m
        exec(code, m.__dict__)
        if m is not pkg:
            setattr(pkg, name, m)
    return pkg


def _load_sources(here):
    boot, ext = sys.modules["_frozen_importlib"], sys.modules["_frozen_importlib_external"]
    spec = ext.spec_from_file_location(PACKAGE, here + "/__init__.py", submodule_search_locations=[here])
    pkg = boot.module_from_spec(spec)
    sys.modules[PACKAGE] = pkg
    spec.loader.exec_module(pkg)
    for name in pkg.MODULES:
        __import__(PACKAGE + "." + name)
    return pkg


def build(here):
    """Compiles the package in directory here into BUNDLE, and this file."""
    import os
    import py_compile
    mods = [("__init__", _compile(here + "/__init__.py"))]
    init = {}
    exec(mods[0][1], init)
    for name in init["MODULES"]:
        mods.append((name, _compile(here + "/" + name + ".py")))
    tmp = here + "/" + BUNDLE + ".tmp"
    with open(tmp, "wb") as f:
        f.write(marshal.dumps(tuple(mods)))
    os.replace(tmp, here + "/" + BUNDLE)
    py_compile.compile(here + "/__main__.py", cfile=here + "/__main__.pyc", doraise=True)


def _compile(path):
    return compile(_read(path), path, "exec", dont_inherit=True)


def _read(path):
    fd = posix.open(path, posix.O_RDONLY)
    try:
        chunks = []
        while True:
            b = posix.read(fd, 1 << 20)
            if not b:
                return b"".join(chunks)
            chunks.append(b)
    finally:
        posix.close(fd)


if __name__ == "__main__":
    main(sys.argv)
