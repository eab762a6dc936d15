package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/agents"
)

// Agent files. atreides writes one file per roster agent into a host's
// agent directory under the name the host knows it by
// (agents.HostName: Claude Code .claude/agents/atreides-<id>.md, Gemini
// CLI .gemini/agents/atreides-<id>.md, Codex agents/atreides-<id>.toml).
// Each carries a marker comment with a digest of the rest of its content,
// so the file says itself whose it is and whether it changed since:
//
//   - a file without the marker is the user's: install leaves it alone,
//     skips that one agent with a line in its report and goes on (the
//     user is not asked to rename anything); uninstall never touches it;
//   - a file with the marker and a matching digest is atreides's as
//     written: install replaces it, uninstall removes it;
//   - a file with the marker whose digest no longer matches was edited by
//     the user: both leave it, with a note.
//
// A marked file of an agent no longer in the roster is removed by install,
// and so is one of an install from before the prefix (explore.md beside
// atreides-explore.md): an upgrade leaves no stale duplicates.
// The directories install created are recorded like a settings file's
// (backup.go) and removed by uninstall once empty.

// agentMarker starts the marker line; the digest follows it.
const agentMarker = "# atreides agent file: 'atreides uninstall' removes it, keeping it if you edit it; digest "

// AgentForm is how one host takes an agent file.
type AgentForm struct {
	Host string // as in Report.Host
	Ext  string // ".md", ".toml"
	// Render is the file's content without the marker; the marker goes on
	// the line after the first line of the result when that line is
	// "---" (a front matter), else first.
	Render func(a agents.Agent, prompt string) string
	// Installs reports whether the host gets a file for a (Claude Code
	// does not for the lead agent, which is its session's own identity).
	Installs func(a agents.Agent) bool
}

// Subagents is [AgentForm.Installs] for a host whose lead agent is its
// session's own identity, which atreides injects at session start: only
// the subagents get files.
func Subagents(a agents.Agent) bool { return a.Mode == agents.Subagent }

// File is the agent's file as install writes it: the rendered content
// with the marker line.
func (f AgentForm) File(a agents.Agent, prompt string) string {
	return withMarker(agentMarker, f.Render(a, prompt))
}

// State tells whose an agent file is.
func (AgentForm) State(data []byte) FileState { return classifyMarked(agentMarker, data) }

// AgentsOptions configure InstallAgents.
type AgentsOptions struct {
	Dir    string // the host's agent directory
	Form   AgentForm
	Roster agents.Roster
	// Prompt is an agent's prompt as installed (its skills appended where
	// the host has no event to inject them on); nil: the prompt.
	Prompt    func(a agents.Agent) string
	BackupDir string
}

// withMarker puts the marker line into a rendered file.
func withMarker(marker, content string) string {
	line := marker + digest([]byte(content))[:16] + "\n"
	if rest, ok := strings.CutPrefix(content, "---\n"); ok {
		return "---\n" + line + rest
	}
	return line + content
}

// FileState tells whose an agent or command file is: not ours, ours as
// written, or ours but edited since (by the marker line near its start).
type FileState int

const (
	UserFile FileState = iota
	OursAsWritten
	OursEdited
)

// classifyMarked tells whose a file is by the marker line near its start.
func classifyMarked(marker string, data []byte) FileState {
	i := bytes.Index(data, []byte(marker))
	if i < 0 || i > 4 {
		return UserFile
	}
	end := bytes.IndexByte(data[i:], '\n')
	if end < 0 {
		return OursEdited
	}
	sum := string(data[i+len(marker) : i+end])
	rest := append(append([]byte{}, data[:i]...), data[i+end+1:]...)
	if len(sum) == 16 && digest(rest)[:16] == sum {
		return OursAsWritten
	}
	return OursEdited
}

// markedFiles is a set of atreides's own files in one directory, one per
// id, each carrying the marker of its kind: the roster's agent files, the
// slash commands.
type markedFiles struct {
	host, dir, ext string
	kind           string // "agent", "command": for messages
	marker         string
	ids            []string          // in the order to report them
	want           map[string]string // id → content, marker included
	backupDir      string
}

// MarkedFile is the file install writes for the agent or command id in
// dir, with the form's extension ext; doctor looks for it there.
func MarkedFile(dir, id, ext string) string { return filepath.Join(dir, id+ext) }

