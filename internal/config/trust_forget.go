package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// ForgetTrust drops the project of p from the trust record, for
// 'atreides uninstall --purge'; the other projects' entries stay. Unlike a
// revoke it never creates a record: a project that was never trusted
// leaves the user's directory as it was. When the project was the only
// one trusted, the record and its lock go too. It returns the files it
// changed or removed.
func ForgetTrust(p Paths) ([]string, error) {
	if p.Trust == "" {
		return nil, nil
	}
	rec, err := readTrust(p.Trust)
	if err != nil {
		return nil, err
	}
	if _, ok := rec.Projects[trustKey(p.projectRoot())]; !ok {
		return nil, nil
	}
	if err := TrustProject(p, Trust{}, true, time.Now()); err != nil {
		return nil, err
	}
	if rec, err = readTrust(p.Trust); err != nil || len(rec.Projects) > 0 {
		return []string{p.Trust}, err
	}
	removed := []string{}
	for _, name := range []string{p.Trust, p.Trust + ".lock"} {
		if err := os.Remove(name); err == nil {
			removed = append(removed, name)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return removed, fmt.Errorf("trust: %w", err)
		}
	}
	return removed, nil
}
