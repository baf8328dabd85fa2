# The compile server of package pycompile: it reports the interpreter, then reads
# sources (a line with the byte count, then the bytes) and answers each with one
# JSON line. It only compiles: nothing it reads is run.
import json
import sys

out = sys.stdout
inp = sys.stdin.buffer
out.write(json.dumps({"version": "%d.%d.%d" % tuple(sys.version_info[:3]), "executable": sys.executable}) + "\n")
out.flush()
while True:
    line = inp.readline()
    if not line:
        break
    n = int(line)
    src = inp.read(n).decode("utf-8", "surrogateescape")
    try:
        compile(src, "<function>", "exec", dont_inherit=True)
        r = {"ok": True}
    except SyntaxError as e:
        r = {"ok": False, "error": "%s: %s" % (type(e).__name__, e.msg), "line": e.lineno or 0}
    except (ValueError, MemoryError, RecursionError) as e:
        r = {"ok": False, "error": "%s: %s" % (type(e).__name__, e), "line": 0}
    out.write(json.dumps(r) + "\n")
    out.flush()
