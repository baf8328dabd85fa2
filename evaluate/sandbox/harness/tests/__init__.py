"""Unit tests of the harness on its own, with the standard library's unittest only.

Run from evaluate/sandbox (the Go test TestHarnessPythonUnit does):

    python3 -I -S -B -m unittest discover -s harness/tests -t .

The modules are imported as the package "harness"; nothing here installs the
import hooks or the audit hook in the test process, or sets its limits: what
needs them runs the harness in a child process (test_entry).
"""
