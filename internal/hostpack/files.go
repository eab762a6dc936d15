package hostpack

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/atreides-dev/atreides/internal/install"
)

// tree is a package directory being written.
type tree struct{ root string }

// newTree empties root (a previous layout's files would linger) and
// returns it.
func newTree(root string) (tree, error) {
	if err := os.RemoveAll(root); err != nil {
		return tree{}, err
	}
	return tree{root}, os.MkdirAll(root, 0o755)
}

// file writes data to rel (slash-separated) with mode.
func (t tree) file(rel string, data []byte, mode os.FileMode) error {
	p := filepath.Join(t.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(p, data, mode); err != nil {
		return err
	}
	// WriteFile's mode is cut by the umask; a package's launcher must be
	// executable whatever the umask of the build.
	return os.Chmod(p, mode)
}

// json writes v as indented JSON.
func (t tree) json(rel string, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	return t.file(rel, b.Bytes(), 0o644)
}

// node writes a JSON document built with install's nodes, in the format
// install writes settings in.
func (t tree) node(rel string, n *install.Node) error {
	return t.file(rel, n.Encode(install.DefaultFormat), 0o644)
}

// hooksObject is {"<Event>": [{"matcher": …, "hooks": [handler]}]} for
// want, in its order: the "hooks" value install writes into a settings
// file that had none.
func hooksObject(want []install.WantGroup) *install.Node {
	events := install.NewObject()
	for _, w := range want {
		g := install.NewObject()
		if w.Matcher != "" {
			g.Set("matcher", install.NewString(w.Matcher))
		}
		g.Set("hooks", install.NewArray(w.Handler))
		events.Set(w.Event, install.NewArray(g))
	}
	return events
}

// bin writes bin/atreides (the launcher) and, per target,
// bin/<os>-<arch>/ with the programs copied from the build output.
func (p pack) bin(t tree) error {
	if err := t.file("bin/atreides", []byte(launcher(p.targets)), 0o755); err != nil {
		return err
	}
	for _, tg := range p.targets {
		for _, prog := range programs {
			name := tg.exe(prog)
			src := filepath.Join(p.dist, "bin", tg.dir(), name)
			if err := copyFile(src, filepath.Join(t.root, "bin", tg.dir(), name)); err != nil {
				return err
			}
		}
	}
	return nil
}

// copyFile copies a program with mode 0755.
func copyFile(src, dst string) (err error) {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}()
	if _, err := io.Copy(out, in); err != nil {
		return fmt.Errorf("copy %s: %w", src, err)
	}
	return os.Chmod(dst, 0o755)
}
