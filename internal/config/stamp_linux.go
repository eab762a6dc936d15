//go:build linux

package config

import (
	"os"
	"strconv"
	"syscall"
)

// identity is the file's device, inode and change time: a file renamed
// over another with the same size and modification time still differs.
func identity(fi os.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	return ":" + strconv.FormatUint(uint64(st.Dev), 16) + "." + strconv.FormatUint(uint64(st.Ino), 16) +
		":" + strconv.FormatInt(int64(st.Ctim.Sec), 10) + "." + strconv.FormatInt(int64(st.Ctim.Nsec), 10)
}
