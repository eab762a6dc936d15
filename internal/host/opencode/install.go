package opencode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/atreides-dev/atreides/internal/install"
	plugin "github.com/atreides-dev/atreides/plugins/opencode"
)

// OpenCode loads every {plugin,plugins}/*.{ts,js} file of its config
// directories (the project's .opencode/ and the user's
// $XDG_CONFIG_HOME/opencode/) without a build step, so install writes the
// plugin there as one file, atreides.ts, with the binary's path filled in.
// Nothing else of the user's is touched: other plugins and opencode.json
// stay as they are, and uninstall removes only that file.

// PluginFile is the name of the plugin file install writes.
const PluginFile = "atreides.ts"

// pluginHooks are the hooks the plugin registers (for doctor).
var pluginHooks = []string{
	"tool.execute.before", "tool.execute.after", "experimental.chat.messages.transform", "experimental.chat.system.transform",
	"experimental.session.compacting", "chat.message", "experimental.text.complete", "event", "config",
}

// pluginMarker identifies a plugin file as ours.
const pluginMarker = "// atreides for OpenCode:"

// ConfigDir is OpenCode's config directory of a scope: the
// project's .opencode/, or the user's $XDG_CONFIG_HOME/opencode (configHome
// is $XDG_CONFIG_HOME when absolute, else ~/.config). install.ScopeLocal is the
// project's too: OpenCode has no machine-only project directory.
func ConfigDir(scope install.Scope, projectDir, configHome string) string {
	if scope == install.ScopeUser {
		return filepath.Join(configHome, "opencode")
	}
	return filepath.Join(projectDir, ".opencode")
}

// ConfigHome is $XDG_CONFIG_HOME when it is absolute, else
// ~/.config: where OpenCode looks for the user's config directory.
func ConfigHome(xdgConfigHome, home string) string {
	if filepath.IsAbs(xdgConfigHome) {
		return xdgConfigHome
	}
	return filepath.Join(home, ".config")
}

// PluginPath is the plugin file in a config directory (of any host of
// the family).
func PluginPath(configDir string) string { return pluginPath(configDir) }

// pluginPath is the plugin file in a config directory.
func pluginPath(configDir string) string {
	return filepath.Join(configDir, "plugin", PluginFile)
}

// InstallOptions says where and how to install the plugin.
type InstallOptions struct {
	ConfigDir  string // the OpenCode config directory (see ConfigDir)
	BinaryPath string // install.PortableBinary, or the absolute path of the atreides binary the plugin starts
	BackupDir  string // see install.BackupDir; "" keeps no record of the directories install created
	// Offline lists config directories in which to mark OpenCode's own
	// dependency install as done (see prefillDeps). OpenCode
	// installs into every config directory it reads, so for a project
	// install both the project's and the user's are needed.
	Offline []string
	// Flavor is the host the plugin is installed for (zero: OpenCode).
	Flavor Flavor
}

// pluginSource is the plugin file for a binary path.
func pluginSource(bin string) (string, error) {
	if !strings.Contains(plugin.Source, plugin.BinLine) {
		return "", errors.New("embedded OpenCode plugin has no binary line")
	}
	q, _ := json.Marshal(bin) // a JSON string is a valid TS string literal
	return strings.Replace(plugin.Source, plugin.BinLine, "const DEFAULT_BIN = "+string(q), 1), nil
}

