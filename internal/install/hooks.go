package install

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/shell"
)

// This file holds the merge machinery for the three-level hooks shape that
// Claude Code's settings.json, Gemini CLI's settings.json and Codex's
// hooks.json share:
//
//	{"hooks": {"<Event>": [{"matcher": "...", "hooks": [{handler}, ...]}, ...]}}
//
// A host plugs in only what differs: how to recognise our handler and what
// handler and matcher to write for each event.

// WantGroup is the matcher group atreides wants under one event.
type WantGroup struct {
	Event   string
	Matcher string // "" writes no matcher key (all / not applicable)
	Handler *Node  // our handler object; its keys are written over ours in place
}

// isOursFunc recognises atreides' own handler objects.
type isOursFunc func(handler *Node) bool

// hookChanges lists, per event, what an edit did.
type hookChanges struct {
	Added, Updated, Removed []string
}

func (c hookChanges) empty() bool {
	return len(c.Added)+len(c.Updated)+len(c.Removed) == 0
}

// hooksObject returns root's "hooks" object, creating it at the end of root
// when create is set. It refuses shapes the host would reject or that make
// the edit ambiguous, rather than guessing.
func hooksObject(root *Node, create bool) (*Node, error) {
	if root.Kind() != KindObject {
		return nil, fmt.Errorf("the top-level value is a JSON %s, but a settings file must be an object ({...})", root.Kind())
	}
	n := 0
	for _, m := range root.Members() {
		if m.Key == "hooks" {
			n++
		}
	}
	if n > 1 {
		return nil, fmt.Errorf(`the key "hooks" appears %d times; the host uses only the last one, so merge them into one`, n)
	}
	h := root.Get("hooks")
	if h == nil {
		if !create {
			return nil, nil
		}
		h = NewObject()
		root.Set("hooks", h)
		return h, nil
	}
	if h.Kind() != KindObject {
		return nil, fmt.Errorf(`"hooks" is a JSON %s, but it must be an object mapping event names to lists`, h.Kind())
	}
	if k, dup := h.DuplicateKey(); dup {
		return nil, fmt.Errorf(`the event %q appears more than once under "hooks"; the host uses only the last one, so merge them into one`, k)
	}
	return h, nil
}

// groupHandlers returns a matcher group's handler array, or nil for
// entries of the wrong shape (they cannot hold our handler, and we
// leave them exactly as they are).
func groupHandlers(group *Node) *Node {
	if group.Kind() != KindObject {
		return nil
	}
	if hs := group.Get("hooks"); hs.Kind() == KindArray {
		return hs
	}
	return nil
}

// countOurs counts our handlers in an event list.
func countOurs(list *Node, isOurs isOursFunc) int {
	n := 0
	for _, g := range list.Elems() {
		for _, h := range groupHandlers(g).Elems() {
			if isOurs(h) {
				n++
			}
		}
	}
	return n
}

// removeOurs deletes our handlers from an event list except keep (may be
// nil), drops groups that only we emptied, and reports whether it removed
// anything. Groups the user left empty stay.
func removeOurs(list *Node, isOurs isOursFunc, keep *Node) bool {
	removed := false
	groups := list.Elems()
	kept := make([]*Node, 0, len(groups))
	for _, g := range groups {
		hs := groupHandlers(g)
		if hs == nil {
			kept = append(kept, g)
			continue
		}
		before := hs.Elems()
		after := make([]*Node, 0, len(before))
		for _, h := range before {
			if h != keep && isOurs(h) {
				continue
			}
			after = append(after, h)
		}
		if len(after) == len(before) {
			kept = append(kept, g)
			continue
		}
		removed = true
		if len(after) > 0 {
			hs.SetElems(after)
			kept = append(kept, g)
		}
	}
	if removed {
		list.SetElems(kept)
	}
	return removed
}

