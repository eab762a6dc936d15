package codex

import (
	"github.com/atreides-dev/atreides/internal/install"

	"bytes"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// Codex's config.toml is edited as text, like the JSON files: the table
// atreides adds is appended at the end of the file, an update replaces the
// values of its command and args in place, and removal cuts exactly the
// lines that define the server, so everything else (comments, layout,
// line endings, key order) stays byte for byte. go-toml decodes the file
// to check it and to compare the result, and its parser (unstable) gives
// the byte ranges of tables and key/values. Every edit is decoded again
// and must equal the original document with only our server changed, or
// nothing is written.

// mcpKey is where the server lives in config.toml.
var mcpKey = []string{"mcp_servers", install.MCPServerName}

// mcpArgs are the arguments written for the server: Codex 0.169.0
// shows nothing in the MCP server's environment that names it.
func mcpArgs() []string { return []string{"mcp", "--host", "codex"} }

// TOMLError is returned when config.toml does not parse: Codex will not
// start with it, so atreides leaves it to the user.
type TOMLError struct {
	Path         string
	Line, Column int
	Msg          string
}

func (e *TOMLError) Error() string {
	return fmt.Sprintf("%s:%d:%d: not valid TOML: %s; Codex cannot load it either, so atreides left it untouched: fix the file and run again", e.Path, e.Line, e.Column, e.Msg)
}

// byteRange is a range of the file's bytes; header is set for the lines of a
// [table] section (header and key/values), whose removal also takes the
// blank line install put before it.
type byteRange struct {
	from, to int
	header   bool
}

// config is a config.toml as read: its text, and where atreides's
// server is defined in it.
type config struct {
	path string
	src  []byte
	nl   string         // the file's line ending
	doc  map[string]any // decoded
	// server is mcp_servers.atreides as decoded (nil when absent); ours
	// says it is what install writes (see isOurMCPArgs).
	server map[string]any
	ours   bool
	// regions are the lines defining the server, in file order.
	regions []byteRange
	// command and args are the value ranges of the server's own command
	// and args key/values (nil when written inside an inline table).
	command, args *byteRange
	// inline is set when mcp_servers is itself a key/value (an inline
	// table), to which no [mcp_servers.atreides] table can be added.
	inline bool
}

// parseConfig decodes src and finds our server in it.
func parseConfig(path string, src []byte) (*config, error) {
	c := &config{path: path, src: src, nl: "\n"}
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		c.nl = "\r\n"
	}
	doc, err := decodeTOML(path, src)
	if err != nil {
		return nil, err
	}
	c.doc = doc
	if s, ok := doc["mcp_servers"]; ok {
		servers, ok := s.(map[string]any)
		if !ok {
			return nil, &install.ShapeError{Path: path, Msg: fmt.Sprintf("mcp_servers is a %T, not a table", s)}
		}
		if v, ok := servers[install.MCPServerName]; ok {
			if c.server, ok = v.(map[string]any); !ok {
				return nil, &install.ShapeError{Path: path, Msg: fmt.Sprintf("mcp_servers.%s is a %T, not a table", install.MCPServerName, v)}
			}
			c.ours = isOurServer(c.server)
		}
	}
	if err := c.locate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

func decodeTOML(path string, src []byte) (map[string]any, error) {
	doc := map[string]any{}
	if err := toml.Unmarshal(src, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return nil, &TOMLError{Path: path, Line: line, Column: col, Msg: de.Error()}
		}
		return nil, &TOMLError{Path: path, Line: 1, Column: 1, Msg: err.Error()}
	}
	return doc, nil
}

// isOurServer recognises what install writes: a command whose
// program is named atreides, with the arguments of isOurMCPArgs.
func isOurServer(s map[string]any) bool {
	cmd, _ := s["command"].(string)
	list, _ := s["args"].([]any)
	args := make([]string, 0, len(list))
	for _, a := range list {
		v, ok := a.(string)
		if !ok {
			return false
		}
		args = append(args, v)
	}
	return install.IsOurMCPCommand(cmd, args)
}

