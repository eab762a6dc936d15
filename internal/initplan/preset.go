package initplan

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/host"
	"go.yaml.in/yaml/v3"
)

// Skip is what an install of preset p leaves out (host.Options.Skip).
// Below full there are no roster agents and no slash commands. The MCP
// server stays in standard: its todo tracking and stop gate count, on the
// hosts whose own todo tool fires no hook (Codex, Copilot CLI, Qwen Code,
// Cline), the todos the agent keeps with atreides's todo tools, which the
// server gives. guard has none, unless governance is on: an agent selects
// its intent with a tool, and without one every write would be blocked.
func Skip(p config.Preset, governance bool) host.Part {
	var skip host.Part
	if !p.Runs(config.PresetFull) {
		skip |= host.PartAgents | host.PartCommands
	}
	if !p.Runs(config.PresetStandard) && !governance {
		skip |= host.PartMCP
	}
	return skip
}

// ProjectSkip is what 'atreides install' leaves out for the preset of
// the project at root (full, everything, when no file sets one). A
// configuration that cannot be read leaves out nothing, today's install;
// install has said the file is broken.
func ProjectSkip(root string) host.Part {
	c, err := config.LoadOrBuiltin(config.DefaultPaths(root))
	if err != nil {
		return 0
	}
	return Skip(c.Preset, c.Governance.Enabled)
}

// ParsePreset is a preset named on the command line or at the prompt.
func ParsePreset(s string) (config.Preset, error) {
	p := config.Preset(strings.ToLower(strings.TrimSpace(s)))
	if !slices.Contains(config.Presets(), p) {
		return "", fmt.Errorf("unknown preset %q (known: guard, standard, full)", s)
	}
	return p, nil
}

// newConfigHead starts a configuration file init creates. Its first line
// points editors with a YAML language server at the schema init writes
// beside it (writeSchema): a relative path, so it works offline, in every
// checkout, and for the version of atreides that last ran init.
const newConfigHead = config.SchemaComment + "\n# atreides configuration: 'atreides config show' lists every setting and its\n# default. The preset (guard, standard or full) was set by 'atreides init'.\n"

// WritePreset sets preset: in the configuration file at path, creating it
// (and .atreides) when missing. Everything else in the file stays byte
// for byte: the key's value is replaced in place, or the key appended. A
// file that already says so is not written.
func WritePreset(path string, p config.Preset) error {
	// The file and .atreides come with the repository: a link there (to
	// ~/.bashrc, say) is refused, never read or written through.
	base, rel := confined.Split(path, 2)
	data, err := confined.ReadFile(base, rel, maxConfig)
	if errors.Is(err, fs.ErrNotExist) {
		if err := writeFile(path, []byte(newConfigHead+"preset: "+string(p)+"\n")); err != nil {
			return err
		}
		return writeSchema(filepath.Dir(path))
	}
	if err != nil {
		return fmt.Errorf("init: %w", err)
	}
	out, err := setPreset(data, p)
	if err != nil {
		return fmt.Errorf("%s: %w (fix it first: 'atreides config validate')", path, err)
	}
	if !bytes.Equal(out, data) {
		if err := writeFile(path, out); err != nil {
			return err
		}
	}
	if bytes.Contains(data, []byte(config.SchemaComment)) {
		// The schema it names is kept that of the atreides that runs.
		return writeSchema(filepath.Dir(path))
	}
	return nil
}

// writeSchema writes the configuration's JSON Schema (config.Schema)
// into dir beside the config file whose first line names it, when it is
// not there as this atreides would write it. The file comes with the
// repository: a link there (to ~/.bashrc, say) is replaced, never written
// through, and so is a .atreides that is a link refused (package
// confined).
func writeSchema(dir string) error {
	data, err := config.Schema()
	if err != nil {
		return err
	}
	base, rel := confined.Split(filepath.Join(dir, config.SchemaFile), 2)
	d, err := confined.OpenDir(base, filepath.Dir(rel))
	if err != nil {
		return fmt.Errorf("init: %w", err)
	}
	defer d.Close()
	if old, err := d.ReadFile(config.SchemaFile, int64(len(data))+1); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := d.ReplaceFile(config.SchemaFile, data, false); err != nil {
		return fmt.Errorf("init: %w", err)
	}
	return nil
}

