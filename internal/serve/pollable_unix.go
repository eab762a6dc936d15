//go:build unix

package serve

import (
	"io/fs"
	"os"
	"syscall"
)

// pollable returns f, when it is a pipe or a socket (the plugin's stdin and
// stdout), as a duplicate of its descriptor switched to non-blocking mode,
// which Go reads and writes through its poller, with the function that
// puts the blocking mode back and closes the duplicate; else f itself.
//
// Why: a blocking read parks a whole thread in the kernel between two
// requests, and every request then pays for waking it and for handing the
// request to a thread that has a processor (about a tenth of a round trip
// here); a goroutine parked in the poller costs neither. A terminal is
// left alone: the mode belongs to the open file, which the shell shares,
// and a shell left with a non-blocking terminal breaks. The duplicate is
// what the returned *os.File owns, so that its close (or a finalizer)
// never closes the process's stdin or stdout.
func pollable(f *os.File) (*os.File, func()) {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&(fs.ModeNamedPipe|fs.ModeSocket) == 0 {
		return f, func() {}
	}
	// Not f.Fd(), which would put a file Go polls in blocking mode.
	c, err := f.SyscallConn()
	if err != nil {
		return f, func() {}
	}
	fd := -1
	if cerr := c.Control(func(raw uintptr) { fd, err = syscall.Dup(int(raw)) }); cerr != nil || err != nil {
		return f, func() {}
	}
	syscall.CloseOnExec(fd)
	flags, err := fcntl(fd, syscall.F_GETFL, 0)
	if err == nil && flags&syscall.O_NONBLOCK == 0 {
		err = syscall.SetNonblock(fd, true)
	}
	if err != nil {
		_ = syscall.Close(fd)
		return f, func() {}
	}
	p := os.NewFile(uintptr(fd), f.Name())
	return p, func() {
		// The mode it was given in (a parent may have made it
		// non-blocking itself); through the File, so that the poller
		// lets go of it first.
		if c, err := p.SyscallConn(); err == nil && flags&syscall.O_NONBLOCK == 0 {
			_ = c.Control(func(fd uintptr) { _ = syscall.SetNonblock(int(fd), false) })
		}
		_ = p.Close()
	}
}

// fcntl is the fcntl system call on fd.
func fcntl(fd, cmd, arg int) (int, error) {
	r, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), uintptr(cmd), uintptr(arg))
	if e != 0 {
		return 0, e
	}
	return int(r), nil
}
