//go:build unix

package project

import (
	"io/fs"
	"syscall"
	"testing"
	"time"
)

type fakeInfo struct{ uid uint32 }

func (f fakeInfo) Name() string       { return DirName }
func (f fakeInfo) Size() int64        { return 0 }
func (f fakeInfo) Mode() fs.FileMode  { return fs.ModeDir | 0o755 }
func (f fakeInfo) ModTime() time.Time { return time.Time{} }
func (f fakeInfo) IsDir() bool        { return true }
func (f fakeInfo) Sys() any           { return &syscall.Stat_t{Uid: f.uid} }

// Another user's .atreides (planted in /tmp, say) is not this user's root.
func TestOwnedBy(t *testing.T) {
	if !ownedBy(fakeInfo{uid: 1000}, 1000) {
		t.Error("own directory refused")
	}
	if ownedBy(fakeInfo{uid: 0}, 1000) {
		t.Error("another user's directory accepted")
	}
}
