package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	plugin "github.com/atreides-dev/atreides/plugins/opencode"
)

// OpenCode loads every {plugin,plugins}/*.{ts,js} file of its config
// directories (the project's .opencode/ and the user's
// $XDG_CONFIG_HOME/opencode/) without a build step, so install writes the
// plugin there as one file, atreides.ts, with the binary's path filled in.
// Nothing else of the user's is touched: other plugins and opencode.json
// stay as they are, and uninstall removes only that file.

// OpenCodePluginFile is the name of the plugin file install writes.
const OpenCodePluginFile = "atreides.ts"

// openCodeHooks are the hooks the plugin registers (for doctor).
var openCodeHooks = []string{
	"tool.execute.before", "tool.execute.after", "experimental.chat.messages.transform", "experimental.chat.system.transform",
	"experimental.session.compacting", "chat.message", "experimental.text.complete", "event", "config",
}

// pluginMarker identifies a plugin file as ours.
const pluginMarker = "// atreides for OpenCode:"

// OpenCodeConfigDir is OpenCode's config directory of a scope: the
// project's .opencode/, or the user's $XDG_CONFIG_HOME/opencode (configHome
// is $XDG_CONFIG_HOME when absolute, else ~/.config). ScopeLocal is the
// project's too: OpenCode has no machine-only project directory.
func OpenCodeConfigDir(scope Scope, projectDir, configHome string) string {
	if scope == ScopeUser {
		return filepath.Join(configHome, "opencode")
	}
	return filepath.Join(projectDir, ".opencode")
}

// OpenCodeConfigHome is $XDG_CONFIG_HOME when it is absolute, else
// ~/.config: where OpenCode looks for the user's config directory.
func OpenCodeConfigHome(xdgConfigHome, home string) string {
	if filepath.IsAbs(xdgConfigHome) {
		return xdgConfigHome
	}
	return filepath.Join(home, ".config")
}

// OpenCodePluginPath is the plugin file in a config directory.
func OpenCodePluginPath(configDir string) string {
	return filepath.Join(configDir, "plugin", OpenCodePluginFile)
}

// OpenCodeOptions says where and how to install the plugin.
type OpenCodeOptions struct {
	ConfigDir  string // the OpenCode config directory (see OpenCodeConfigDir)
	BinaryPath string // PortableBinary, or the absolute path of the atreides binary the plugin starts
	BackupDir  string // see BackupDir; "" keeps no record of the directories install created
	// Offline lists config directories in which to mark OpenCode's own
	// dependency install as done (see PrefillOpenCodeDeps). OpenCode
	// installs into every config directory it reads, so for a project
	// install both the project's and the user's are needed.
	Offline []string
}

// OpenCodePluginSource is the plugin file for a binary path.
func OpenCodePluginSource(bin string) (string, error) {
	if !strings.Contains(plugin.Source, plugin.BinLine) {
		return "", errors.New("embedded OpenCode plugin has no binary line")
	}
	q, _ := json.Marshal(bin) // a JSON string is a valid TS string literal
	return strings.Replace(plugin.Source, plugin.BinLine, "const DEFAULT_BIN = "+string(q), 1), nil
}

// InstallOpenCode writes the plugin file; running it again with the same
// binary changes nothing. A file of that name that is not ours is left
// alone (an error).
func InstallOpenCode(opts OpenCodeOptions) (Report, error) {
	path := OpenCodePluginPath(opts.ConfigDir)
	rep := Report{Host: "opencode", Path: path}
	if err := CheckBinaryPath(opts.BinaryPath); err != nil {
		return rep, err
	}
	src, err := OpenCodePluginSource(opts.BinaryPath)
	if err != nil {
		return rep, err
	}
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		rep.Action, rep.Created, rep.Added = ActionInstalled, true, openCodeHooks
	case err != nil:
		return rep, fmt.Errorf("read %s: %w", path, err)
	case !bytes.Contains(old, []byte(pluginMarker)):
		return rep, fmt.Errorf("%s exists and is not atreides's plugin; move it away first", path)
	case string(old) == src:
		rep.Action = ActionUnchanged
	default:
		rep.Action, rep.Updated = ActionUpdated, openCodeHooks
	}
	if rep.Action != ActionUnchanged {
		bk := backupsFor(opts.BackupDir, path)
		created := missingDirs(filepath.Dir(path))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return rep, err
		}
		if err := writeAtomic(path, []byte(src), 0o644); err != nil {
			return rep, err
		}
		if rep.Created {
			// The plugin file is wholly ours; the record only remembers the
			// directories made for it, for uninstall to remove.
			if err := bk.record(&undo{Path: path, Dirs: created, Written: digest([]byte(src))}, nil); err != nil {
				return rep, err
			}
		}
	}
	if p := BinaryProblem(opts.BinaryPath); p != "" {
		rep.Warnings = append(rep.Warnings, p)
	}
	for _, dir := range opts.Offline {
		done, err := PrefillOpenCodeDeps(dir)
		if err != nil {
			return rep, err
		}
		if done {
			rep.Notes = append(rep.Notes, "marked OpenCode's dependency install in "+dir+" as done (offline start; see atreides install --help)")
		}
	}
	rep.Notes = append(rep.Notes, "OpenCode loads the plugin at its next start; it starts `atreides serve --stdio` once per OpenCode instance.")
	return rep, nil
}

