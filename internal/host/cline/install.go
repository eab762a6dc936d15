package cline

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/shell"
)

// Cline 3.0.65 runs every executable file named after an event in its hook
// directories (the workspace's .clinerules/hooks/, and <config>/hooks/,
// the config directory being --config, $CLINE_DIR or ~/.cline), passing
// the payload on stdin. Install writes one small script per event it
// uses, without an extension: Cline then executes the file itself (its
// #!/bin/sh line) rather than through an interpreter it picks by the
// extension, and the file's name is exactly the event's. A file of that
// name that is not ours is left alone (that event is reported and
// skipped); uninstall removes only files of ours and the directories
// install made that are empty again.

// Events are the events install writes a hook for: the tool events decide
// and carry context; TaskStart and TaskResume open the session in
// atreides's state (their answer is not read: see the package doc);
// TaskComplete records the stop. UserPromptSubmit did not fire for a
// headless prompt, and PreCompact never fires, in 3.0.65.
var Events = []string{"PreToolUse", "PostToolUse", "TaskStart", "TaskResume", "TaskComplete"}

// marker is the line that makes a hook file ours.
const marker = "# atreides for Cline:"

// HooksDir is Cline's hook directory of a scope: the project's
// .clinerules/hooks, or <config dir>/hooks for the user, the config
// directory being $CLINE_DIR when set, else ~/.cline.
func HooksDir(scope install.Scope, projectDir, home, clineDir string) string {
	if scope == install.ScopeUser {
		if clineDir != "" {
			return filepath.Join(clineDir, "hooks")
		}
		return filepath.Join(home, ".cline", "hooks")
	}
	return filepath.Join(projectDir, ".clinerules", "hooks")
}

// script is the hook file of an event: it hands the payload to atreides.
func script(ev, bin string, timeout int) string {
	return "#!/bin/sh\n" + marker + " " + ev + " hook, written by 'atreides install cline'; 'atreides uninstall cline' removes it.\n" +
		"exec " + install.HookCommand(bin, Host, ev, time.Duration(timeout)*time.Second) + "\n"
}

// ours reports whether a hook file's content is atreides's.
func ours(data []byte) bool { return bytes.Contains(data, []byte("\n"+marker+" ")) }

// InstallOptions say where and how to install the hooks.
type InstallOptions struct {
	Dir        string // the hook directory (see HooksDir)
	BinaryPath string // install.PortableBinary, or the atreides binary's absolute path
	Timeout    int    // seconds; 0: install.DefaultTimeoutSeconds
	BackupDir  string // where the directories install made are recorded
}

// Install writes the hook files; running it again changes nothing.
func Install(o InstallOptions) (install.Report, error) {
	rep := install.Report{Host: Host, Path: filepath.Join(o.Dir, Events[0]), Action: install.ActionUnchanged}
	if err := install.CheckBinaryPath(o.BinaryPath); err != nil {
		return rep, err
	}
	if o.Timeout <= 0 {
		o.Timeout = install.DefaultTimeoutSeconds
	}
	for _, ev := range Events {
		if err := installOne(&rep, o, ev); err != nil {
			return rep, err
		}
	}
	switch {
	case len(rep.Added) > 0 && len(rep.Updated) == 0 && len(rep.Added)+len(rep.Warnings) == len(Events):
		rep.Action = install.ActionInstalled
	case len(rep.Added)+len(rep.Updated) > 0:
		rep.Action = install.ActionUpdated
	}
	rep.Created = len(rep.Added) > 0 && rep.Action == install.ActionInstalled
	if p := install.BinaryProblem(o.BinaryPath); p != "" {
		rep.Warnings = append(rep.Warnings, p+"; Cline runs on without atreides when a hook cannot start")
	}
	return rep, nil
}

