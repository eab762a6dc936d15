package config

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// Stamp is what a stat tells of the configuration files without reading
// them, as one string that changes whenever one of them appears, goes
// away, is written, touched, has its mode changed or is replaced by
// another file (on Linux the stamp also holds each file's identity and change
// time, which no user tool sets back), and for a link, whenever its target
// does. The config cache is keyed by it and serve rebuilds a project's
// settings when it changes. ok is false when a file could not be stat'ed
// for another reason than not existing; the stamp then holds the error.
//
// When a project file is there, the trust record's stamp follows:
// trusting or revoking changes the configuration it gives. Without one the
// record is not looked at, so a project with no config.yaml pays nothing
// for it.
func (p Paths) Stamp() (stamp string, ok bool) {
	files, ok := stampFiles(p.User, p.Project)
	if p.Trust == "" || strings.HasSuffix(files, "|-") || strings.HasSuffix(files, "|") {
		return files, ok
	}
	trust, tok := stampFiles(p.Trust)
	return files + trust, ok && tok
}

func stampFiles(files ...string) (string, bool) {
	var b strings.Builder
	ok := true
	for _, f := range files {
		b.WriteByte('|')
		if f == "" {
			continue
		}
		fi, err := os.Lstat(f)
		ok = stampOne(&b, fi, err) && ok
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			b.WriteString("->")
			tfi, terr := os.Stat(f)
			ok = stampOne(&b, tfi, terr) && ok
		}
	}
	return b.String(), ok
}

func stampOne(b *strings.Builder, fi fs.FileInfo, err error) bool {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		b.WriteByte('-')
		return true
	case err != nil:
		b.WriteString("error " + err.Error())
		return false
	}
	b.WriteString(strconv.FormatInt(fi.Size(), 10))
	b.WriteByte(':')
	b.WriteString(strconv.FormatInt(fi.ModTime().UnixNano(), 10))
	b.WriteByte(':')
	b.WriteString(strconv.FormatUint(uint64(fi.Mode()), 8))
	b.WriteString(identity(fi))
	return true
}