// maxConfig bounds the configuration file init reads.
const maxConfig = 1 << 20

// writeFile replaces the content of path, the project's configuration
// file, keeping its mode; it creates .atreides when missing. Neither is
// followed when a link (package confined).
func writeFile(path string, data []byte) error {
	base, rel := confined.Split(path, 2)
	if err := os.MkdirAll(base, 0o755); err != nil { // the root is the user's (a preview's scratch root may be new)
		return fmt.Errorf("init: %w", err)
	}
	d, err := confined.MkdirAll(base, filepath.Dir(rel), 0o755)
	if err != nil {
		return fmt.Errorf("init: %w", err)
	}
	defer d.Close()
	f, err := d.OpenFile(filepath.Base(rel), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("init: %w", err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("init: %w", err)
	}
	return nil
}

// setPreset is the file data with preset: set to p. The YAML's nodes say
// where the key is; the text is edited there, so comments, order and
// layout stay as the user wrote them.
func setPreset(data []byte, p config.Preset) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not valid YAML: %w", err)
	}
	var top *yaml.Node
	if len(doc.Content) > 0 {
		top = doc.Content[0]
	}
	if top == nil || (top.Kind == yaml.ScalarNode && top.Tag == "!!null") {
		return appendPreset(data, p), nil
	}
	if top.Kind != yaml.MappingNode || top.Style&yaml.FlowStyle != 0 {
		return nil, errors.New("the top level is not a block mapping of keys")
	}
	for i := 0; i+1 < len(top.Content); i += 2 {
		if k, v := top.Content[i], top.Content[i+1]; k.Value == "preset" {
			return replaceScalar(data, v, string(p))
		}
	}
	return appendPreset(data, p), nil
}

func appendPreset(data []byte, p config.Preset) []byte {
	out := slices.Clone(data)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	return append(out, "preset: "+string(p)+"\n"...)
}

// replaceScalar replaces the one-line scalar v in data with s, keeping
// the comment after it.
func replaceScalar(data []byte, v *yaml.Node, s string) ([]byte, error) {
	if v.Kind != yaml.ScalarNode || strings.Contains(v.Value, "\n") || v.Line < 1 || v.Column < 1 {
		return nil, errors.New("preset: is not a single word")
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	if v.Line > len(lines) {
		return nil, errors.New("preset: position out of range")
	}
	line := lines[v.Line-1]
	if v.Column-1 > len(line) {
		return nil, errors.New("preset: position out of range")
	}
	nl := ""
	if bytes.HasSuffix(line, []byte("\n")) {
		nl = "\n"
	}
	repl := string(line[:v.Column-1]) + s
	if v.LineComment != "" {
		repl += " " + v.LineComment
	}
	lines[v.Line-1] = []byte(repl + nl)
	return bytes.Join(lines, nil), nil
}

// TrustResult is what init did about trust.
type TrustResult struct {
	Trusted bool `json:"trusted"`
	// Others are the settings of the file, besides preset, that are not in
	// force untrusted: init leaves those to 'atreides trust', which shows
	// them before asking.
	Others []string `json:"others,omitempty"`
}

// trustedBefore reports whether the project file, before init changes
// it, is trusted as it is (or absent: nothing to review).
func trustedBefore(paths config.Paths) bool {
	c, err := config.Load(paths)
	return err == nil && !c.Trust().Untrusted()
}

// trustAfter records the user's trust in the project file init just
// wrote, as 'atreides trust --yes' does: the user chose the preset, and a
// lower one is in force only trusted. The file's other settings that
// trust lets in were trusted before (was), or there are none; else init
// leaves them to 'atreides trust', which shows them before asking.
func trustAfter(paths config.Paths, was bool, now time.Time) (TrustResult, error) {
	untrusted := paths
	untrusted.Trust = ""
	u, err := config.Load(untrusted)
	if err != nil {
		return TrustResult{}, err
	}
	var r TrustResult
	for _, k := range u.Trust().IgnoredKeys() {
		if k != "preset" && !was {
			r.Others = append(r.Others, k)
		}
	}
	if len(r.Others) > 0 {
		return r, nil
	}
	c, err := config.Load(paths)
	if err != nil {
		return r, err
	}
	r.Trusted = true
	if t := c.Trust(); !t.Trusted {
		return r, config.TrustProject(paths, t, false, now)
	}
	return r, nil
}
