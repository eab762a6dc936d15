package features

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/atreides-dev/atreides/internal/guard"

	"mvdan.cc/sh/v3/syntax"
)

// dottedKey is an inline code span that reads as a configuration key:
// section.key[.key...], ids and map keys included.
var dottedKey = regexp.MustCompile("`([a-z_]+(?:\\.[A-Za-z0-9_*\"-]+)+)`")

// notKeys are code spans that look like keys and are not: files, rule
// ids of the delegation handler, span attributes, Go identifiers. The
// guard's rule ids (`review.bypass`) are skipped by [isRuleID].
var notKeys = map[string]bool{
	"state.db": true, "state.json": true, "audit.jsonl": true, // files
	"delegation.depth": true, "delegation.cycle": true, "delegation.no-todo": true, "delegation.deadline": true, // rule ids
	"session.id":         true,                         // an OpenTelemetry attribute
	"guard.ShellEffects": true, "tasks.CallerOf": true, // Go identifiers
}

// isRuleID reports whether a span is one of the guard's rule ids, which
// share their first word with configuration sections (`review.bypass`).
func isRuleID(span string) bool {
	ruleIDsOnce.Do(func() {
		ruleIDs = map[string]bool{}
		for _, id := range guard.RuleIDs() {
			ruleIDs[id] = true
		}
	})
	return ruleIDs[span]
}

var (
	ruleIDsOnce sync.Once
	ruleIDs     map[string]bool
)

// TestDocConfigKeys: every configuration key the docs and the README name
// in code (`context.output.shell`) is a key of docs/config.schema.json, so
// a renamed or removed key cannot stay documented.
func TestDocConfigKeys(t *testing.T) {
	schema := readSchema(t)
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no docs: %v", err)
	}
	files = append(files, filepath.Join(root, "README.md"))
	checked := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range dottedKey.FindAllStringSubmatch(string(data), -1) {
			path := strings.Split(m[1], ".")
			if _, ok := schema.props()[path[0]]; !ok || notKeys[m[1]] || isRuleID(m[1]) {
				continue // a file name (config.yaml), a rule id (git.push-force): not a key
			}
			checked++
			if !schema.has(path) {
				t.Errorf("%s: `%s` is no configuration key (docs/config.schema.json)", filepath.Base(f), m[1])
			}
		}
	}
	if checked == 0 {
		t.Fatal("no configuration key found in the docs")
	}
	t.Logf("%d configuration keys checked", checked)
}

// TestFeatureDocsExist: every page the table links to is there, and the
// README links to each.
func TestFeatureDocsExist(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range features {
		if f.Doc == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, f.Doc)); err != nil {
			t.Errorf("feature %s: its page %s: %v", f.ID, f.Doc, err)
		}
		if !strings.Contains(string(readme), "("+f.Doc+")") {
			t.Errorf("feature %s: the README does not link to %s", f.ID, f.Doc)
		}
	}
}

// featureLink is a link to a section of docs/features.md.
var featureLink = regexp.MustCompile(`features\.md#([a-z0-9_-]+)`)

// TestFeatureLinks: every link into docs/features.md, from the docs and
// the README, names a feature's section.
func TestFeatureLinks(t *testing.T) {
	sections := map[string]bool{}
	for _, f := range features {
		sections[slug(f.Title)] = true
	}
	files, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append(files, filepath.Join(root, "README.md"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range featureLink.FindAllStringSubmatch(string(data), -1) {
			if !sections[m[1]] {
				t.Errorf("%s: features.md#%s is no feature's section", filepath.Base(f), m[1])
			}
		}
	}
}

// node is a JSON Schema object, as far as keys go.
type node map[string]any

func readSchema(t *testing.T) node {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "docs", "config.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var n node
	if err := json.Unmarshal(data, &n); err != nil {
		t.Fatal(err)
	}
	return n
}

func (n node) props() map[string]any {
	p, _ := n["properties"].(map[string]any)
	return p
}

// has reports whether the key path leads somewhere in n: a property, or
// any name where n takes additional properties (a map: agents, modes).
func (n node) has(path []string) bool {
	if len(path) == 0 {
		return true
	}
	key := strings.Trim(path[0], `"`)
	if child, ok := n.props()[key].(map[string]any); ok {
		return node(child).has(path[1:])
	}
	if extra, ok := n["additionalProperties"].(map[string]any); ok {
		return node(extra).has(path[1:])
	}
	return false
}

// shellBlock is a fenced block of shell: ```sh (with or without an info
// string after it, such as install-test).
var shellBlock = regexp.MustCompile("(?s)```(?:sh|bash)[^\n]*\n(.*?)```")

// TestDocShellParses: every shell block of the docs and the README is
// valid shell, so a block a user pastes runs as written.
func TestDocShellParses(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no docs: %v", err)
	}
	files = append(files, filepath.Join(root, "README.md"))
	blocks := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range shellBlock.FindAllStringSubmatch(string(data), -1) {
			blocks++
			if _, err := syntax.NewParser().Parse(strings.NewReader(m[1]), ""); err != nil {
				t.Errorf("%s, shell block %d: %v", filepath.Base(f), i+1, err)
			}
		}
	}
	if blocks == 0 {
		t.Fatal("no shell block found in the docs")
	}
}
