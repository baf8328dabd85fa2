package sandbox

import (
	"io"
	"os"
	"syscall"
	"unsafe"
)

// A batched run's report pipe, job socket and memory file are read and written
// with raw system calls, and so are a fork server's control socket and the report
// pipe of a run in a child of its own. None of these calls can block (the pipes
// and the control socket are non-blocking, and Go's poller does the waiting; a
// job is sent without waiting; a memory file is memory), so what the runtime does
// around a call that may block buys nothing here, and costs much: the first such
// call after the process was idle, as it is whenever a child's report line wakes
// it, wakes the runtime's monitor thread, which then polls every 20 µs until the
// process is idle again. With raw calls the evaluator's CPU per batched run fell
// by about a third (BenchmarkBatched), per run in a child of its own by a tenth
// (BenchmarkRunSplit).

// pollReader reads a non-blocking file on Go's poller; its deadlines hold.
type pollReader struct{ rc syscall.RawConn }

func newPollReader(f *os.File) (pollReader, error) {
	rc, err := f.SyscallConn()
	return pollReader{rc}, err
}

func (p pollReader) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := p.rc.Read(func(fd uintptr) bool {
		n, errno = rawIO(syscall.SYS_READ, fd, b, 0)
		return errno != syscall.EAGAIN
	})
	switch {
	case err != nil:
		return 0, err
	case errno != 0:
		return 0, os.NewSyscallError("read", errno)
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// sendJob sends job b whole as one message on batch job socket f, without
// waiting: a batch child takes each job before it reports it, so at most one is
// ever queued, and a socket with no room for one more (the child no longer
// takes jobs) is an error.
func sendJob(f *os.File, b []byte) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var n int
	var errno syscall.Errno
	if err := rc.Write(func(fd uintptr) bool {
		n, errno = rawIO(syscall.SYS_SENDTO, fd, b, syscall.MSG_DONTWAIT|syscall.MSG_NOSIGNAL)
		return true
	}); err != nil {
		return err
	}
	if errno != 0 {
		return os.NewSyscallError("send", errno)
	}
	if n != len(b) {
		return io.ErrShortWrite
	}
	return nil
}

// truncate empties memory file f.
func truncate(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var e syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		for {
			if _, _, e = syscall.RawSyscall(syscall.SYS_FTRUNCATE, fd, 0, 0); e != syscall.EINTR {
				return
			}
		}
	}); err != nil {
		return err
	}
	if e != 0 {
		return e
	}
	return nil
}

// readAt reads memory file f from offset off into b (the start of what it holds).
func readAt(f *os.File, b []byte, off int64) int {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0
	}
	var n int
	rc.Read(func(fd uintptr) bool {
		n, _ = rawIO(syscall.SYS_PREAD64, fd, b, off)
		return true
	})
	return max(n, 0)
}

// rawSendmsg sends message b with control data oob on socket fd, whole or not
// at all (a SOCK_SEQPACKET socket), retried when interrupted.
func rawSendmsg(fd uintptr, b, oob []byte) syscall.Errno {
	var iov syscall.Iovec
	if len(b) > 0 {
		iov.Base = &b[0]
		iov.SetLen(len(b))
	}
	msg := syscall.Msghdr{Iov: &iov, Iovlen: 1}
	if len(oob) > 0 {
		msg.Control = &oob[0]
		msg.SetControllen(len(oob))
	}
	for {
		_, _, e := syscall.RawSyscall(syscall.SYS_SENDMSG, fd, uintptr(unsafe.Pointer(&msg)), syscall.MSG_NOSIGNAL)
		if e != syscall.EINTR {
			return e
		}
	}
}

// rawIO is read, pread64 (arg: the offset) or sendto (arg: the flags) (trap) of
// b on fd, retried when interrupted.
func rawIO(trap, fd uintptr, b []byte, arg int64) (int, syscall.Errno) {
	if len(b) == 0 {
		return 0, 0
	}
	for {
		r, _, e := syscall.RawSyscall6(trap, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), uintptr(arg), 0, 0)
		if e != syscall.EINTR {
			if e != 0 {
				return -1, e
			}
			return int(r), 0
		}
	}
}
