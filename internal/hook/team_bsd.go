//go:build unix && !linux

package hook

import "golang.org/x/sys/unix"

func dupStdin(fd int) error { return unix.Dup2(fd, 0) }