// installOne writes the hook file of one event, unless a file not ours
// holds its name.
func installOne(rep *install.Report, o InstallOptions, ev string) error {
	path := filepath.Join(o.Dir, ev)
	want := script(ev, o.BinaryPath, o.Timeout)
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		rep.Added = append(rep.Added, ev)
	case err != nil:
		return fmt.Errorf("read %s: %w", path, err)
	case !ours(old):
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s is not atreides's: left alone, so atreides does not see %s (merge the two by hand: call '%s' from it)", path, ev, strings.TrimPrefix(lastLine(want), "exec ")))
		return nil
	case string(old) == want:
		return nil
	default:
		rep.Updated = append(rep.Updated, ev)
	}
	f := install.OwnFile{Path: path, BackupDir: o.BackupDir}
	if err := f.Write([]byte(want), old == nil); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	// OwnFile writes 0644: a hook must be executable to run.
	if err := os.Chmod(path, 0o755); err != nil {
		return fmt.Errorf("make %s executable: %w", path, err)
	}
	return nil
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// Uninstall removes the hook files of ours, in the reverse of install's
// order (the first one written recorded the directories made for all),
// then those directories if they are empty.
func Uninstall(dir, backupDir string) (install.Report, error) {
	rep := install.Report{Host: Host, Path: filepath.Join(dir, Events[0]), Action: install.ActionNothingToDo}
	for _, ev := range slices.Backward(Events) {
		path := filepath.Join(dir, ev)
		data, err := os.ReadFile(path)
		if err != nil || !ours(data) {
			continue
		}
		if err := (install.OwnFile{Path: path, BackupDir: backupDir}).Remove(); err != nil {
			return rep, fmt.Errorf("remove %s: %w", path, err)
		}
		rep.Removed = append(rep.Removed, ev)
		rep.Action = install.ActionRemoved
	}
	slices.Reverse(rep.Removed)
	return rep, nil
}

// Inspect reports which hook files of ours are in the directory of path
// (a hook file's path, as Entry.Path gives it) and the binary they run.
func Inspect(path string) (install.Status, error) {
	dir := filepath.Dir(path)
	st := install.Status{Host: Host, Path: path, Parses: true}
	bins := map[string]*install.Binary{}
	var order []string
	for _, ev := range Events {
		data, err := os.ReadFile(filepath.Join(dir, ev))
		if err != nil {
			continue
		}
		st.Exists = true
		if !ours(data) {
			st.Notes = append(st.Notes, filepath.Join(dir, ev)+" is not atreides's")
			continue
		}
		st.Events = append(st.Events, ev)
		if fi, err := os.Stat(filepath.Join(dir, ev)); err == nil && fi.Mode().Perm()&0o111 == 0 {
			st.Disabled = filepath.Join(dir, ev) + " is not executable: Cline does not run it (chmod +x, or run 'atreides install cline' again)"
		}
		b := binaryOf(strings.TrimPrefix(lastLine(string(data)), "exec "))
		if seen := bins[b.Command]; seen != nil {
			b = seen
		} else {
			bins[b.Command] = b
			order = append(order, b.Command)
		}
		b.Events = append(b.Events, ev)
	}
	for _, c := range order {
		st.Binaries = append(st.Binaries, *bins[c])
	}
	if len(st.Events) > 0 {
		for _, ev := range Events {
			if !slices.Contains(st.Events, ev) {
				st.Missing = append(st.Missing, ev)
			}
		}
	}
	return st, nil
}

// binaryOf is the program a hook's exec line runs, checked.
func binaryOf(cmd string) *install.Binary {
	words, dynamic, ok := shell.Argv(cmd)
	b := &install.Binary{}
	switch {
	case !ok || len(words) == 0:
		b.Problem = "the hook's command does not parse"
		return b
	case dynamic:
		b.Command, b.Problem = words[0], "depends on shell expansion; cannot be checked"
		return b
	}
	b.Command, b.Resolved = words[0], words[0]
	if !filepath.IsAbs(words[0]) {
		p, err := exec.LookPath(words[0])
		if err != nil {
			b.Resolved, b.Problem = "", "not found in PATH"
			return b
		}
		b.Resolved = p
	}
	b.Problem = install.CheckExecutable(b.Resolved)
	b.Executable = b.Problem == ""
	return b
}