// newGroup builds the matcher group for w: matcher first, as in the hosts'
// documentation.
func newGroup(w WantGroup) *Node {
	g := NewObject()
	if w.Matcher != "" {
		g.Set("matcher", NewString(w.Matcher))
	}
	g.Set("hooks", NewArray(cloneNode(w.Handler)))
	return g
}

func cloneNode(n *Node) *Node {
	if n == nil {
		return nil
	}
	c := *n
	c.members = nil
	c.elems = nil
	c.src = span{} // a copy is a new node: EncodeOver writes it afresh
	for _, m := range n.members {
		c.members = append(c.members, Member{Key: m.Key, keyRaw: m.keyRaw, Value: cloneNode(m.Value)})
	}
	for _, e := range n.elems {
		c.elems = append(c.elems, cloneNode(e))
	}
	if n.kind == KindObject && c.members == nil {
		c.members = []Member{}
	}
	return &c
}

// snapshot is a cheap, exact fingerprint of a subtree for change detection.
func snapshot(n *Node) string {
	if n == nil {
		return "\x00absent"
	}
	return string(n.Encode(Format{}))
}

// applyHooks makes the hooks object hold exactly one handler of ours per
// wanted event and none elsewhere, touching nothing of the user's:
//   - an event without our handler gets our group appended at the end;
//   - an existing handler of ours is updated in place (first one kept, any
//     duplicates removed), so a new binary path never duplicates it;
//   - the matcher is rewritten only on a group holding nothing but our
//     handler: a group the user shares with us keeps their matcher;
//   - our handlers under events no longer wanted are removed.
func applyHooks(root *Node, want []WantGroup, isOurs isOursFunc) (hookChanges, error) {
	var ch hookChanges
	hooks, err := hooksObject(root, true)
	if err != nil {
		return ch, err
	}
	wanted := make(map[string]bool, len(want))
	for _, w := range want {
		wanted[w.Event] = true
		list := hooks.Get(w.Event)
		if list == nil {
			hooks.Set(w.Event, NewArray(newGroup(w)))
			ch.Added = append(ch.Added, w.Event)
			continue
		}
		if list.Kind() != KindArray {
			return ch, fmt.Errorf("%s is a JSON %s, but it must be a list of matcher groups", jsonPath("hooks", w.Event), list.Kind())
		}
		before := snapshot(list)
		keepGroup, keep := firstOurs(list, isOurs)
		if keep == nil {
			list.Append(newGroup(w))
			ch.Added = append(ch.Added, w.Event)
			continue
		}
		removeOurs(list, isOurs, keep)
		for _, m := range w.Handler.Members() {
			keep.Set(m.Key, cloneNode(m.Value))
		}
		if onlyOurs(keepGroup, isOurs) {
			if w.Matcher == "" {
				keepGroup.Delete("matcher")
			} else {
				keepGroup.Insert(0, "matcher", NewString(w.Matcher))
			}
		}
		if snapshot(list) != before {
			ch.Updated = append(ch.Updated, w.Event)
		}
	}
	for _, m := range hooks.Members() {
		if wanted[m.Key] || m.Value.Kind() != KindArray {
			continue
		}
		if removeOurs(m.Value, isOurs, nil) {
			ch.Removed = append(ch.Removed, m.Key)
		}
	}
	// Delete after the loop: Delete compacts the slice being ranged over.
	for _, ev := range ch.Removed {
		if len(hooks.Get(ev).Elems()) == 0 {
			hooks.Delete(ev)
		}
	}
	return ch, nil
}

func firstOurs(list *Node, isOurs isOursFunc) (group, handler *Node) {
	for _, g := range list.Elems() {
		for _, h := range groupHandlers(g).Elems() {
			if isOurs(h) {
				return g, h
			}
		}
	}
	return nil, nil
}

func onlyOurs(group *Node, isOurs isOursFunc) bool {
	hs := groupHandlers(group).Elems()
	return len(hs) > 0 && !slices.ContainsFunc(hs, func(h *Node) bool { return !isOurs(h) })
}

