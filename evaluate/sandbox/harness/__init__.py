"""The sccg virtual-execution harness: runs one piece of untrusted generated code
with recorders in place of the HTTP client libraries and reports, over a pipe,
every request it tried to send.

The Go package evaluate/sandbox embeds this directory, writes it into a private
directory, compiles it once (``__main__.py build``) and starts ``__main__`` for
each job or as a fork server; ``__main__`` says how.

MODULES are the package's modules in load order: each imports only modules
before it, so they can be executed one after another without an import finder.
"""

MODULES = ("core",)
