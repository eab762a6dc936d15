// Package mcptools reads the arguments of a third-party MCP tool call for
// what it asks of the machine: the files it reads or writes and the shell
// commands it runs, so that the guard judges the call as it judges the
// host's own file and shell tools (a path written by
// mcp__filesystem__write_file is checked like the Write tool's, a command
// run by mcp__shell__run_command like the Bash tool's).
//
// The tools of the common servers are read by their schemas (known.go):
// the reference filesystem and git servers, Desktop Commander, shell
// servers, GitHub's and GitLab's. Any other tool is read by the verb in its
// name and the names of its arguments (guess.go). A tool is recognised by
// its name and the shape of its arguments, never by the name the user gave
// the server in their configuration. Pure: no I/O, no policy.
package mcptools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode"

	"github.com/atreides-dev/atreides/internal/jsonl"
)

// Request is one thing for the guard to judge, in the terms of its file
// and shell tools.
type Request struct {
	Tool    string // "shell", "read", "write", "edit" or "search"
	Arg     string // the command line (shell) or the path, never empty
	Pattern string // search: the name glob searched for, if any
	// Dir is, for a shell command, the directory the server runs it in as
	// the arguments name it (possibly relative), "" for the caller's.
	Dir string
}

// Calls is what one tool call asks for.
type Calls struct {
	Requests []Request
	// Unknown, when set, says what the call does that no request shows: it
	// runs a command or writes files the arguments do not name, or its
	// arguments are too large or deep to read. Such a call is an unknown
	// write (rule mcp.unknown-write, ask by default).
	Unknown string
}

// Limits on what is read: a larger or deeper input, or one naming more
// paths and commands, is an unknown write rather than a long analysis.
const (
	MaxInput    = 1 << 20
	MaxDepth    = 64
	MaxRequests = 256
)

// Read reads a tool call: server is the MCP server's name as the host
// reports it ("" when the host does not separate it from the tool's, as
// OpenCode's "<server>_<tool>"), tool the tool's name, input its
// arguments as JSON.
func Read(server, tool string, input []byte) Calls {
	if len(input) > MaxInput {
		return Calls{Unknown: "its arguments are larger than 1 MiB"}
	}
	if jsonl.Deeper(input, MaxDepth) {
		return Calls{Unknown: fmt.Sprintf("its arguments nest deeper than %d levels", MaxDepth)}
	}
	a, ok := parse(input)
	if !ok {
		return Calls{Unknown: "its arguments are not a JSON object"}
	}
	if name := a.twice(); name != "" {
		return Calls{Unknown: "it gives " + name + " twice, with different values, and the server reads only one of them"}
	}
	c := read(strings.ToLower(server), words(tool), server == "", a)
	if len(c.Requests) > MaxRequests {
		return Calls{Unknown: fmt.Sprintf("it names more than %d paths or commands", MaxRequests)}
	}
	return c
}

// read finds the tool in the table of known servers, by its whole name or,
// when the server's name is part of the tool's (joined), by a tail of it;
// otherwise it guesses.
func read(server string, name []string, joined bool, a args) Calls {
	for i := range name {
		if k, ok := known.Get()[strings.Join(name[i:], "_")]; ok {
			if c, ok := k(server, a); ok {
				return c
			}
		}
		if !joined {
			break
		}
	}
	return guess(name, a)
}

// words splits a tool name into lower-case words: "read_text_file",
// "readTextFile", "read-text-file" and "read.text.file" all give read,
// text, file.
func words(name string) []string {
	var out []string
	var w []rune
	flush := func() {
		if len(w) > 0 {
			out = append(out, strings.ToLower(string(w)))
			w = w[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ' || r == '/' || r == ':':
			flush()
		case r >= 'A' && r <= 'Z' && i > 0 && (rs[i-1] >= 'a' && rs[i-1] <= 'z' || rs[i-1] >= '0' && rs[i-1] <= '9'):
			flush()
			w = append(w, r)
		default:
			w = append(w, r)
		}
	}
	flush()
	return out
}

// args are a call's arguments, looked up by normalised name (lower case,
// without '_' and '-': file_path, filePath and FILEPATH are one name).
type args map[string]any

func parse(input []byte) (args, bool) {
	input = bytes.TrimSpace(input)
	if len(input) == 0 || string(input) == "null" {
		return args{}, true
	}
	d := json.NewDecoder(bytes.NewReader(input))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil || m == nil {
		return nil, false
	}
	return m, true
}

func normKey(k string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return -1
		}
		return unicode.ToLower(r)
	}, k)
}

// singleKeys are the names read as one value each (a command's working
// directory, its stdin, its language or shell, a git tool's repository):
// spelled or named twice over, the value the server takes is not known.
var singleKeys = [][]string{dirKeys, stdinKeys, langKeys, {"shell"}, {"repopath", "repository"}, {"branch"},
	{"mode", "action", "operation", "subcommand"}, {"dryrun"}}

// twice names an argument read as one value that the call gives twice
// with different values: under two spellings of one name (cwd and CWD,
// repo_path and repoPath) or two names (cwd and working_dir). A server
// reads one of them; the guard, judging the other, would judge another
// call. "" when there is none. (Commands and paths are all judged, however
// many are given.)
func (a args) twice() string {
	for _, names := range singleKeys {
		var first any
		for _, k := range a.keys(names...) {
			if first == nil {
				first = a[k]
			} else if !reflect.DeepEqual(first, a[k]) {
				return k
			}
		}
	}
	return ""
}

// keys are the call's argument names matching one of the normalised
// names, sorted: a value is never missed because two spellings of one name
// were given.
func (a args) keys(names ...string) []string {
	var out []string
	for k := range a {
		if slices.Contains(names, normKey(k)) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// strs are the non-empty strings under the names: a string, or the strings
// of an array (and, in an array of objects, their path-like members:
// push_files' files: [{path, content}]).
func (a args) strs(names ...string) []string {
	var out []string
	for _, k := range a.keys(names...) {
		out = append(out, strs(a[k])...)
	}
	return out
}

func strs(v any) []string {
	switch x := v.(type) {
	case string:
		if x != "" {
			return []string{x}
		}
	case []any:
		var out []string
		for _, e := range x {
			switch y := e.(type) {
			case string:
				if y != "" {
					out = append(out, y)
				}
			case map[string]any:
				out = append(out, args(y).strs(pathKeys...)...)
			}
		}
		return out
	}
	return nil
}

// str is the first non-empty string under the names.
func (a args) str(names ...string) string {
	for _, k := range a.keys(names...) {
		if s, ok := a[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// num is a number under the names, as written ("" when none).
func (a args) num(names ...string) string {
	for _, k := range a.keys(names...) {
		switch n := a[k].(type) {
		case json.Number:
			return n.String()
		case string:
			if _, err := json.Number(n).Int64(); err == nil {
				return n
			}
		}
	}
	return ""
}

// flag reports whether a boolean argument is true.
func (a args) flag(names ...string) bool {
	for _, k := range a.keys(names...) {
		if b, ok := a[k].(bool); ok && b {
			return true
		}
	}
	return false
}

// has reports whether any of the names is given (with any value).
func (a args) has(names ...string) bool { return len(a.keys(names...)) > 0 }