// UninstallOpenCode removes the plugin file if it is ours, the directories
// install created for it (when still empty), and the offline markers
// install wrote in dirs if they are still exactly as written.
func UninstallOpenCode(configDir, backupDir string, offline []string) (Report, error) {
	path := OpenCodePluginPath(configDir)
	rep := Report{Host: "opencode", Path: path, Action: ActionNothingToDo}
	// The markers first: they may sit in a directory install created for
	// the plugin, which can go only once it is empty.
	for _, dir := range offline {
		if removeOpenCodePrefill(dir) {
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
		if err := os.Remove(path); err != nil {
			return rep, err
		}
		rep.Action, rep.Removed = ActionRemoved, openCodeHooks
		bk := backupsFor(backupDir, path)
		if u := bk.load(); u != nil {
			removeDirs(u.Dirs)
			bk.forget()
		}
	}
	return rep, nil
}

// InspectOpenCode reports on a plugin file (OpenCodePluginPath of a
// config directory) for doctor: whether it is there and ours, and the
// binary it starts.
func InspectOpenCode(path string) (Status, error) {
	st := Status{Host: "opencode", Path: path}
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
	st.Events = openCodeHooks
	bin, ok := pluginBinary(string(data))
	if !ok {
		st.Problem = "the plugin names no binary (reinstall with `atreides install opencode`)"
		st.Parses = false
		return st, nil
	}
	b := Binary{Command: bin, Resolved: bin, Events: openCodeHooks}
	if p := checkExecutable(bin); p != "" {
		b.Problem = p
	} else {
		b.Executable = true
	}
	st.Binaries = []Binary{b}
	if src, _ := OpenCodePluginSource(bin); src != string(data) {
		st.Notes = append(st.Notes, "the plugin differs from this atreides's version; `atreides install opencode` updates it")
	}
	return st, nil
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
// names only). PrefillOpenCodeDeps writes exactly that: an empty
// node_modules and a lock naming @opencode-ai/plugin. The atreides plugin
// imports nothing, so nothing is missing; a plugin of the user's that
// imports @opencode-ai/plugin would need a real install (run opencode once
// online, or npm install in that directory).

const openCodeLock = `{
  "name": "opencode-config",
  "lockfileVersion": 3,
  "requires": true,
  "packages": {
    "": {
      "dependencies": {
        "@opencode-ai/plugin": "*"
      }
    }
  }
}
`

const openCodeGitignore = "node_modules\npackage.json\npackage-lock.json\nbun.lock\n.gitignore\n"

// PrefillOpenCodeDeps marks OpenCode's dependency install in a config
// directory as done, unless the directory already has node_modules or a
// lock (then OpenCode's own install state is left as it is). It reports
// whether it wrote anything.
func PrefillOpenCodeDeps(dir string) (bool, error) {
	if openCodeExists(filepath.Join(dir, "node_modules")) || openCodeExists(filepath.Join(dir, "package-lock.json")) {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Join(dir, "node_modules"), 0o755); err != nil {
		return false, err
	}
	if err := writeAtomic(filepath.Join(dir, "package-lock.json"), []byte(openCodeLock), 0o644); err != nil {
		return false, err
	}
	if gi := filepath.Join(dir, ".gitignore"); !openCodeExists(gi) {
		if err := writeAtomic(gi, []byte(openCodeGitignore), 0o644); err != nil {
			return false, err
		}
	}
	return true, nil
}

// removeOpenCodePrefill undoes PrefillOpenCodeDeps when what it wrote is
// untouched (the lock as written, node_modules still empty).
func removeOpenCodePrefill(dir string) bool {
	lock := filepath.Join(dir, "package-lock.json")
	if b, err := os.ReadFile(lock); err != nil || string(b) != openCodeLock {
		return false
	}
	if entries, err := os.ReadDir(filepath.Join(dir, "node_modules")); err != nil || len(entries) > 0 {
		return false
	}
	_ = os.Remove(lock)
	_ = os.Remove(filepath.Join(dir, "node_modules"))
	if gi := filepath.Join(dir, ".gitignore"); fileIs(gi, openCodeGitignore) {
		_ = os.Remove(gi)
	}
	return true
}

func fileIs(path, content string) bool {
	b, err := os.ReadFile(path)
	return err == nil && string(b) == content
}

func openCodeExists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
