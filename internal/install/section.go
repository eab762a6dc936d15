package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// The managed section is a short block install can add to the project's
// instructions file (AGENTS.md, or the host's own such as CLAUDE.md),
// telling agents what atreides enforces and which tools it offers. It sits
// between two HTML comments, which Markdown renders as nothing; everything
// outside them is the user's.
const (
	sectionBegin = "<!-- atreides:begin (managed by `atreides install --agents-md`; `atreides uninstall` removes it) -->"
	sectionEnd   = "<!-- atreides:end -->"
)

// SectionText is what the managed section says.
const SectionText = `## atreides

This project runs atreides, which checks the agent's tool calls as they happen:

- Destructive or irreversible shell commands (force pushes, hard resets, deleting outside the project, piping downloads into a shell) are blocked or need the user's confirmation, and secrets are kept out of reads, writes and output.
- Before you stop, open todos must be finished or reported; atreides asks you to go on otherwise.
- When governance is on, every write belongs to the intent you selected and stays inside its scope.

Its tools (the MCP server ` + "`atreides`" + `; on OpenCode, plugin tools named atreides_<tool>): ` + "`select_active_intent`, `list_intents`, `request_scope_expansion`, `todo_add`, `todo_update`, `todo_list`, `session_status`, `task_create`, `task_update_status`, `task_claim`, `task_ready`, `error_record`, `phase_done`" + `, and for work that runs beside you ` + "`background_task`, `background_output`, `background_cancel`, `delegate_task`" + `, and ` + "`review_models`" + ` for a review by several models merged by agreement.

When atreides blocks a call, its reason says why: change approach rather than working around it. ` + "`atreides doctor`" + ` checks the installation.`

const sectionWhat = "atreides's managed section"

func sectionBlock() string { return sectionBegin + "\n" + SectionText + "\n" + sectionEnd + "\n" }

// findSection returns the byte range of the managed block in data, the
// end including the line break after the end marker.
func findSection(data []byte) (int, int, bool) {
	i := bytes.Index(data, []byte(sectionBegin))
	if i < 0 {
		return 0, 0, false
	}
	j := bytes.Index(data[i:], []byte(sectionEnd))
	if j < 0 {
		return 0, 0, false
	}
	end := i + j + len(sectionEnd)
	if end < len(data) && data[end] == '\n' {
		end++
	}
	return i, end, true
}

// AddSection adds the managed section at the end of the instructions file
// at path (creating it), or brings an existing one up to date. The file's
// own text is never touched.
func AddSection(path, backupDir string) (Report, error) {
	r := Report{Path: path, what: sectionWhat}
	data, err := os.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return r, fmt.Errorf("read %s: %w", path, err)
	}
	var out []byte
	if i, j, ok := findSection(data); ok {
		if string(data[i:j]) == sectionBlock() || string(data[i:j]) == strings.TrimSuffix(sectionBlock(), "\n") {
			r.Action = ActionUnchanged
			return r, nil
		}
		out = append(append(append([]byte{}, data[:i]...), sectionBlock()...), data[j:]...)
		r.Action, r.Updated = ActionUpdated, []string{"managed section"}
	} else {
		out = append(append([]byte{}, data...), sectionSeparator(data)...)
		out = append(out, sectionBlock()...)
		r.Action, r.Added, r.Created = ActionInstalled, []string{"managed section"}, !exists
	}
	f := &textFile{path: path, exists: exists, data: data, bk: backupsFor(backupDir, path)}
	r.Backup, err = f.saveInstall(out, r.Action == ActionInstalled)
	return r, err
}

// sectionSeparator puts the section after a blank line.
func sectionSeparator(data []byte) string {
	switch {
	case len(data) == 0:
		return ""
	case bytes.HasSuffix(data, []byte("\n\n")):
		return ""
	case bytes.HasSuffix(data, []byte("\n")):
		return "\n"
	}
	return "\n\n"
}

// RemoveSection removes the managed section: a file still exactly as
// AddSection left it gets its previous bytes back (or is removed when
// AddSection created it); otherwise the block and the blank line before it
// go, and the rest stays.
func RemoveSection(path, backupDir string) (Report, error) {
	r := Report{Path: path, Action: ActionNothingToDo, what: sectionWhat}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return r, fmt.Errorf("read %s: %w", path, err)
	}
	i, j, ok := findSection(data)
	if !ok {
		return r, nil
	}
	r.Action, r.Removed = ActionRemoved, []string{"managed section"}
	start := i
	if bytes.HasSuffix(data[:i], []byte("\n\n")) {
		start = i - 1
	}
	out := append(append([]byte{}, data[:start]...), data[j:]...)
	f := &textFile{path: path, exists: true, data: data, bk: backupsFor(backupDir, path)}
	r.Backup, err = f.saveUninstall(out)
	return r, err
}

// textFile is a file install edits as text.
type textFile struct {
	path   string
	exists bool
	data   []byte
	bk     backups
}

func (f *textFile) saveInstall(out []byte, first bool) (string, error) {
	var start *undo
	if first {
		start = &undo{Path: f.path, Existed: f.exists, Mode: 0o644}
	}
	return f.bk.saveInstall(start, f.exists, f.data, out, f.write)
}

func (f *textFile) saveUninstall(out []byte) (string, error) {
	u := f.bk.load()
	if u != nil && u.Written == digest(f.data) {
		if !u.Existed {
			backup, err := f.bk.keepPrevious(f.data)
			if err == nil {
				err = os.Remove(f.path)
			}
			f.bk.forget()
			return backup, err
		}
		orig, err := f.bk.original()
		if err != nil {
			return "", err
		}
		out = orig
	}
	backup, err := f.write(out)
	if err == nil {
		f.bk.forget()
	}
	return backup, err
}

func (f *textFile) write(out []byte) (string, error) {
	mode := fs.FileMode(0o644)
	backup := ""
	if f.exists {
		fi, err := os.Stat(f.path)
		if err != nil {
			return "", err
		}
		mode = fi.Mode().Perm()
		if backup, err = f.bk.keepPrevious(f.data); err != nil {
			return "", err
		}
	}
	if err := WriteAtomic(f.path, out, mode); err != nil {
		return "", fmt.Errorf("write %s: %w", f.path, err)
	}
	return backup, nil
}
