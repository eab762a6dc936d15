package installtest

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TreeHashes is what every file (mode and content hash), symbolic link
// (its target) and directory (its mode) under each root is, by path: the
// byte-identical round trips of install, uninstall --purge and init's
// preview compare two of them with [SameTrees]. The skip paths are left
// out with all under them, and the directories above them are walked but
// not recorded; a missing root is empty.
func TreeHashes(t testing.TB, roots []string, skip ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) && path == root {
					return nil
				}
				return err
			}
			for _, s := range skip {
				if path == s {
					if d.IsDir() {
						return filepath.SkipDir
					}
					return nil
				}
				if strings.HasPrefix(s, path+string(filepath.Separator)) {
					return nil
				}
			}
			h, err := entryHash(path, d)
			out[path] = h
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// entryHash is one entry of TreeHashes.
func entryHash(path string, d fs.DirEntry) (string, error) {
	info, err := d.Info()
	if err != nil {
		return "", err
	}
	switch {
	case d.IsDir():
		return "dir " + info.Mode().String(), nil
	case d.Type()&fs.ModeSymlink != 0:
		target, err := os.Readlink(path)
		return "link " + target, err
	}
	b, err := os.ReadFile(path)
	sum := sha256.Sum256(b)
	return info.Mode().String() + " " + hex.EncodeToString(sum[:]), err
}

// SameTrees reports every path whose entry differs between two
// TreeHashes, or that only one of them has.
func SameTrees(t testing.TB, before, after map[string]string) {
	t.Helper()
	for path, h := range before {
		if after[path] != h {
			t.Errorf("%s changed or removed: %q, was %q", path, after[path], h)
		}
	}
	for path := range after {
		if _, ok := before[path]; !ok {
			t.Errorf("%s was left behind", path)
		}
	}
}
