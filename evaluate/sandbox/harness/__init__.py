"""The sccg virtual-execution harness: runs one piece of untrusted generated code
with recorders in place of the HTTP client libraries and reports, over a pipe,
every request it tried to send.

The Go package evaluate/sandbox embeds this directory, writes it into a private
directory, compiles it once (build.py) and starts __main__ for each job or as a
fork server; __main__ says how.

Most names start with an underscore, as they did when the harness was a single
script, to keep out of the way of the code under test. Class names in particular
show up in that code's error messages ("'_Any' object is not callable"), which a
run reports, and stay as they were.
"""

# The modules a job runs with, in load order: each imports only modules before it,
# so __main__ can execute them one after another without an import finder.
MODULES = ("values", "guard", "job", "report", "capture", "recorders", "facts", "uses", "stubs", "dummies", "run")
# The modules of a batch child (batch), loaded (after MODULES) by a fork server only.
BATCH = ("tame", "batch")
# The fork server's own module, loaded (after MODULES and BATCH) by a fork server only.
SERVER = "server"
