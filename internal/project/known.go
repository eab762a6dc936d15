package project

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/filelock"
)

// The registry of the projects a user has run atreides in, for `atreides
// ui --all`: one small file in the user's state directory, not in any
// project, since it is about all of them.
const (
	knownName = "projects.json"
	knownLock = "projects.lock"
	// MaxKnown bounds the registry: the most recently seen are kept.
	MaxKnown = 200
	// knownFresh is how long a project's last sighting stands before
	// Remember writes it again: a session start in a known project then
	// reads the file and writes nothing.
	knownFresh   = time.Hour
	maxKnownSize = 1 << 20
)

// KnownProject is a project atreides ran in, and when it last started a
// session there.
type KnownProject struct {
	Root string    `json:"root"`
	Seen time.Time `json:"seen"`
}

type knownFile struct {
	Projects []KnownProject `json:"projects"`
}

// UserStateDir is atreides's directory of the user's own state (not a
// project's): <state>/atreides, where state is $XDG_STATE_HOME when it is
// an absolute path (the XDG rule: a relative one is ignored), else
// ~/.local/state.
func UserStateDir(home, xdgStateHome string) string {
	if filepath.IsAbs(xdgStateHome) {
		return filepath.Join(xdgStateHome, "atreides")
	}
	return filepath.Join(home, ".local", "state", "atreides")
}

// knownBase is the user's state directory, split for package confined:
// the state home is the user's choice (links and all), atreides's
// directory in it is opened without following a link.
func knownBase() (base, rel string, err error) {
	xdg := os.Getenv("XDG_STATE_HOME")
	home := ""
	if !filepath.IsAbs(xdg) {
		if home, err = os.UserHomeDir(); err != nil {
			return "", "", fmt.Errorf("projects registry: %w", err)
		}
	}
	dir := UserStateDir(home, xdg)
	return filepath.Dir(dir), filepath.Base(dir), nil
}

// Remember notes that atreides ran in the project at root (absolute) at
// now. It writes only when root is new or its last sighting is an hour or
// more from now, so a session start in a known project only reads the
// file. Writers take a lock around their read and replace, so two
// projects remembered at once are both kept; the file is replaced
// atomically, so readers never see part of one.
func Remember(root string, now time.Time) error {
	if !filepath.IsAbs(root) {
		return fmt.Errorf("projects registry: %q is not an absolute path", root)
	}
	root = filepath.Clean(root)
	base, rel, err := knownBase()
	if err != nil {
		return err
	}
	if data, err := readKnownFile(base, rel); err == nil {
		if at, ok := seenIn(data, root); ok && fresh([]KnownProject{{root, at}}, root, now) {
			return nil
		}
	}
	// The state home may not exist yet; it is the user's, made as XDG
	// says (0700), and atreides's directory in it without following links.
	if err := os.MkdirAll(base, 0o700); err != nil {
		return fmt.Errorf("projects registry: %w", err)
	}
	d, err := confined.MkdirAll(base, rel, 0o700)
	if err != nil {
		return fmt.Errorf("projects registry: %w", err)
	}
	defer d.Close()
	lock, err := d.OpenFile(knownLock, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("projects registry: %w", err)
	}
	defer lock.Close() // releases the lock
	if err := filelock.Lock(lock, true); err != nil {
		return fmt.Errorf("projects registry: lock: %w", err)
	}
	// A damaged file is started afresh: the registry is a convenience,
	// and refusing to write would keep it damaged.
	ps, _ := readKnown(base, rel)
	if fresh(ps, root, now) {
		return nil // another process wrote it meanwhile
	}
	data, err := json.Marshal(knownFile{Projects: upsert(ps, root, now)})
	if err != nil {
		return fmt.Errorf("projects registry: %w", err)
	}
	if err := d.ReplaceFile(knownName, append(data, '\n'), false); err != nil {
		return fmt.Errorf("projects registry: %w", err)
	}
	return nil
}

// fresh reports whether root was seen less than an hour from now (either
// way: after a clock set back, a sighting in the future is rewritten too).
func fresh(ps []KnownProject, root string, now time.Time) bool {
	i := slices.IndexFunc(ps, func(p KnownProject) bool { return p.Root == root })
	if i < 0 {
		return false
	}
	d := now.Sub(ps[i].Seen)
	return d < knownFresh && d > -knownFresh
}

// upsert sets root's sighting to now, first; then the others, one entry
// per root (its latest), most recently seen first, to MaxKnown in all.
func upsert(ps []KnownProject, root string, now time.Time) []KnownProject {
	others := slices.DeleteFunc(slices.Clone(ps), func(p KnownProject) bool { return p.Root == root || p.Root == "" })
	slices.SortStableFunc(others, func(a, b KnownProject) int { return b.Seen.Compare(a.Seen) })
	out := append([]KnownProject{{Root: root, Seen: now.UTC()}}, others...)
	seen := make(map[string]bool, len(out))
	out = slices.DeleteFunc(out, func(p KnownProject) bool {
		dup := seen[p.Root]
		seen[p.Root] = true
		return dup
	})
	return out[:min(len(out), MaxKnown)]
}

// Known lists the projects atreides ran in, most recently seen first,
// leaving out those whose root is no longer a directory (they stay in
// the file: a disk not mounted now may be back). No registry is no
// projects.
func Known() ([]KnownProject, error) {
	base, rel, err := knownBase()
	if err != nil {
		return nil, err
	}
	ps, err := readKnown(base, rel)
	if err != nil {
		return nil, err
	}
	ps = slices.DeleteFunc(ps, func(p KnownProject) bool {
		fi, err := os.Stat(p.Root)
		return err != nil || !fi.IsDir()
	})
	slices.SortStableFunc(ps, func(a, b KnownProject) int { return b.Seen.Compare(a.Seen) })
	return ps, nil
}

// seenIn finds root's sighting in the registry's bytes as Remember writes
// them, without decoding the rest: decoding every entry (and parsing its
// time) was most of a session start's cost in a known project. Not found
// is no answer: the caller decodes the file.
func seenIn(data []byte, root string) (time.Time, bool) {
	q, err := json.Marshal(root)
	if err != nil {
		return time.Time{}, false
	}
	key := append(append([]byte(`{"root":`), q...), `,"seen":"`...)
	i := bytes.Index(data, key)
	if i < 0 {
		return time.Time{}, false
	}
	rest := data[i+len(key):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return time.Time{}, false
	}
	at, err := time.Parse(time.RFC3339Nano, string(rest[:j]))
	return at, err == nil
}

func readKnownFile(base, rel string) ([]byte, error) {
	data, err := confined.ReadFile(base, filepath.Join(rel, knownName), maxKnownSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("projects registry: %w", err)
	}
	return data, nil
}

// readKnown reads the registry; a missing one is empty.
func readKnown(base, rel string) ([]KnownProject, error) {
	data, err := readKnownFile(base, rel)
	if err != nil || data == nil {
		return nil, err
	}
	var f knownFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("projects registry %s: %w", filepath.Join(base, rel, knownName), err)
	}
	return f.Projects, nil
}
