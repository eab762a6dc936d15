package config

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/guard"
)

// setup writes the user and project files ("" leaves a file out) under a
// temporary directory and returns their paths and a function that makes
// messages read relative to it, with the user file shown as U and the
// project file as P.
func setup(t testing.TB, user, project string) (Paths, func(string) string) {
	t.Helper()
	dir := t.TempDir()
	p := Paths{User: filepath.Join(dir, "user.yaml"), Project: filepath.Join(dir, ".atreides", "config.yaml")}
	if err := os.MkdirAll(filepath.Dir(p.Project), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ path, text string }{{p.User, user}, {p.Project, project}} {
		if f.text == "" {
			continue
		}
		if err := os.WriteFile(f.path, []byte(f.text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rel := strings.NewReplacer(p.User, "U", p.Project, "P").Replace
	return trusted(t, p), rel
}

// trusted records the user's trust in p's project file as it is now
// (tests of merging, where the project file is the user's own).
func trusted(t testing.TB, p Paths) Paths {
	t.Helper()
	p.Trust = filepath.Join(t.TempDir(), TrustFileName)
	data, err := os.ReadFile(p.Project)
	if err != nil {
		return p
	}
	v, _, _ := parse(p.Project, data)
	if err := TrustProject(p, p.trustOf(data, v), false, time.Now()); err != nil {
		t.Fatal(err)
	}
	return p
}

// leaves flattens a config to "key" -> "value @ source".
func leaves(c *Config, rel func(string) string) map[string]string {
	out := map[string]string{}
	walkLeaves(c.tree(), "", func(key string, v *value) {
		var b bytes.Buffer
		writeJSON(&b, v)
		out[key] = b.String() + " @ " + rel(v.src.String())
	})
	return out
}

func TestLoadMerge(t *testing.T) {
	tests := []struct {
		name          string
		user, project string
		want          map[string]string
		absent        []string
	}{
		{
			name: "defaults only",
			want: map[string]string{
				"version":                 "1 @ default",
				"audit.max_mib":           "40 @ default",
				"guard.enabled":           "true @ default",
				"guard.disable":           "[] @ default",
				"guard.verdicts":          "{} @ default",
				"rules":                   "[] @ default",
				"session.identity.name":   `"Muad'Dib" @ default`,
				"session.identity.prefix": "false @ default",
				"session.stop.max_blocks": "3 @ default",
				"hooks.timeout_seconds":   "10 @ default",
			},
		},
		{
			name:    "project over user over defaults",
			user:    "audit:\n  max_mib: 5\nhooks:\n  timeout_seconds: 20\n",
			project: "audit:\n  max_mib: 7\n",
			want: map[string]string{
				"audit.max_mib":         "7 @ P:2",
				"hooks.timeout_seconds": "20 @ U:4",
				"guard.enabled":         "true @ default",
			},
		},
		{
			name:    "maps merge deeply",
			user:    "guard:\n  verdicts:\n    git.reset-hard: ask\n    git.clean: deny\n  enabled: false\n",
			project: "guard:\n  verdicts:\n    git.clean: allow\n    rm.rf: deny\n",
			want: map[string]string{
				`guard.verdicts."git.reset-hard"`: `"ask" @ U:3`,
				`guard.verdicts."git.clean"`:      `"allow" @ P:3`,
				`guard.verdicts."rm.rf"`:          `"deny" @ P:4`,
				"guard.enabled":                   "false @ U:5",
			},
		},
		{
			name:    "lists replace",
			user:    "guard:\n  disable: [a.b, c.d, e.f]\n",
			project: "guard:\n  disable:\n    - x.y\n",
			want: map[string]string{
				"guard.disable[0]": `"x.y" @ P:3`,
			},
			absent: []string{"guard.disable[1]"},
		},
		{
			name:    "empty list in project clears the user's list",
			user:    "guard:\n  groups: [cloud]\n",
			project: "guard:\n  groups: []\n",
			want:    map[string]string{"guard.groups": "[] @ P:2"},
		},
		{
			name:    "rules replace and get tool default",
			user:    "rules:\n  - verdict: deny\n    command: rm\n  - verdict: ask\n    command: git\n",
			project: "rules:\n  - verdict: deny\n    tool: write\n    path: 'migrations/**'\n",
			want: map[string]string{
				"rules[0].verdict": `"deny" @ P:2`,
				"rules[0].tool":    `"write" @ P:3`,
				"rules[0].path":    `"migrations/**" @ P:4`,
			},
			absent: []string{"rules[1].verdict", "rules[0].command"},
		},
		{
			name: "a rule's tool defaults to *",
			user: "rules:\n  - verdict: deny\n    command: terraform apply\n",
			want: map[string]string{"rules[0].tool": `"*" @ default`, "rules[0].command": `"terraform apply" @ U:3`},
		},
		{
			name:    "null resets a setting to its default",
			user:    "audit:\n  max_mib: 5\nguard:\n  disable: [a.b]\n",
			project: "audit:\n  max_mib: ~\nguard:\n  disable:\n",
			want:    map[string]string{"audit.max_mib": "40 @ default", "guard.disable": "[] @ default"},
		},
		{
			name:    "null removes a map entry",
			user:    "guard:\n  verdicts: {a.b: deny, c.d: ask}\n",
			project: "guard:\n  verdicts:\n    a.b: null\n",
			want:    map[string]string{`guard.verdicts."c.d"`: `"ask" @ U:2`},
			absent:  []string{`guard.verdicts."a.b"`},
		},
		{
			name:    "an empty section changes nothing",
			user:    "guard:\n  enabled: false\n",
			project: "guard:\n  # enabled: true\n",
			want:    map[string]string{"guard.enabled": "false @ U:2"},
		},
		{
			name:    "empty and comment-only files are valid",
			user:    "\n",
			project: "# nothing yet\n",
			want:    map[string]string{"audit.max_mib": "40 @ default"},
		},
		{
			name:    "null document is empty",
			project: "~\n",
			want:    map[string]string{"audit.max_mib": "40 @ default"},
		},
		{
			name: "scalars of other kinds are text for strings; aliases resolve",
			user: "session:\n  identity:\n    name: &n 42\nguard:\n  switches: {strict: true, depth: 3}\n  disable: [*n]\n",
			want: map[string]string{
				"session.identity.name": `"42" @ U:3`,
				"guard.switches.strict": `"true" @ U:5`,
				"guard.switches.depth":  `"3" @ U:5`,
				"guard.disable[0]":      `"42" @ U:3`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, rel := setup(t, tt.user, tt.project)
			c, err := Load(p)
			if err != nil {
				t.Fatalf("Load: %v", rel(err.Error()))
			}
			got := leaves(c, rel)
			for k, want := range tt.want {
				if got[k] != want {
					t.Errorf("%s = %q, want %q", k, got[k], want)
				}
			}
			for _, k := range tt.absent {
				if v, ok := got[k]; ok {
					t.Errorf("%s = %q, want absent", k, v)
				}
			}
		})
	}
}

func TestLoadTyped(t *testing.T) {
	p, _ := setup(t, "guard:\n  verdicts: {git.reset-hard: ask}\n  switches: {strict: true}\n",
		"audit: {max_mib: 7}\nrules:\n  - {verdict: deny, command: terraform apply, reason: shared}\n  - {verdict: ask, tool: edit, path: 'db/**'}\n")
	c, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if c.Audit.MaxMiB != 7 || !c.Guard.Enabled || c.Guard.Verdicts["git.reset-hard"] != Ask || c.Guard.Switches["strict"] != "true" {
		t.Errorf("unexpected config: %+v", c)
	}
	wantRules := []Rule{
		{Verdict: Deny, Tool: AnyTool, Command: "terraform apply", Reason: "shared"},
		{Verdict: Ask, Tool: "edit", Path: "db/**"},
	}
	if !slices.Equal(c.Rules, wantRules) {
		t.Errorf("Rules = %+v, want %+v", c.Rules, wantRules)
	}
	if c.Guard.Disable == nil || len(c.Guard.Disable) != 0 {
		t.Errorf("Disable = %#v, want empty non-nil", c.Guard.Disable)
	}
	if c.Session.Stop.MaxBlocks != 3 || c.Hooks.TimeoutSeconds != 10 || c.Session.Identity.Name != "Muad'Dib" {
		t.Errorf("defaults not applied: %+v", c)
	}
}

func TestValidationErrors(t *testing.T) {
	tests := []struct {
		name    string
		project string
		want    []string
	}{
		{
			name:    "bad enum in a map with a dotted key",
			project: "guard:\n  verdicts:\n    git.reset-hard: maybe\n",
			want:    []string{`P:3:21: guard.verdicts."git.reset-hard": "maybe" is not one of allow, ask, deny`},
		},
		{
			name:    "unknown nested key with suggestion",
			project: "guard:\n  disabel: [a.b]\n",
			want:    []string{`P:2:3: guard.disabel: unknown key (did you mean "disable"?)`},
		},
		{
			name:    "an unknown preset",
			project: "preset: minimal\n",
			want:    []string{`P:1:9: preset: "minimal" is not one of guard, standard, full`},
		},
		{
			name:    "unknown top-level key lists the known ones",
			project: "polcy_xyz: 1\n",
			want:    []string{`P:1:1: polcy_xyz: unknown key (known: version, preset, audit, guard, rules, session, hooks, governance, delegation, state, context, background, tasks, review, agents, export, project, store, otel)`},
		},
		{
			name:    "a check without globs or command, a bad read-before-write mode",
			project: "context:\n  read_before_write: always\n  checks:\n    run:\n      - command: \" \"\n      - globs: []\n",
			want: []string{
				`P:2:22: context.read_before_write: "always" is not one of off, note, block`,
				`P:5:9: context.checks.run[0]: a check needs globs: the files it runs after`,
				`P:5:9: context.checks.run[0]: a check needs a command`,
				`P:6:9: context.checks.run[1]: a check needs globs: the files it runs after`,
				`P:6:9: context.checks.run[1]: a check needs a command`,
			},
		},
		{
			name:    "context monitor thresholds out of range",
			project: "context:\n  monitor:\n    thresholds: [70, 100]\n",
			want:    []string{`P:3:17: context.monitor.thresholds: 100 is not a percentage between 1 and 99`},
		},
		{
			name:    "context monitor thresholds out of order",
			project: "context:\n  monitor:\n    thresholds: [85, 70]\n",
			want:    []string{`P:3:17: context.monitor.thresholds: percentages must be in ascending order, each once`},
		},
		{
			name:    "string where a list is expected",
			project: "guard:\n  disable: git.reset-hard\n",
			want:    []string{`P:2:12: guard.disable: expected a list, got the string "git.reset-hard"`},
		},
		{
			name:    "list where a mapping is expected",
			project: "guard:\n  - enabled\n",
			want:    []string{`P:2:3: guard: expected a mapping, got a list`},
		},
		{
			name:    "wrong scalar types",
			project: "guard:\n  enabled: yes\nhooks:\n  timeout_seconds: \"10\"\nsession:\n  identity:\n    prefix: 1\n",
			want: []string{
				`P:2:12: guard.enabled: expected true or false, got the string "yes"`,
				`P:4:20: hooks.timeout_seconds: expected an integer, got the string "10"`,
				`P:7:13: session.identity.prefix: expected true or false, got the integer 1`,
			},
		},
		{
			name:    "integer range",
			project: "hooks:\n  timeout_seconds: 0\nsession:\n  stop: {max_blocks: -1}\n",
			want: []string{
				`P:2:20: hooks.timeout_seconds: 0 is not between 1 and 600`,
				`P:4:22: session.stop.max_blocks: -1 is not between 0 and 100`,
			},
		},
		{
			name:    "integer overflow",
			project: "hooks:\n  timeout_seconds: 99999999999999999999999\n",
			want:    []string{`P:2:20: hooks.timeout_seconds: expected an integer, got the number 99999999999999999999999`},
		},
		{
			name:    "unsupported version",
			project: "version: 2\n",
			want:    []string{`P:1:10: version: 2 is not supported (this atreides reads version 1)`},
		},
		{
			name:    "enum",
			project: "governance:\n  unknown_writes: verbose\n",
			want:    []string{`P:2:19: governance.unknown_writes: "verbose" is not one of allow, ask, deny`},
		},
		{
			name:    "bad glob",
			project: "rules:\n  - verdict: deny\n    path: 'src/[a-'\n",
			want:    []string{`P:3:11: rules[0].path: "src/[a-" is not a valid glob`},
		},
		{
			name:    "bad production glob",
			project: "guard:\n  production:\n    contexts: [gke-main, 'prod-[']\n",
			want:    []string{`P:3:26: guard.production.contexts[1]: "prod-[" is not a valid glob (path.Match syntax: * ? [a-z])`},
		},
		{
			name:    "empty production name",
			project: "guard:\n  production:\n    hosts: ['']\n",
			want:    []string{`P:3:13: guard.production.hosts[0]: empty name`},
		},
		{
			name:    "production name not a string",
			project: "guard:\n  production:\n    stacks: {prod: true}\n",
			want:    []string{`P:3:13: guard.production.stacks: expected a list, got a mapping`},
		},
		{
			name:    "rule with both command and path",
			project: "rules:\n  - verdict: deny\n    command: rm\n    path: x/**\n",
			want:    []string{`P:4:11: rules[0].path: a rule takes command or path, not both`},
		},
		{
			name:    "rule with neither command nor path, and no verdict",
			project: "rules:\n  - reason: why\n",
			want: []string{
				`P:2:5: rules[0]: a rule needs a verdict (allow, ask or deny)`,
				`P:2:5: rules[0]: a rule needs a command (prefix) or a path (glob)`,
			},
		},
		{
			name:    "invalid verdict is not also reported missing",
			project: "rules:\n  - verdict: block\n    command: rm\n",
			want:    []string{`P:2:14: rules[0].verdict: "block" is not one of allow, ask, deny`},
		},
		{
			name:    "command rule for a non-shell tool, bad tool, empty prefix",
			project: "rules:\n  - {verdict: deny, tool: read, command: cat}\n  - {verdict: deny, tool: bash, path: a}\n  - {verdict: deny, command: ' '}\n",
			want: []string{
				`P:2:27: rules[0].tool: command rules apply to tool shell, not "read"`,
				`P:3:27: rules[1].tool: "bash" is not one of shell, read, write, edit, search, fetch, delegate, *`,
				`P:4:30: rules[2].command: empty command prefix`,
			},
		},
		{
			name:    "null list item",
			project: "guard:\n  disable: [a.b, ~]\n",
			want:    []string{`P:2:18: guard.disable[1]: expected a string, got null`},
		},
		{
			name:    "duplicate and merge keys",
			project: "audit:\n  max_mib: 1\naudit:\n  max_mib: 2\nbase: &b {enabled: true}\nguard:\n  <<: *b\n",
			want: []string{
				`P:3:1: audit: duplicate key (first set on line 1)`,
				`P:5:1: base: unknown key (known: version, preset, audit, guard, rules, session, hooks, governance, delegation, state, context, background, tasks, review, agents, export, project, store, otel)`,
				`P:7:3: guard."<<": YAML merge keys (<<) are not supported; repeat the keys`,
			},
		},
		{
			name:    "non-text key",
			project: "guard:\n  verdicts:\n    [a]: deny\n",
			want:    []string{`P:3:5: guard.verdicts: a key must be text, not a list`},
		},
		{
			name:    "all errors in a file, in line order",
			project: "governance:\n  unknown_writes: loud\nguard:\n  enabled: maybe\n  verdicts: {x.y: nope}\nhooks: {timeout: 3}\n",
			want: []string{
				`P:2:19: governance.unknown_writes: "loud" is not one of allow, ask, deny`,
				`P:4:12: guard.enabled: expected true or false, got the string "maybe"`,
				`P:5:19: guard.verdicts."x.y": "nope" is not one of allow, ask, deny`,
				`P:6:9: hooks.timeout: unknown key (known: timeout_seconds)`,
			},
		},
		{
			name:    "top level not a mapping",
			project: "- a\n- b\n",
			want:    []string{`P:1:1: the top level must be a mapping (key: value), not a list`},
		},
		{
			name:    "top level scalar",
			project: "just text\n",
			want:    []string{`P:1:1: the top level must be a mapping (key: value), not the string "just text"`},
		},
		{
			name:    "syntax error has a line",
			project: "audit:\n  max_mib: 1\nguard\n  enabled: true\n",
			want:    []string{`P:3: YAML syntax error: could not find expected ':'`},
		},
		{
			name:    "unclosed flow list",
			project: "guard:\n  disable: [a,\n",
			want:    []string{`P:2: YAML syntax error: did not find expected node content`},
		},
		{
			name:    "two documents",
			project: "audit: {max_mib: 1}\n---\naudit: {max_mib: 2}\n",
			want:    []string{`P:2:1: more than one YAML document (---); a config file holds one`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, rel := setup(t, "", tt.project)
			c, err := Load(p)
			var verr *ValidationError
			if !errors.As(err, &verr) {
				t.Fatalf("Load = %v, %v; want *ValidationError", c, err)
			}
			got := strings.Split(rel(verr.Error()), "\n")
			if !slices.Equal(got, tt.want) {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestValidationErrorsBothFiles(t *testing.T) {
	p, rel := setup(t, "governance: {unknown_writes: x}\n", "hooks: {timeout_seconds: true}\n")
	_, err := Load(p)
	want := "P:1:26: hooks.timeout_seconds: expected an integer, got the boolean true\n" +
		`U:1:30: governance.unknown_writes: "x" is not one of allow, ask, deny`
	if err == nil || rel(err.Error()) != want {
		t.Errorf("Load error:\n%v\nwant:\n%s", err, want)
	}
}

func TestLoadFiles(t *testing.T) {
	dir := t.TempDir()
	c, err := Load(Paths{User: filepath.Join(dir, "nope.yaml"), Project: filepath.Join(dir, "no", "such", "config.yaml")})
	if err != nil || c.Governance.UnknownWrites != Ask {
		t.Errorf("missing files: Load = %+v, %v; want defaults", c, err)
	}
	// A directory where the file should be stands in for an unreadable
	// file: tests run as root, where chmod 000 does not stop reading.
	bad := filepath.Join(dir, "config.yaml")
	if err := os.Mkdir(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err = Load(Paths{Project: bad})
	var verr *ValidationError
	if err == nil || errors.As(err, &verr) || !strings.Contains(err.Error(), bad) {
		t.Errorf("directory as file: Load error = %v; want an I/O error naming the file", err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, bytes.Repeat([]byte("#\n"), maxFileSize), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(Paths{User: big}); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("huge file: Load error = %v; want size error", err)
	}
}

func TestPosKeyErrorAt(t *testing.T) {
	p, rel := setup(t, "guard:\n  disable: [a.b]\n",
		"guard:\n  disable:\n    - git.reset-hard\n    - bogus.rule\n  verdicts:\n    git.clean: ask\n")
	c, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path     []string
		src, key string
	}{
		{[]string{"guard", "disable", "1"}, "P:4", "guard.disable[1]"},
		{[]string{"guard", "disable"}, "P:2", "guard.disable"},
		{[]string{"guard", "verdicts", "git.clean"}, "P:6", `guard.verdicts."git.clean"`},
		{[]string{"guard", "enabled"}, "default", "guard.enabled"},
		{[]string{"guard", "disable", "7"}, "default", "guard.disable[7]"},
		{[]string{"no", "such"}, "default", "no.such"},
	}
	for _, tt := range tests {
		if got := rel(c.Pos(tt.path...).String()); got != tt.src {
			t.Errorf("Pos(%q) = %s, want %s", tt.path, got, tt.src)
		}
		if got := c.Key(tt.path...); got != tt.key {
			t.Errorf("Key(%q) = %s, want %s", tt.path, got, tt.key)
		}
	}
	if s := c.Pos("guard", "disable", "1"); s.Col != 7 {
		t.Errorf("Pos col = %d, want 7", s.Col)
	}
	fe := c.ErrorAt(`unknown rule id "bogus.rule"`, "guard", "disable", "1")
	if got, want := rel(fe.Error()), `P:4:7: guard.disable[1]: unknown rule id "bogus.rule"`; got != want {
		t.Errorf("ErrorAt = %s, want %s", got, want)
	}
	if got := c.ErrorAt("x", "audit", "max_mib").Error(); got != "built-in defaults: audit.max_mib: x" {
		t.Errorf("ErrorAt on a default = %s", got)
	}
}

func TestShow(t *testing.T) {
	p, rel := setup(t, "audit:\n  max_mib: 7\n",
		"guard:\n  verdicts:\n    git.reset-hard: deny\n  switches: {strict: true}\nrules:\n  - verdict: ask\n    path: 'db/**'\n    reason: \"it's: shared\"\n")
	c, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	var yb, jb bytes.Buffer
	if err := c.Show(&yb, "yaml"); err != nil {
		t.Fatal(err)
	}
	if err := c.Show(&jb, "json"); err != nil {
		t.Fatal(err)
	}
	yamlOut, jsonOut := rel(yb.String()), rel(jb.String())
	for _, want := range []string{
		"version: 1 # from: default\n",
		"audit:\n  max_mib: 7 # from: U:2\n",
		"  disable: [] # from: default\n",
		"  verdicts:\n    git.reset-hard: deny # from: P:3\n",
		"    strict: true # from: P:4\n",
		"rules:\n  - verdict: ask # from: P:6\n    tool: '*' # from: default\n    path: db/** # from: P:7\n    reason: 'it''s: shared' # from: P:8\n",
		"hooks:\n  timeout_seconds: 10 # from: default\n",
	} {
		if !strings.Contains(yamlOut, want) {
			t.Errorf("yaml output lacks %q:\n%s", want, yamlOut)
		}
	}
	for _, want := range []string{
		"{\n  \"config\": {\n    \"version\": 1,\n",
		`"max_mib": 7`,
		`"git.reset-hard": "deny"`,
		`"strict": "true"`,
		`"guard.verdicts.\"git.reset-hard\"": "P:3"`,
		`"audit.max_mib": "U:2"`,
		`"guard.disable": "default"`,
		`"rules[0].path": "P:7"`,
	} {
		if !strings.Contains(jsonOut, want) {
			t.Errorf("json output lacks %q:\n%s", want, jsonOut)
		}
	}
	// The YAML output is itself a valid config with the same values.
	dir := t.TempDir()
	round := filepath.Join(dir, "round.yaml")
	if err := os.WriteFile(round, yb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	c2, err := Load(Paths{User: round})
	if err != nil {
		t.Fatalf("reloading Show output: %v", err)
	}
	if c2.Audit.MaxMiB != c.Audit.MaxMiB || !slices.Equal(c2.Rules, c.Rules) || c2.Guard.Switches["strict"] != "true" {
		t.Errorf("round trip changed the config: %+v vs %+v", c2, c)
	}
	if err := c.Show(&yb, "toml"); err == nil {
		t.Error("Show(toml) succeeded")
	}
}

func TestDefaults(t *testing.T) {
	c, err := Load(Paths{})
	if err != nil {
		t.Fatalf("defaults do not load: %v", err)
	}
	// Every setting is documented in the defaults: each struct field of
	// the schema appears in the tree.
	var missing []string
	walkSchema(configType(), c.tree(), "", &missing)
	if len(missing) > 0 {
		t.Errorf("defaults.yaml lacks %v", missing)
	}
	if !bytes.Equal(DefaultYAML(), defaultYAML) {
		t.Error("DefaultYAML differs from the embedded file")
	}
	// The production names shown are the guard's defaults, so policy
	// keeps the default policy for an unchanged configuration.
	pr := c.Guard.Production
	for _, l := range [][]ProdName{pr.Contexts, pr.Namespaces, pr.Hosts, pr.Inventories, pr.Stacks} {
		if !slices.Equal(l, prodNames(guard.DefaultProductionNames())) {
			t.Errorf("guard.production list %v, want the guard's defaults %v", l, guard.DefaultProductionNames())
		}
	}
}

func prodNames(l []string) []ProdName {
	out := make([]ProdName, len(l))
	for i, s := range l {
		out[i] = ProdName(s)
	}
	return out
}

func TestDefaultPaths(t *testing.T) {
	t.Setenv("HOME", "/home/u")
	t.Setenv("XDG_CONFIG_HOME", "/xdg")
	if got := DefaultPaths("/repo"); got != (Paths{User: "/xdg/atreides/config.yaml", Project: "/repo/.atreides/config.yaml", Trust: "/xdg/atreides/trusted.json"}) {
		t.Errorf("with XDG: %+v", got)
	}
	t.Setenv("XDG_CONFIG_HOME", "rel")
	if got := DefaultPaths(""); got != (Paths{User: "/home/u/.config/atreides/config.yaml"}) {
		t.Errorf("relative XDG: %+v", got)
	}
}

func TestLazy(t *testing.T) {
	p, _ := setup(t, "", "audit: {max_mib: 7}\n")
	l := NewCachedLazy(p, "", nil, nil)
	c1, err := l.Get()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p.Project, []byte("audit: {max_mib: 9}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c2, err := l.Get()
	if err != nil || c2 != c1 || c2.Audit.MaxMiB != 7 {
		t.Errorf("second Get = %+v, %v; want the first result", c2, err)
	}
}

// TestLoadOrBuiltin: a file that cannot be read gives the built-in
// configuration (tightened by nothing: the file has no readable part)
// and the error; a good one gives itself.
func TestLoadOrBuiltin(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	good := filepath.Join(dir, "good.yaml")
	os.WriteFile(bad, []byte("audit: [not, a, mapping\n"), 0o644)
	os.WriteFile(good, []byte("audit:\n  max_mib: 7\n"), 0o644)
	builtin, err := Load(Paths{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := LoadOrBuiltin(Paths{Project: bad})
	if err == nil || c == nil || c.Audit.MaxMiB != builtin.Audit.MaxMiB || !c.IsFallback() {
		t.Errorf("a broken file gave %v, %v; want the built-in configuration and an error", c, err)
	}
	c, err = LoadOrBuiltin(Paths{User: good})
	if err != nil || c.Audit.MaxMiB != 7 {
		t.Errorf("a good file gave %v, %v", c, err)
	}
}