// removeHooks deletes every handler of ours, then the matcher groups, event
// keys and "hooks" key that our removal emptied. Containers the user had
// left empty themselves are not ours to tidy and stay.
func removeHooks(root *Node, isOurs isOursFunc) ([]string, error) {
	hooks, err := hooksObject(root, false)
	if err != nil || hooks == nil {
		return nil, err
	}
	var removed []string
	for _, m := range hooks.Members() {
		if m.Value.Kind() != KindArray {
			continue
		}
		if removeOurs(m.Value, isOurs, nil) {
			removed = append(removed, m.Key)
		}
	}
	for _, ev := range removed {
		if len(hooks.Get(ev).Elems()) == 0 {
			hooks.Delete(ev)
		}
	}
	if len(removed) > 0 && len(hooks.Members()) == 0 {
		root.Delete("hooks")
	}
	return removed, nil
}

// HookSpec is what install, uninstall and inspect need to know about one
// host beyond the shared three-level shape.
type HookSpec struct {
	Host string // as in `atreides hook <Host>` and Report.Host: "claude"
	Name string // for messages: "Claude Code"
	// ConfigDir is the project directory holding the host's project-scope
	// files (".claude"): a relative hook path in a file inside it is
	// relative to the project, where hooks run.
	ConfigDir string
	// Events are the events a complete install registers, for Missing.
	Events []string
	// NonEvents are keys under "hooks" that are settings rather than
	// events (Gemini's "disabled"); inspect does not judge their shape.
	NonEvents []string
	// LenientEvents is set when the host skips an event whose value is not
	// a list (with a warning) instead of rejecting the whole file.
	LenientEvents bool
	// JSONC is set when the host strips comments from the file before
	// parsing it; install then edits around them.
	JSONC bool
	// ParseNote, when set, replaces the generic explanation of a
	// ParseError: what this host does with a file it cannot parse.
	ParseNote string

	// Optional are events the host handles but a complete install does
	// not register (they can be asked for).
	Optional []string
	// JudgedEvents are the events whose group matches only the tools
	// atreides judges, with the matcher Judged builds (per call, so that
	// no hook process builds it at start-up); AllToolEvents those whose
	// group matches every tool ("*", spelled out so that a reader sees it
	// is deliberate: history and error recognition need every call).
	// Every other event's group has no matcher.
	JudgedEvents, AllToolEvents []string
	Judged                      func() string
	// Fixed, if set, gives the matcher of a non-tool event whose group
	// matches a trigger only (Gemini CLI's PreCompress "manual"); "" for
	// an event without one.
	Fixed func(event string) string
}

// matcher is the matcher of an event's group, false for an event the
// host does not handle.
func (s *HookSpec) matcher(event string) (string, bool) {
	switch {
	case slices.Contains(s.JudgedEvents, event):
		return s.Judged(), true
	case slices.Contains(s.AllToolEvents, event):
		return "*", true
	}
	handled := slices.Contains(s.Events, event) || slices.Contains(s.Optional, event)
	if s.Fixed != nil && handled {
		return s.Fixed(event), true
	}
	return "", handled
}

// Want is what one install asks of a host's file.
type Want struct {
	Kind      string // the file in messages: "settings", "hooks"
	Path, Bin string
	// Timeout is the handlers' timeout in the host's unit; 0 means
	// DefaultTimeout.
	Timeout, DefaultTimeout int
	Events                  []string // nil means the spec's Events
	// Handler is our handler object for an event, given the timeout.
	Handler func(event string, timeout int) *Node
}