// Install writes the plugin file; running it again with the same
// binary changes nothing. A file of that name that is not ours is left
// alone (an error).
func Install(opts InstallOptions) (install.Report, error) {
	f := opts.Flavor.or()
	path := pluginPath(opts.ConfigDir)
	rep := install.Report{Host: f.Name, Path: path}
	if err := install.CheckBinaryPath(opts.BinaryPath); err != nil {
		return rep, err
	}
	src, err := pluginSource(opts.BinaryPath)
	if err != nil {
		return rep, err
	}
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		rep.Action, rep.Created, rep.Added = install.ActionInstalled, true, pluginHooks
	case err != nil:
		return rep, fmt.Errorf("read %s: %w", path, err)
	case !bytes.Contains(old, []byte(pluginMarker)):
		return rep, fmt.Errorf("%s exists and is not atreides's plugin; move it away first", path)
	case string(old) == src:
		rep.Action = install.ActionUnchanged
	default:
		rep.Action, rep.Updated = install.ActionUpdated, pluginHooks
	}
	if rep.Action != install.ActionUnchanged {
		if err := (install.OwnFile{Path: path, BackupDir: opts.BackupDir}).Write([]byte(src), rep.Created); err != nil {
			return rep, err
		}
	}
	if p := install.BinaryProblem(opts.BinaryPath); p != "" {
		rep.Warnings = append(rep.Warnings, p)
	}
	for _, dir := range opts.Offline {
		done, err := prefillDeps(dir, f.DepsPackage)
		if err != nil {
			return rep, err
		}
		if done {
			rep.Notes = append(rep.Notes, "marked "+f.Name+"'s dependency install in "+dir+" as done (offline start; see atreides install --help)")
		}
	}
	rep.Notes = append(rep.Notes, f.Name+" loads the plugin at its next start; it starts `atreides serve --stdio` once per instance.")
	return rep, nil
}

// Uninstall removes the plugin file if it is ours, the directories
// install created for it (when still empty), and the offline markers
// install wrote in dirs if they are still exactly as written.
func Uninstall(configDir, backupDir string, offline []string) (install.Report, error) {
	return OpenCode().Uninstall(configDir, backupDir, offline)
}

// Uninstall is [Uninstall] for the flavor's host.
func (f Flavor) Uninstall(configDir, backupDir string, offline []string) (install.Report, error) {
	f = f.or()
	path := pluginPath(configDir)
	rep := install.Report{Host: f.Name, Path: path, Action: install.ActionNothingToDo}
	// The markers first: they may sit in a directory install created for
	// the plugin, which can go only once it is empty.
	for _, dir := range offline {
		if removePrefill(dir, f.DepsPackage) {
			rep.Notes = append(rep.Notes, "removed the offline dependency marker in "+dir)
		}
	}
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return rep, fmt.Errorf("read %s: %w", path, err)
	case !bytes.Contains(old, []byte(pluginMarker)):
		rep.Warnings = append(rep.Warnings, path+" is not atreides's plugin; left alone")
	default:
		if err := (install.OwnFile{Path: path, BackupDir: backupDir}).Remove(); err != nil {
			return rep, err
		}
		rep.Action, rep.Removed = install.ActionRemoved, pluginHooks
	}
	return rep, nil
}

// Inspect reports on a plugin file (pluginPath of a
// config directory) for doctor: whether it is there and ours, and the
// binary it starts.
func Inspect(path string) (install.Status, error) {
	return OpenCode().Inspect(path)
}

// Inspect is [Inspect] for the flavor's host.
func (f Flavor) Inspect(path string) (install.Status, error) {
	f = f.or()
	st := install.Status{Host: f.Name, Path: path}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		st.Parses = true
		return st, nil
	}
	if err != nil {
		return st, err
	}
	st.Exists = true
	if !bytes.Contains(data, []byte(pluginMarker)) {
		st.Problem = "not atreides's plugin"
		return st, nil
	}
	st.Parses = true
	st.Events = pluginHooks
	bin, ok := pluginBinary(string(data))
	if !ok {
		st.Problem = "the plugin names no binary (reinstall with `atreides install " + f.Name + "`)"
		st.Parses = false
		return st, nil
	}
	st.Binaries = []install.Binary{pluginBinaryStatus(bin)}
	if src, _ := pluginSource(bin); src != string(data) {
		st.Notes = append(st.Notes, "the plugin differs from this atreides's version; `atreides install "+f.Name+"` updates it")
	}
	return st, nil
}

// pluginBinaryStatus is whether the binary a plugin names would run: a
// bare atreides (a project install's) is looked up in PATH, and when it
// is not there Resolved stays empty, which doctor reports as such.
func pluginBinaryStatus(bin string) install.Binary {
	b := install.Binary{Command: bin, Resolved: bin, Events: pluginHooks}
	if bin == install.PortableBinary {
		p, err := exec.LookPath(bin)
		if err != nil {
			b.Resolved = ""
			b.Problem = "not found in PATH"
			return b
		}
		b.Resolved = p
	}
	if p := install.CheckExecutable(b.Resolved); p != "" {
		b.Problem = p
	} else {
		b.Executable = true
	}
	return b
}

