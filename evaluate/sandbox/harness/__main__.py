"""Entry point of the harness. The Go side starts it as

    python -I -S -B __main__.pyc REPORT_FD JOB_FD SCRATCH CPU_S AS_BYTES FSIZE_BYTES NOFILE NPROC

for one job, or as ``__main__.pyc serve CTRL_FD SCRATCH [batch|own]`` for a fork server
(whose children run batches, or, beside a server of batches, only what a batch does
not take; see server). A job
is read from the memory file JOB_FD, which is emptied before the code runs: a nonce
line, the name of the function to run (may be empty), then the code.

Isolated mode puts no directory on sys.path, so this file loads the package that
sits next to it itself, as PACKAGE, a name no generated code imports: from BUNDLE,
which build.py writes once per sandbox, else from the sources. (A dozen modules
imported through the path finder would cost every exec'd run ~9% more
instructions than the single file the harness used to be; from the bundle, ~2%.)
"""
import sys
import posix
import marshal

PACKAGE = "_sccg_harness"
# A marshalled tuple of (module name, code object): __init__, MODULES, BATCH, SERVER.
BUNDLE = "bundle"
ModuleType = type(sys)


def main(argv):
    here = __file__.rpartition("/")[0] or "."
    if len(argv) >= 4 and argv[1] == "serve":
        pkg = load(here, server=True)
        pkg.server._serve(int(argv[2]), argv[3], argv[4] if len(argv) > 4 else "")
    else:
        pkg = load(here)
        jfd = int(argv[2])
        text = pkg.job.read_job(jfd)
        posix.close(jfd)
        pkg.job.setup(int(argv[1]), argv[3], argv[4:9], text)
        pkg.run._run()


def load(here, server=False):
    """Loads the package in directory here as PACKAGE with the modules a job needs
    (MODULES) and, for a fork server, those of a batch child (BATCH) and its own
    (SERVER)."""
    try:
        bundle = dict(marshal.loads(_read(here + "/" + BUNDLE)))
    except (OSError, EOFError, ValueError, TypeError):
        return _load_sources(here, server)
    pkg = ModuleType(PACKAGE)
    pkg.__path__ = [here]
    _exec(pkg, bundle["__init__"])
    for name in pkg.MODULES + (pkg.BATCH + (pkg.SERVER,) if server else ()):
        m = ModuleType(PACKAGE + "." + name)
        _exec(m, bundle[name])
        setattr(pkg, name, m)
    return pkg


def _exec(m, code):
    m.__file__ = code.co_filename
    m.__package__ = PACKAGE
    sys.modules[m.__name__] = m
    exec(code, m.__dict__)


def _load_sources(here, server):
    boot, ext = sys.modules["_frozen_importlib"], sys.modules["_frozen_importlib_external"]
    spec = ext.spec_from_file_location(PACKAGE, here + "/__init__.py", submodule_search_locations=[here])
    pkg = boot.module_from_spec(spec)
    sys.modules[PACKAGE] = pkg
    spec.loader.exec_module(pkg)
    for name in pkg.MODULES + (pkg.BATCH + (pkg.SERVER,) if server else ()):
        __import__(PACKAGE + "." + name)
    return pkg


def _read(path):
    fd = posix.open(path, posix.O_RDONLY)
    try:
        n, chunks = posix.fstat(fd).st_size + 1, []
        while True:
            b = posix.read(fd, n)
            if not b:
                return b"".join(chunks)
            chunks.append(b)
    finally:
        posix.close(fd)


if __name__ == "__main__":
    main(sys.argv)
