//go:build !unix

package serve

import "os"

// pollable returns f itself: only Unix descriptors are switched to
// non-blocking mode (pollable_unix.go).
func pollable(f *os.File) (*os.File, func()) { return f, func() {} }