// WantGroups checks w and returns the group install wants under each
// event, in the order given and once each; an event the host does not
// handle is an error that names those it does.
func (s *HookSpec) WantGroups(w Want) ([]WantGroup, error) {
	timeout, events, err := checkWant(w.Kind, w.Path, w.Bin, w.Timeout, w.DefaultTimeout, w.Events, s.Events)
	if err != nil {
		return nil, err
	}
	var want []WantGroup
	seen := map[string]bool{}
	for _, ev := range events {
		m, ok := s.matcher(ev)
		if !ok {
			return nil, fmt.Errorf("install: atreides does not handle the %s event %q (supported: %s)", s.Name, ev, strings.Join(append(slices.Clone(s.Events), s.Optional...), ", "))
		}
		if seen[ev] {
			continue
		}
		seen[ev] = true
		want = append(want, WantGroup{Event: ev, Matcher: m, Handler: w.Handler(ev, timeout)})
	}
	return want, nil
}

// load is loadSettings for one of the host's files, its parse errors
// carrying the host's ParseNote.
func (s *HookSpec) load(path, backupDir string) (*settingsFile, error) {
	f, err := loadSettings(path, s.JSONC, backupDir)
	var pe *ParseError
	if s.ParseNote != "" && errors.As(err, &pe) {
		pe.Note = s.ParseNote
	}
	return f, err
}

// hasOurHooks reports whether the document holds a handler of ours.
func (s *HookSpec) hasOurHooks(doc *Node) bool {
	h, err := hooksObject(doc, false)
	if err != nil || h == nil {
		return false
	}
	for _, m := range h.Members() {
		if countOurs(m.Value, s.IsOurs) > 0 {
			return true
		}
	}
	return false
}

// handlerBinary recognises our handler by its command, not its position:
// a shell-form command hook whose program is named atreides and whose
// arguments start with "hook <host>". Exec-form handlers (with "args") are
// never written by us and are left to the user.
func (s *HookSpec) handlerBinary(h *Node) (bin string, ok bool) {
	if h.Kind() != KindObject || h.Get("args") != nil {
		return "", false
	}
	if t, _ := h.Get("type").Str(); t != "command" {
		return "", false
	}
	cmd, _ := h.Get("command").Str()
	words, _, ok := shell.Argv(cmd)
	if !ok || len(words) < 3 || !isAtreidesName(baseName(words[0])) || words[1] != "hook" || words[2] != s.Host {
		return "", false
	}
	return words[0], true
}

// IsOurs reports whether h is a handler of ours (see handlerBinary).
func (s *HookSpec) IsOurs(h *Node) bool {
	_, ok := s.handlerBinary(h)
	return ok
}

// Command is the command string registered for bin. The timeout the
// host is given is passed on, so that the hook answers before the host
// gives up on it (see hookTimeoutFlag).
func (s *HookSpec) Command(bin string, timeout time.Duration) string {
	return HookCommand(bin, s.Host, "", timeout)
}

// HookCommand is the command that runs `<bin> hook <host>`, with the
// timeout the host is given (see [HookSpec.Command]) and, when hostEvent
// is not "", --event naming the event the handler is registered for, for
// a host whose payloads do not say (or not before they are read whole).
func HookCommand(bin, host, hostEvent string, timeout time.Duration) string {
	c := ShellQuote(bin) + " hook " + host + " "
	if hostEvent != "" {
		c += "--event " + hostEvent + " "
	}
	return c + hookTimeoutFlag + " " + strconv.FormatFloat(timeout.Seconds(), 'f', -1, 64)
}

// hookTimeoutFlag is the flag of `atreides hook` that carries the timeout
// install wrote for the handler, in seconds; the hook's own deadline is
// derived from it.
const hookTimeoutFlag = "--timeout"

// PortableBinary is the program name written into files meant to be
// committed: the host finds atreides through PATH on every machine, where
// an absolute path would name this machine's binary.
const PortableBinary = "atreides"

// CheckBinaryPath refuses a binary our handlers could not be found by
// again, or that would not name the same program from the host's cwd:
// an absolute path, or atreides looked up through PATH.
func CheckBinaryPath(bin string) error {
	if bin == PortableBinary {
		return nil
	}
	if !filepath.IsAbs(bin) {
		// Hooks run from the project dir with the host's PATH; only an
		// absolute path is sure to name the same program.
		return fmt.Errorf("install: binary path %q is neither absolute nor %q", bin, PortableBinary)
	}
	if !isAtreidesName(filepath.Base(bin)) {
		// Our handlers are found again by the program name; another name
		// would make every install add a new handler.
		return fmt.Errorf("install: binary %q must be named atreides so its hooks can be recognised for update and uninstall", bin)
	}
	return nil
}

