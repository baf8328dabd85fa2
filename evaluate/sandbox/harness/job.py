"""The one job this process runs: where to report, the scratch directory, the
limits and the code. setup fills it in before anything else of the job runs; a
fork server never calls it itself, only each child it forks does. The job comes
in a memory file (read_job), which then holds the run's stderr."""
import posix

from .guard import _confine_to

_int, _len = int, len

report_fd = -1  # the report channel, moved to a descriptor the code cannot guess
scratch = ""  # the scratch directory (the working directory), as the Go side named it
# resource limits: CPU seconds, address space, file size (bytes), descriptors, processes
cpu_seconds = address_space = file_size = open_files = processes = 0
nonce = ""  # starts every report line; the code never sees it
function = ""  # the function to call; empty: whichever reach a request
code = ""  # the code under test


def setup(fd, scratch_dir, limits, text):
    """Takes the job: report channel, scratch directory, limits and the job text."""
    global report_fd, scratch, cpu_seconds, address_space, file_size, open_files, processes
    global nonce, function, code
    scratch = scratch_dir
    _confine_to(scratch_dir)
    cpu_seconds, address_space, file_size, open_files, processes = (_int(x) for x in limits)
    nonce, function, code = text.split("\n", 2) if text.count("\n") >= 2 else ("", "", "")
    # Move the report channel to a high descriptor and close the one the code could guess.
    report_fd = fd
    try:
        hi = posix.dup(fd)
        fd2 = 200 + (_int.from_bytes(posix.urandom(1), "little") % 700)
        posix.dup2(hi, fd2, False)
        posix.close(hi)
        posix.close(fd)
        report_fd = fd2
    except OSError:
        pass


def read_job(fd):
    """Reads the job the Go side wrote into memory file fd and empties the file, so
    the code cannot read the report nonce from it. pread leaves the file offset
    where it was, at 0, for the stderr that follows."""
    chunks, off = [], 0
    while True:
        b = posix.pread(fd, 1 << 20, off)
        if not b:
            break
        chunks.append(b)
        off += _len(b)
    posix.ftruncate(fd, 0)
    return b"".join(chunks).decode("utf-8", "replace")
