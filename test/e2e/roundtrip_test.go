package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// treeHashes is what every file (its mode and content hash), symlink (its
// target) and directory (its mode) under each root is, by path, for the
// hosts' byte-identical install round trips. The skip paths are left out
// with all under them, and the directories above them are walked but not
// recorded (atreides's backups under ~/.local/state/atreides make
// ~/.local, which is atreides's state, not a leftover); a missing root is
// empty.
func treeHashes(t *testing.T, roots []string, skip ...string) map[string]string {
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

// entryHash is one entry of treeHashes.
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

// sameTrees reports every path whose entry differs between two
// treeHashes, or that only one of them has.
func sameTrees(t *testing.T, before, after map[string]string) {
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
