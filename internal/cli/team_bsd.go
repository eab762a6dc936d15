//go:build unix && !linux

package cli

import "golang.org/x/sys/unix"

func dupStdin(fd int) error { return unix.Dup2(fd, 0) }