// pluginBinary reads DEFAULT_BIN from a plugin file.
func pluginBinary(src string) (string, bool) {
	const prefix = "const DEFAULT_BIN = "
	for _, line := range strings.Split(src, "\n") {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			var bin string
			if json.Unmarshal([]byte(strings.TrimSpace(rest)), &bin) != nil || bin == "" {
				return "", false
			}
			return bin, true
		}
	}
	return "", false
}

// The offline start. At every start OpenCode (1.18.33) writes a
// package.json asking for @opencode-ai/plugin into each config directory
// and installs it with its embedded npm; when a plugin is configured it
// waits for that install before loading plugins. Without a registry the
// wait is about 70 s. The install is skipped when the directory has a
// node_modules directory and a package-lock.json whose root package lists
// every dependency of package.json and @opencode-ai/plugin (it checks
// names only). prefillDeps writes exactly that: an empty
// node_modules and a lock naming @opencode-ai/plugin. The atreides plugin
// imports nothing, so nothing is missing; a plugin of the user's that
// imports @opencode-ai/plugin would need a real install (run opencode once
// online, or npm install in that directory). Kilo Code (7.7.7) does the
// same with @kilocode/plugin: the lock names the flavor's package.

// depsLock is the lock that marks the install of pkg as done.
func depsLock(pkg string) string {
	q, _ := json.Marshal(pkg)
	return `{
  "name": "opencode-config",
  "lockfileVersion": 3,
  "requires": true,
  "packages": {
    "": {
      "dependencies": {
        ` + string(q) + `: "*"
      }
    }
  }
}
`
}

const depsGitignore = "node_modules\npackage.json\npackage-lock.json\nbun.lock\n.gitignore\n"

// depsMadeDir ends the marker's .gitignore when prefillDeps made the
// config directory itself (the user's ~/.config/opencode, for a project
// install): removePrefill then removes the directory too, once empty, so
// that uninstall leaves the home directory as it found it.
const depsMadeDir = "# atreides made this directory\n"

// prefillDeps marks OpenCode's dependency install in a config
// directory as done, unless the directory already has node_modules or a
// lock (then OpenCode's own install state is left as it is). It reports
// whether it wrote anything.
func prefillDeps(dir, pkg string) (bool, error) {
	if exists(filepath.Join(dir, "node_modules")) || exists(filepath.Join(dir, "package-lock.json")) {
		return false, nil
	}
	ignore := depsGitignore
	if !exists(dir) {
		ignore += depsMadeDir
	}
	if err := os.MkdirAll(filepath.Join(dir, "node_modules"), 0o755); err != nil {
		return false, err
	}
	if err := install.WriteAtomic(filepath.Join(dir, "package-lock.json"), []byte(depsLock(pkg)), 0o644); err != nil {
		return false, err
	}
	if gi := filepath.Join(dir, ".gitignore"); !exists(gi) {
		if err := install.WriteAtomic(gi, []byte(ignore), 0o644); err != nil {
			return false, err
		}
	}
	return true, nil
}

// removePrefill undoes prefillDeps when what it wrote is
// untouched (the lock as written, node_modules still empty).
func removePrefill(dir, pkg string) bool {
	lock := filepath.Join(dir, "package-lock.json")
	if b, err := os.ReadFile(lock); err != nil || string(b) != depsLock(pkg) {
		return false
	}
	if entries, err := os.ReadDir(filepath.Join(dir, "node_modules")); err != nil || len(entries) > 0 {
		return false
	}
	_ = os.Remove(lock)
	_ = os.Remove(filepath.Join(dir, "node_modules"))
	gi := filepath.Join(dir, ".gitignore")
	made := fileIs(gi, depsGitignore+depsMadeDir)
	if made || fileIs(gi, depsGitignore) {
		_ = os.Remove(gi)
	}
	if made {
		_ = os.Remove(dir) // only when empty: anything put there since stays
	}
	return true
}

func fileIs(path, content string) bool {
	b, err := os.ReadFile(path)
	return err == nil && string(b) == content
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
