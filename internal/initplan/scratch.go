package initplan

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/install"
)

// scratch is a copy, under a temporary directory, of the files an init
// may touch: the project's under project/, the home's under home/, any
// other absolute path under root/. init runs its work there first, so
// the changes it shows are those the same code makes, not a description
// of them; nothing outside the directory is written.
type scratch struct {
	dir    string
	real   host.Env
	copied []string // the real paths copied, files or whole directories
	// trust is the trust record's path in the copy: its entry for the
	// copy's project is the real project's (trustAs).
	trust string
	size  int64 // bytes copied so far
}

// maxCopy bounds what the scratch copy holds: the settings, agent and
// command files of a few hosts are far less; more means a folder that is
// not atreides's to preview (a host's dependencies), and init says so
// rather than fill the disk.
const maxCopy = 256 << 20

// within reports whether p is base or under it.
func within(base, p string) bool {
	if base == "" {
		return false
	}
	rel, err := filepath.Rel(base, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// to is where the real path p is in the scratch copy.
func (s *scratch) to(p string) string {
	p = filepath.Clean(p)
	for _, b := range []struct{ base, name string }{{s.real.ProjectDir, "project"}, {s.real.Home, "home"}} {
		if within(b.base, p) {
			rel, _ := filepath.Rel(b.base, p)
			return filepath.Join(s.dir, b.name, rel)
		}
	}
	return filepath.Join(s.dir, "root", p)
}

// from is the real path of p in the scratch copy.
func (s *scratch) from(p string) string {
	rel, _ := filepath.Rel(s.dir, p)
	area, rest, _ := strings.Cut(rel, string(filepath.Separator))
	switch area {
	case "project":
		return filepath.Join(s.real.ProjectDir, rest)
	case "home":
		return filepath.Join(s.real.Home, rest)
	}
	return string(filepath.Separator) + rest
}

// env is the machine as install sees it in the scratch copy: the project
// and home there, and every variable naming a path (CODEX_HOME,
// XDG_STATE_HOME, ...) moved there too. A relative one is resolved
// against the real working directory first, as the real install does:
// passed on as it is, it would lead the scratch install into the real
// tree.
func (s *scratch) env() host.Env {
	e := s.real
	e.ProjectDir, e.Home = s.to(s.real.ProjectDir), s.to(s.real.Home)
	cwd, err := os.Getwd()
	if err != nil {
		// Unknown: a relative path then lands inside the scratch copy.
		cwd = filepath.Join(s.dir, "cwd")
	}
	e.Getenv = func(k string) string {
		v := s.real.Var(k)
		if v == "" || strings.ContainsRune(v, os.PathListSeparator) {
			return v
		}
		if !filepath.IsAbs(v) && pathVar(k) {
			v = filepath.Join(cwd, v)
		}
		if filepath.IsAbs(v) {
			return s.to(v)
		}
		return v
	}
	return e
}

// pathVar reports whether the variable name holds a directory or file,
// by how the hosts and XDG name theirs (CODEX_HOME, CLINE_DIR,
// XDG_CONFIG_HOME, ..._PATH). A host that takes a relative one takes it
// against the working directory.
func pathVar(name string) bool {
	for _, suffix := range []string{"_HOME", "_DIR", "_PATH"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

// paths are the configuration files in the scratch copy.
func (s *scratch) paths(p config.Paths) config.Paths {
	out := config.Paths{}
	for _, f := range []struct {
		from string
		to   *string
	}{{p.User, &out.User}, {p.Project, &out.Project}, {p.Trust, &out.Trust}} {
		if f.from != "" {
			*f.to = s.to(f.from)
		}
	}
	return out
}

// copyIn copies the real path p (a file, or a directory with all it
// holds) into the scratch copy; a missing one is left missing. A link is
// copied as what it leads to, so install in the copy never follows one
// out of it.
func (s *scratch) copyIn(p string) error {
	if !filepath.IsAbs(p) {
		// A seed from a relative variable: where the real install finds
		// it, and where env puts it in the copy.
		abs, err := filepath.Abs(p)
		if err != nil {
			return fmt.Errorf("init: %w", err)
		}
		p = abs
	}
	if s.has(p) {
		return nil
	}
	s.copied = append(s.copied, p)
	fi, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("init: %w", err)
	}
	if !fi.IsDir() {
		if p == s.from(s.trust) {
			return s.copyTrust(p)
		}
		return s.copyFile(p, fi)
	}
	return filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Stat(q)
		if err != nil || fi.IsDir() {
			return os.MkdirAll(s.to(q), 0o755)
		}
		return s.copyFile(q, fi)
	})
}

// copyFile copies the real file p, within maxCopy.
func (s *scratch) copyFile(p string, fi fs.FileInfo) error {
	if s.size += fi.Size(); s.size > maxCopy {
		return fmt.Errorf("init: the files to preview pass %d MiB (at %s); run 'atreides install' instead, which shows what it did", maxCopy>>20, p)
	}
	return copyFile(p, s.to(p), fi.Mode())
}

// has reports whether p is copied, itself or within a copied directory.
func (s *scratch) has(p string) bool {
	return slices.ContainsFunc(s.copied, func(c string) bool { return within(c, p) })
}

func copyFile(from, to string, mode fs.FileMode) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return fmt.Errorf("init: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return fmt.Errorf("init: %w", err)
	}
	return os.WriteFile(to, data, mode.Perm())
}