// Install merges want into the settings file at path: everything of
// the user's stays in place and in order, a second run changes nothing,
// and a new binary path updates our handlers in place.
func (s *HookSpec) Install(path, bin, backupDir string, want []WantGroup) (Report, error) {
	r := Report{Host: s.Host, Path: path}
	if path == "" {
		return r, errors.New("install: no settings path")
	}
	f, err := s.load(path, backupDir)
	if err != nil {
		return r, err
	}
	r.Created = !f.exists
	hadOurs := s.hasOurHooks(f.doc)
	ch, err := applyHooks(f.doc, want, s.IsOurs)
	if err != nil {
		return r, &ShapeError{Path: path, Msg: err.Error()}
	}
	r.Added, r.Updated, r.Removed = ch.Added, ch.Updated, ch.Removed
	r.Warnings = s.binaryWarnings(bin)
	if ch.empty() {
		// No semantic change: do not rewrite, so a compact or oddly
		// formatted file keeps its bytes.
		r.Action = ActionUnchanged
		return r, nil
	}
	r.Action = ActionUpdated
	if !hadOurs {
		r.Action = ActionInstalled
	}
	if r.Backup, err = f.saveInstall(!hadOurs); err != nil {
		return r, err
	}
	return r, nil
}

func (s *HookSpec) binaryWarnings(bin string) []string {
	if p := BinaryProblem(bin); p != "" {
		return []string{fmt.Sprintf("%s; %s fails open when a hook cannot run", p, s.Name)}
	}
	return nil
}

// BinaryProblem says why bin, as written in a hook, would not run here
// ("" when it would): a bare atreides is looked up in PATH.
func BinaryProblem(bin string) string {
	if bin == PortableBinary {
		if _, err := exec.LookPath(bin); err != nil {
			return "atreides is not on PATH, and the hooks name it without a path (put the directory holding atreides on PATH, or install with --local or --user to pin this machine's binary)"
		}
		return ""
	}
	if p := CheckExecutable(bin); p != "" {
		return "binary " + bin + " " + p
	}
	return ""
}

// Uninstall removes exactly the handlers of ours, then the groups,
// event lists and "hooks" object that their removal left empty. A missing
// file, or one without our handlers, is not written.
func (s *HookSpec) Uninstall(path, backupDir string) (Report, error) {
	r := Report{Host: s.Host, Path: path, Action: ActionNothingToDo}
	f, err := s.load(path, backupDir)
	if err != nil {
		return r, err
	}
	if !f.exists {
		return r, nil
	}
	removed, err := removeHooks(f.doc, s.IsOurs)
	if err != nil {
		return r, &ShapeError{Path: path, Msg: err.Error()}
	}
	if len(removed) == 0 {
		return r, nil
	}
	r.Action, r.Removed = ActionRemoved, removed
	if r.Backup, err = f.saveUninstall(); err != nil {
		return r, err
	}
	return r, nil
}

// Inspect reports what atreides has installed in a settings file, for
// doctor. A file that does not parse or has the wrong shape is a finding
// (Status.Problem), not an error; the error is for failures to inspect at
// all (e.g. permission denied).
func (s *HookSpec) Inspect(path string) (Status, *Node, error) {
	st := Status{Host: s.Host, Path: path}
	f, err := s.load(path, "")
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			st.Exists, st.Problem = true, err.Error()
			return st, nil, nil
		}
		return st, nil, err
	}
	st.Exists = f.exists
	return s.inspectDoc(st, f.doc), f.doc, nil
}