// InstallAgents writes the roster's agent files into o.Dir.
func InstallAgents(o AgentsOptions) (Report, error) {
	m := markedFiles{host: o.Form.Host, dir: o.Dir, ext: o.Form.Ext, kind: "agent", marker: agentMarker, want: map[string]string{}, backupDir: o.BackupDir}
	for _, a := range o.Roster {
		if o.Form.Installs != nil && !o.Form.Installs(a) {
			continue
		}
		prompt := a.Prompt
		if o.Prompt != nil {
			prompt = o.Prompt(a)
		}
		m.want[a.HostName()] = o.Form.File(a, prompt)
		m.ids = append(m.ids, a.HostName())
	}
	return m.install()
}

// install writes the files of m.ids, removes files of ours whose id is
// no longer wanted, and records the directories it created.
func (m markedFiles) install() (Report, error) {
	rep := Report{Host: m.host, Path: m.dir, Action: ActionUnchanged, what: "atreides " + m.kind + "s"}
	bk := backupsFor(m.backupDir, m.dir)
	if len(m.ids) > 0 {
		created := missingDirs(m.dir)
		if err := os.MkdirAll(m.dir, 0o755); err != nil {
			return rep, err
		}
		if len(created) > 0 {
			rep.Created = true
			if err := bk.record(&undo{Path: m.dir, Dirs: created}, nil); err != nil {
				return rep, err
			}
		}
	}
	for _, id := range m.ids {
		path := MarkedFile(m.dir, id, m.ext)
		old, err := os.ReadFile(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			rep.Added = append(rep.Added, id)
		case err != nil:
			return rep, fmt.Errorf("read %s: %w", path, err)
		case string(old) == m.want[id]:
			continue
		case classifyMarked(m.marker, old) == UserFile:
			rep.Notes = append(rep.Notes, fmt.Sprintf("skipped the %s %s: %s is your own file, left as it is", m.kind, id, path))
			continue
		case classifyMarked(m.marker, old) == OursEdited:
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s was edited since atreides installed it; kept as it is (delete it to get atreides's again)", path))
			continue
		default:
			rep.Updated = append(rep.Updated, id)
		}
		if err := WriteAtomic(path, []byte(m.want[id]), 0o644); err != nil {
			return rep, err
		}
	}
	removed, err := removeMarked(m.dir, m.ext, m.marker, func(id string) bool { return !slices.Contains(m.ids, id) }, &rep)
	if err != nil {
		return rep, err
	}
	rep.Removed = removed
	if len(rep.Added)+len(rep.Updated)+len(rep.Removed) > 0 {
		rep.Action = ActionUpdated
		if len(rep.Updated)+len(rep.Removed) == 0 {
			rep.Action = ActionInstalled
		}
	}
	return rep, nil
}

// UninstallAgents removes atreides's agent files from dir (keeping those
// edited since, with a note) and the directories install created for
// them, once empty.
func UninstallAgents(dir, host, ext, backupDir string) (Report, error) {
	return uninstallMarked(markedFiles{host: host, dir: dir, ext: ext, kind: "agent", marker: agentMarker, backupDir: backupDir})
}

// uninstallMarked removes m's files of ours as written and the
// directories install created for them, once empty.
func uninstallMarked(m markedFiles) (Report, error) {
	rep := Report{Host: m.host, Path: m.dir, Action: ActionNothingToDo, what: "atreides " + m.kind + "s"}
	removed, err := removeMarked(m.dir, m.ext, m.marker, func(string) bool { return true }, &rep)
	if err != nil {
		return rep, err
	}
	if rep.Removed = removed; len(removed) > 0 {
		rep.Action = ActionRemoved
	}
	bk := backupsFor(m.backupDir, m.dir)
	if u := bk.load(); u != nil {
		removeDirs(u.Dirs)
		bk.forget()
	}
	return rep, nil
}

// removeMarked removes the files of ours (by marker) in dir whose id drop
// selects, as long as they are as atreides wrote them.
func removeMarked(dir, ext, marker string, drop func(id string) bool, rep *Report) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	var removed []string
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ext)
		if !ok || !e.Type().IsRegular() || !drop(id) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(path)
		if err != nil {
			return removed, fmt.Errorf("read %s: %w", path, err)
		}
		switch classifyMarked(marker, data) {
		case OursEdited:
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s was edited since atreides installed it; kept (delete it yourself if you no longer want it)", path))
		case OursAsWritten:
			if err := os.Remove(path); err != nil {
				return removed, err
			}
			removed = append(removed, id)
		}
	}
	return removed, nil
}