// snapshot is every regular file of the scratch copy with its content.
func (s *scratch) snapshot() (map[string]string, error) {
	out := map[string]string{}
	err := filepath.WalkDir(s.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = string(b)
		return err
	})
	return out, err
}

// realKey is how the trust record names a project root: with its links
// resolved, as package config does.
func realKey(root string) string {
	if r, err := filepath.EvalSymlinks(root); err == nil {
		return r
	}
	return filepath.Clean(root)
}

// trustAs is the scratch copy's trust record as the real one will be:
// the copy's project entry moved to the real project's key, replacing
// it. A record that does not read is left as it is.
func (s *scratch) trustAs(text string) string {
	return rekey(text, realKey(s.to(s.real.ProjectDir)), realKey(s.real.ProjectDir))
}

// copyTrust copies the real trust record p into the copy with the real
// project's entry under the copy's project, so that trust is decided
// there as it will be for real.
func (s *scratch) copyTrust(p string) error {
	data, err := os.ReadFile(p)
	if err != nil {
		return fmt.Errorf("init: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(s.trust), 0o700); err != nil {
		return fmt.Errorf("init: %w", err)
	}
	out := rekey(string(data), realKey(s.real.ProjectDir), realKey(s.to(s.real.ProjectDir)))
	return os.WriteFile(s.trust, []byte(out), 0o600)
}

// rekey is the trust record text with the entry of project from moved to
// to (replacing it): text as it is when it does not read or has none.
func rekey(text, from, to string) string {
	var rec struct {
		Version  int                        `json:"version"`
		Projects map[string]json.RawMessage `json:"projects"`
	}
	if json.Unmarshal([]byte(text), &rec) != nil {
		return text
	}
	e, ok := rec.Projects[from]
	if !ok {
		return text
	}
	delete(rec.Projects, from)
	rec.Projects[to] = e
	out, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return text
	}
	return string(out) + "\n"
}

// copyBackups copies the undo records of the plan's backup folders, each
// renamed for the path its file has in the copy (install names them by
// the file's path), and counts the folders as copied.
func (s *scratch) copyBackups(pl *Plan) error {
	for _, sc := range pl.Scopes {
		d := s.real.BackupDir(sc)
		if s.has(d) {
			continue
		}
		s.copied = append(s.copied, d)
		if err := install.CopyBackups(d, s.to(d), s.to); err != nil {
			return err
		}
	}
	return nil
}