// inspectDoc fills st from a parsed settings document.
func (s *HookSpec) inspectDoc(st Status, doc *Node) Status {
	path := st.Path
	hooks, err := hooksObject(doc, false)
	if err != nil {
		st.Problem = (&ShapeError{Path: path, Msg: err.Error()}).Error()
		return st
	}
	for _, m := range hooks.Members() {
		if m.Value.Kind() == KindArray || slices.Contains(s.NonEvents, m.Key) {
			continue
		}
		msg := fmt.Sprintf("%s is a JSON %s, but it must be a list of matcher groups", jsonPath("hooks", m.Key), m.Value.Kind())
		if !s.LenientEvents {
			// The host's schema check rejects this, so nothing in the
			// file may be in effect.
			st.Problem = path + ": " + msg
			return st
		}
		st.Notes = append(st.Notes, msg+fmt.Sprintf("; %s skips that event", s.Name))
	}
	st.Parses = st.Exists
	bins := map[string]*Binary{}
	var order []string
	for _, m := range hooks.Members() {
		if m.Value.Kind() != KindArray || slices.Contains(s.NonEvents, m.Key) {
			continue
		}
		n := 0
		for _, g := range m.Value.Elems() {
			for _, h := range groupHandlers(g).Elems() {
				word, ok := s.handlerBinary(h)
				if !ok {
					continue
				}
				n++
				b := bins[word]
				if b == nil {
					b = resolveBinary(h, path, s.ConfigDir)
					bins[word] = b
					order = append(order, word)
				}
				if !slices.Contains(b.Events, m.Key) {
					b.Events = append(b.Events, m.Key)
				}
			}
		}
		if n > 0 {
			st.Events = append(st.Events, m.Key)
		}
		if n > 1 {
			st.Duplicated = append(st.Duplicated, m.Key)
		}
	}
	if len(st.Events) > 0 {
		for _, ev := range s.Events {
			if !slices.Contains(st.Events, ev) {
				st.Missing = append(st.Missing, ev)
			}
		}
	}
	for _, w := range order {
		st.Binaries = append(st.Binaries, *bins[w])
	}
	return st
}

// checkWant validates what every host's install needs, and fills in the
// default timeout and events; kind names the file in messages ("settings",
// "hooks").
func checkWant(kind, path, bin string, timeout, defTimeout int, events, defEvents []string) (int, []string, error) {
	if path == "" {
		return 0, nil, fmt.Errorf("install: no %s path", kind)
	}
	if err := CheckBinaryPath(bin); err != nil {
		return 0, nil, err
	}
	if timeout == 0 {
		timeout = defTimeout
	}
	if timeout < 0 {
		return 0, nil, fmt.Errorf("install: negative timeout %d", timeout)
	}
	if events == nil {
		events = defEvents
	}
	if len(events) == 0 {
		return 0, nil, errors.New("install: no events selected")
	}
	return timeout, events, nil
}

// CommandHandler is a command hook's handler object: its type, the host's
// extra members (such as Gemini CLI's name), the command and the timeout.
func CommandHandler(command string, timeout int, extra ...Member) *Node {
	members := append([]Member{{Key: "type", Value: NewString("command")}}, extra...)
	return NewObject(append(members,
		Member{Key: "command", Value: NewString(command)},
		Member{Key: "timeout", Value: NewInt(timeout)},
	)...)
}

// ToolMatcher is the matcher of the judged tools' events: exactly the
// named tools, and every MCP tool (whose names begin with mcpPrefix). The
// hosts test a matcher as an unanchored regex, so it is anchored (without
// ^…$ "Edit" would also match "NotebookEditFoo") and the names are quoted.
func ToolMatcher(tools []string, mcpPrefix string) string {
	quoted := make([]string, len(tools))
	for i, n := range tools {
		quoted[i] = regexp.QuoteMeta(n)
	}
	return "^(" + strings.Join(quoted, "|") + ")$|^" + regexp.QuoteMeta(mcpPrefix)
}
