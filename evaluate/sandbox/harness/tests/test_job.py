"""Tests of taking a job: its fields, the report channel moved out of reach, and
the job file read once and removed."""
import os

from .. import guard, job
from ..report import _send
from .support import HarnessTest


class SetupTest(HarnessTest):
    def test_setup(self):
        r, w = os.pipe()
        self.addCleanup(os.close, r)
        job.setup(w, self.scratch, ["5", "1024", "2048", "64", "32"], "N1\nfetch\nimport requests\nx = 1\n")
        self.addCleanup(os.close, job.report_fd)
        self.assertEqual((job.nonce, job.function, job.code), ("N1", "fetch", "import requests\nx = 1\n"))
        self.assertEqual((job.cpu_seconds, job.address_space, job.file_size, job.open_files, job.processes),
                         (5, 1024, 2048, 64, 32))
        self.assertEqual(job.scratch, self.scratch)
        self.assertEqual(guard._SCR, self.scratch)  # already absolute and normal
        self.assertTrue(200 <= job.report_fd < 900)
        with self.assertRaises(OSError):
            os.fstat(w)  # the descriptor the code could guess is closed
        _send("end", {"status": "ok"})
        self.assertEqual(os.read(r, 100), b'N1\tend\t{"status":"ok"}\n')

    def test_short_job(self):
        r, w = os.pipe()
        self.addCleanup(os.close, r)
        job.setup(w, self.scratch, ["0"] * 5, "only a nonce line\n")
        self.addCleanup(os.close, job.report_fd)
        self.assertEqual((job.nonce, job.function, job.code), ("", "", ""))

    def test_read_job_removes_the_file(self):
        path = os.path.join(self.scratch, "job.txt")
        with open(path, "w") as f:
            f.write("N\n\ncode ✓")
        self.assertEqual(job.read_job(self.scratch), "N\n\ncode ✓")
        self.assertFalse(os.path.exists(path))
