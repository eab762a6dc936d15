package config

import "testing"

const (
	benchUser = `audit:
  max_mib: 20
session:
  identity:
    name: Paul
    prefix: true
guard:
  verdicts:
    git.push-force: ask
`
	benchProject = `version: 1
guard:
  disable: [git.reset-hard, fs.rm-recursive]
  verdicts:
    git.clean: deny
    db.drop: ask
  groups: [cloud, databases]
  switches: {strict_paths: true}
rules:
  - verdict: deny
    tool: shell
    command: "terraform apply"
    reason: "plans are applied by CI"
  - verdict: ask
    tool: write
    path: "migrations/**"
  - verdict: allow
    command: "make test"
hooks:
  timeout_seconds: 5
`
)

// BenchmarkLoad measures a hook call's cost of configuration: reading and
// validating a typical user and project file and merging them.
func BenchmarkLoad(b *testing.B) {
	p, _ := setup(b, benchUser, benchProject)
	if _, err := Load(p); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDefaults measures building the built-in defaults tree from
// its generated Go values, once per process that loads a config file;
// BenchmarkDefaultsYAML is what parsing defaults.yaml instead would cost.
func BenchmarkDefaults(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		builtinTree()
	}
}

func BenchmarkDefaultsYAML(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, errs, _ := parse("", defaultYAML); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

// BenchmarkBuiltin measures the built-in typed configuration, built from
// its generated Go values (the tree left aside).
func BenchmarkBuiltin(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		builtinConfig()
	}
}