// locate walks the top-level expressions for the lines that define our
// server: [mcp_servers.atreides…] sections, and key/values whose full key
// starts mcp_servers.atreides (dotted keys, inline tables).
func (c *config) locate() error {
	var p unstable.Parser
	p.Reset(c.src)
	var table []string
	section := false // the current section is one of ours
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			var last unstable.Range
			table, last = keyParts(e)
			section = hasPrefix(table, mcpKey)
			if section {
				first := e.Child().Raw
				c.regions = append(c.regions, byteRange{from: c.lineStart(int(first.Offset)), to: c.lineEnd(int(last.Offset + last.Length)), header: true})
			}
		case unstable.KeyValue:
			k, last := keyParts(e)
			key := append(slices.Clone(table), k...)
			end := c.lineEnd(int(e.Raw.Offset + e.Raw.Length))
			switch {
			case section:
				c.regions[len(c.regions)-1].to = end
			case hasPrefix(key, mcpKey):
				c.regions = append(c.regions, byteRange{from: c.lineStart(int(e.Raw.Offset)), to: end})
			case slices.Equal(key, mcpKey[:1]):
				c.inline = true
			}
			if len(key) == 3 && hasPrefix(key, mcpKey) {
				v := c.valueSpan(int(last.Offset+last.Length), int(e.Raw.Offset+e.Raw.Length))
				switch key[2] {
				case "command":
					c.command = &v
				case "args":
					c.args = &v
				}
			}
		}
	}
	return p.Error()
}

// keyParts is the dotted key of a table header or key/value, and the
// range of its last part.
func keyParts(e *unstable.Node) ([]string, unstable.Range) {
	var parts []string
	var last unstable.Range
	for it := e.Key(); it.Next(); {
		n := it.Node()
		parts = append(parts, string(n.Data))
		last = n.Raw
	}
	return parts, last
}

func hasPrefix(key, prefix []string) bool {
	return len(key) >= len(prefix) && slices.Equal(key[:len(prefix)], prefix)
}

// lineStart is the offset of the line holding off.
func (c *config) lineStart(off int) int {
	for off > 0 && c.src[off-1] != '\n' {
		off--
	}
	return off
}

