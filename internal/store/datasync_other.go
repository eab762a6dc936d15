//go:build !linux

package store

import "os"

// datasync is a full sync where the system has no fdatasync.
func datasync(f *os.File) error { return f.Sync() }
