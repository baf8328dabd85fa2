"""Tests of taking a job: its fields, the report channel moved out of reach, and
the job's memory file read once and emptied."""
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

    def test_read_job_empties_the_file(self):
        fd = os.memfd_create("job")
        self.addCleanup(os.close, fd)
        os.pwrite(fd, "N\n\ncode ✓".encode(), 0)
        self.assertEqual(job.read_job(fd), "N\n\ncode ✓")
        self.assertEqual(os.fstat(fd).st_size, 0)
        os.write(fd, b"stderr")  # what the run writes next starts the file
        self.assertEqual(os.pread(fd, 100, 0), b"stderr")