// lineEnd is the offset after the line ending that ends the line holding
// off (a top-level expression is followed only by blanks, a comment and
// the line ending).
func (c *config) lineEnd(off int) int {
	if i := bytes.IndexByte(c.src[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(c.src)
}

// valueSpan is the value of a key/value whose key ends at keyEnd and
// which ends at end: past the blanks, '=' and blanks.
func (c *config) valueSpan(keyEnd, end int) byteRange {
	i := keyEnd
	for i < end && (c.src[i] == ' ' || c.src[i] == '\t' || c.src[i] == '=') {
		i++
	}
	return byteRange{from: i, to: end}
}

// install returns the text with our server set to bin (install.ActionUnchanged
// and nil when it already is).
func (c *config) install(bin string) ([]byte, install.Action, error) {
	args := mcpArgs()
	switch {
	case c.server == nil && c.inline:
		return nil, "", &install.ShapeError{Path: c.path, Msg: "mcp_servers is written as an inline table (mcp_servers = {...}), to which no [mcp_servers.atreides] table can be added; write its servers as [mcp_servers.<name>] tables"}
	case c.server == nil:
		var b bytes.Buffer
		b.Write(c.src)
		if len(c.src) > 0 {
			// A blank line after a file that ends a line, else just the
			// ending its last line lacks: remove undoes either exactly.
			b.WriteString(c.nl)
		}
		b.WriteString(mcpTable(bin, args, c.nl))
		return c.checked(b.Bytes(), bin)
	case !c.ours:
		return nil, "", &install.ShapeError{Path: c.path, Msg: fmt.Sprintf("an MCP server named %q that atreides did not write is already there", install.MCPServerName)}
	case c.server["command"] == bin && reflect.DeepEqual(c.server["args"], anyList(args)):
		return nil, install.ActionUnchanged, nil
	case c.command == nil || c.args == nil:
		return nil, "", &install.ShapeError{Path: c.path, Msg: fmt.Sprintf("atreides's MCP server is written inside an inline table, which atreides does not rewrite; remove mcp_servers.%s and run again", install.MCPServerName)}
	}
	out := slices.Clone(c.src)
	first, second := *c.command, *c.args
	vals := [2]string{install.TOMLString(bin), tomlArray(args)}
	if first.from > second.from {
		first, second = second, first
		vals[0], vals[1] = vals[1], vals[0]
	}
	out = slices.Replace(out, second.from, second.to, []byte(vals[1])...)
	out = slices.Replace(out, first.from, first.to, []byte(vals[0])...)
	out, _, err := c.checked(out, bin)
	return out, install.ActionUpdated, err
}

// checked decodes an install's output and compares it with the document
// read: only our server may differ, and it must be what install writes.
func (c *config) checked(out []byte, bin string) ([]byte, install.Action, error) {
	want, _ := decodeTOML(c.path, c.src) // parsed before: a fresh copy
	servers, _ := want["mcp_servers"].(map[string]any)
	if servers == nil {
		servers = map[string]any{}
		want["mcp_servers"] = servers
	}
	server, _ := servers[install.MCPServerName].(map[string]any)
	if server == nil {
		server = map[string]any{}
		servers[install.MCPServerName] = server
	}
	server["command"], server["args"] = bin, anyList(mcpArgs())
	if err := c.same(out, want); err != nil {
		return nil, "", err
	}
	return out, install.ActionInstalled, nil
}

// uninstall returns the text without our server, or nil when there is
// none of ours.
func (c *config) uninstall() ([]byte, error) {
	if c.server == nil || !c.ours {
		return nil, nil
	}
	if len(c.regions) == 0 {
		return nil, &install.ShapeError{Path: c.path, Msg: fmt.Sprintf("atreides's MCP server is inside an inline mcp_servers table, which atreides does not rewrite; remove mcp_servers.%s yourself", install.MCPServerName)}
	}
	out := slices.Clone(c.src)
	for i := len(c.regions) - 1; i >= 0; i-- {
		r := c.regions[i]
		before := out[:r.from]
		// The line ending install put before its table: when the table
		// ends the file, or when it leaves a blank line behind.
		switch {
		case r.header && r.from > 0 && (r.to == len(out) || endsBlank(before)):
			r.from -= len(lineEnding(before))
		case r.header && r.from == 0:
			// First in the file: the blank line after it goes too.
			r.to += len(lineStarting(out[r.to:]))
		}
		out = slices.Delete(out, r.from, r.to)
	}
	want, _ := decodeTOML(c.path, c.src)
	delete(want["mcp_servers"].(map[string]any), install.MCPServerName)
	if err := c.same(out, want); err != nil {
		return nil, err
	}
	return out, nil
}

// same checks that out decodes to want; an empty mcp_servers counts as
// none.
func (c *config) same(out []byte, want map[string]any) error {
	got, err := decodeTOML(c.path, out)
	if err != nil {
		return fmt.Errorf("internal error: the edited %s does not parse (%v); it was left untouched", c.path, err)
	}
	for _, d := range []map[string]any{got, want} {
		if s, ok := d["mcp_servers"].(map[string]any); ok && len(s) == 0 {
			delete(d, "mcp_servers")
		}
	}
	if !sameTOML(got, want) {
		return fmt.Errorf("%s: editing the file as text would change more than atreides's MCP server (an unusual layout); it was left untouched: add or remove [mcp_servers.%s] yourself", c.path, install.MCPServerName)
	}
	return nil
}

// sameTOML is reflect.DeepEqual for decoded TOML with nan equal to nan.
func sameTOML(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, v := range a {
			w, ok := bm[k]
			if !ok || !sameTOML(v, w) {
				return false
			}
		}
		return true
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) {
			return false
		}
		for i := range a {
			if !sameTOML(a[i], bl[i]) {
				return false
			}
		}
		return true
	case float64:
		bf, ok := b.(float64)
		return ok && (a == bf || math.IsNaN(a) && math.IsNaN(bf))
	}
	return reflect.DeepEqual(a, b)
}

func endsBlank(b []byte) bool {
	b = b[:len(b)-len(lineEnding(b))]
	return len(lineEnding(b)) > 0
}

// lineStarting is the line ending b starts with (a blank line), if any.
func lineStarting(b []byte) []byte {
	switch {
	case bytes.HasPrefix(b, []byte("\r\n")):
		return b[:2]
	case bytes.HasPrefix(b, []byte("\n")):
		return b[:1]
	}
	return nil
}

// lineEnding is the line ending b ends with, if any.
func lineEnding(b []byte) []byte {
	switch {
	case bytes.HasSuffix(b, []byte("\r\n")):
		return b[len(b)-2:]
	case bytes.HasSuffix(b, []byte("\n")):
		return b[len(b)-1:]
	}
	return nil
}

// mcpTable is the table install appends.
func mcpTable(bin string, args []string, nl string) string {
	return "[mcp_servers." + install.MCPServerName + "]" + nl +
		"command = " + install.TOMLString(bin) + nl +
		"args = " + tomlArray(args) + nl
}

func tomlArray(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = install.TOMLString(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func anyList(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}
