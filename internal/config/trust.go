package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/filelock"
)

// The user trusts a project's config file the way direnv and mise do:
// explicitly, recorded outside the repository, pinned to the file's
// content and to the files it names as programs. The record lives in the
// user's configuration directory, which the guard keeps the agent from
// writing; a file that changed since is untrusted again. An untrusted
// file is screened (screen.go).

// TrustFileName is the trust record's name in the user's configuration
// directory.
const TrustFileName = "trusted.json"

// maxTrustFile bounds the trust record's read.
const maxTrustFile = 4 << 20

// maxRefs bounds the files a project file's programs name that are
// pinned with it, and maxRefSize each one's size.
const (
	maxRefs    = 32
	maxRefSize = 8 << 20
)

// Trust is what the project file's trust did to a configuration.
type Trust struct {
	// File is the project's config file, "" when there is none.
	File string
	// Trusted is set when the user trusts the file as it is now.
	Trusted bool
	// Digest pins the file and the files it names as programs (Refs).
	Digest string
	Refs   []string
	// Ignored are the settings an untrusted file was not allowed.
	Ignored []Ignored
}

// Untrusted reports whether a project file is there and not trusted.
func (t Trust) Untrusted() bool { return t.File != "" && !t.Trusted }

// Trust says whether the project file is trusted and what was ignored.
func (c *Config) Trust() Trust { return c.trust }

// trustRecord is the trust file: the project roots the user trusts, each
// with the digest it was trusted at.
type trustRecord struct {
	Version  int                   `json:"version"`
	Projects map[string]trustEntry `json:"projects"`
}

type trustEntry struct {
	Digest string    `json:"sha256"`
	Files  []string  `json:"files"`
	At     time.Time `json:"trusted_at"`
}

// projectRoot is the root of the project whose config file p.Project is.
func (p Paths) projectRoot() string {
	return filepath.Dir(filepath.Dir(p.Project))
}

// trustOf decides whether the project file, read as data with the value
// tree v, is trusted.
func (p Paths) trustOf(data []byte, v *value) Trust {
	root := p.projectRoot()
	t := Trust{File: p.Project}
	t.Digest, t.Refs = digest(root, data, v)
	if p.Trust == "" {
		return t
	}
	rec, err := readTrust(p.Trust)
	if err != nil {
		return t
	}
	e, ok := rec.Projects[trustKey(root)]
	t.Trusted = ok && e.Digest == t.Digest
	return t
}

// trustKey is a project's key in the record: its root with links
// resolved, so that one checkout reached two ways is one project.
func trustKey(root string) string {
	if r, err := filepath.EvalSymlinks(root); err == nil {
		return r
	}
	return filepath.Clean(root)
}

func readTrust(name string) (trustRecord, error) {
	var rec trustRecord
	data, err := confined.ReadFile(filepath.Dir(name), filepath.Base(name), maxTrustFile)
	if errors.Is(err, fs.ErrNotExist) {
		return rec, nil
	}
	if err != nil {
		return rec, fmt.Errorf("trust record: %w", err)
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		return rec, fmt.Errorf("trust record %s: %w", name, err)
	}
	return rec, nil
}

// digest hashes the project file and the project files its programs name
// (a check's `./scripts/lint.sh`), which run with the trust given to the
// file. A named file is hashed as it will run: through its links, by the
// file they lead to and its content, so that retargeting a link or
// editing its target untrusts the file too. One that cannot be read is
// pinned as unreadable.
func digest(root string, data []byte, v *value) (string, []string) {
	h := sha256.New()
	h.Write([]byte("config.yaml\x00"))
	h.Write(data)
	refs := programFiles(root, v)
	for _, r := range refs {
		h.Write([]byte("\x00" + r + "\x00"))
		real, err := filepath.EvalSymlinks(filepath.Join(root, r))
		var b []byte
		if err == nil {
			b, err = confined.ReadFile(filepath.Dir(real), filepath.Base(real), maxRefSize)
		}
		if err != nil {
			h.Write([]byte("\x00unreadable"))
			continue
		}
		h.Write([]byte(real + "\x00"))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), refs
}

// programFiles lists the project files that the file's programs name:
// every word of a program-running setting that names a regular file
// inside root, relative to it. Sorted, at most maxRefs.
func programFiles(root string, v *value) []string {
	var words []string
	for _, r := range screens {
		if r.kind != runs {
			continue
		}
		collect(v, strings.Split(r.path, "."), func(s string) { words = append(words, strings.Fields(s)...) })
	}
	var refs []string
	for _, w := range words {
		w = strings.Trim(w, `"'`)
		if w == "" || filepath.IsAbs(w) || strings.HasPrefix(w, "-") {
			continue
		}
		rel := filepath.Clean(w)
		if rel == "." || strings.HasPrefix(rel, "..") || slices.Contains(refs, rel) {
			continue
		}
		if fi, err := os.Stat(filepath.Join(root, rel)); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		refs = append(refs, rel)
	}
	slices.Sort(refs)
	if len(refs) > maxRefs {
		refs = refs[:maxRefs]
	}
	return refs
}

// collect calls f with every string under path in v.
func collect(v *value, path []string, f func(string)) {
	if v == nil {
		return
	}
	if len(path) > 0 {
		collect(v.child(path[0]), path[1:], f)
		return
	}
	switch v.kind {
	case kindScalar:
		if s, ok := v.scalar.(string); ok {
			f(s)
		}
	case kindList:
		for _, it := range v.items {
			collect(it, nil, f)
		}
	case kindMapping:
		for _, k := range v.keys {
			collect(v.fields[k], nil, f)
		}
	}
}

// TrustProject records that the user trusts the project file of p as it
// is now (t is its [Config.Trust]), or with revoke forgets the project.
// The record is replaced atomically; other projects' entries stay.
func TrustProject(p Paths, t Trust, revoke bool, now time.Time) error {
	if p.Trust == "" {
		return errors.New("trust: no user configuration directory (set HOME or XDG_CONFIG_HOME)")
	}
	// The user's own directory, a link maybe (dotfiles managers make
	// one): followed, as the user's config.yaml is.
	dir := filepath.Dir(p.Trust)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	d, err := confined.OpenDir(filepath.Dir(dir), filepath.Base(dir))
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	defer d.Close()
	// Two trusts at once must not lose each other's entry.
	lock, err := d.OpenFile(TrustFileName+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	defer lock.Close()
	if err := filelock.Lock(lock, true); err != nil {
		return fmt.Errorf("trust: lock: %w", err)
	}
	rec, err := readTrust(p.Trust)
	if err != nil {
		return err
	}
	if rec.Projects == nil {
		rec.Projects = map[string]trustEntry{}
	}
	rec.Version = 1
	key := trustKey(p.projectRoot())
	if revoke {
		delete(rec.Projects, key)
	} else {
		rec.Projects[key] = trustEntry{Digest: t.Digest, Files: t.Refs, At: now.UTC()}
	}
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	if err := d.ReplaceFile(filepath.Base(p.Trust), append(data, '\n'), true); err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	return nil
}

// IgnoredKeys are the keys of the ignored settings, each once, without list
// indices (rules[2] is rules).
func (t Trust) IgnoredKeys() []string {
	var keys []string
	for _, ig := range t.Ignored {
		k, _, _ := strings.Cut(ig.Key, "[")
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// ShortDigest is how a pinned digest is shown to people: its first 12
// hex digits, enough to tell two versions of a file apart.
func ShortDigest(digest string) string {
	if len(digest) > 12 {
		return digest[:12]
	}
	return digest
}
