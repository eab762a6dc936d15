package config

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestFallback: a file that cannot be read whole leaves the defaults
// tightened by its readable part, never loosened, whichever way it is
// broken.
func TestFallback(t *testing.T) {
	for _, tc := range []struct {
		name, user, project string
		dirProject          bool // the project's config.yaml is a directory: unreadable
		want                func(*Config) bool
	}{
		{name: "broken YAML contributes nothing", project: "guard: [\n  verdicts: {git.push-force: deny\n",
			want: func(c *Config) bool { return c.Guard.Enabled && len(c.Guard.Verdicts) == 0 && len(c.Rules) == 0 }},
		{name: "a wrong type in one key keeps the rest that tightens",
			project: "guard:\n  enabled: maybe\n  verdicts: {git.push-force: deny}\nrules:\n  - {command: make docs, verdict: deny}\n",
			want: func(c *Config) bool {
				return c.Guard.Enabled && c.Guard.Verdicts["git.push-force"] == "deny" && len(c.Rules) == 1 && c.Rules[0].Command == "make docs"
			}},
		{name: "an unknown key does not let the rest loosen",
			project: "guard:\n  enabeld: false\n  enabled: false\n  verdicts: {fs.rm-root-home: allow, git.push-force: deny}\n  disable: [fs.shred]\n",
			want: func(c *Config) bool {
				return c.Guard.Enabled && c.Guard.Verdicts["fs.rm-root-home"] == "" && c.Guard.Verdicts["git.push-force"] == "deny" && len(c.Guard.Disable) == 0
			}},
		{name: "allow rules go, deny and ask rules stay, an invalid rule goes whole",
			user: "rules:\n  - {command: ls, verdict: allow}\n  - {command: make docs, verdict: ask}\n  - {command: rm, verdict: deny, tool: nosuch}\nbogus: 1\n",
			want: func(c *Config) bool { return len(c.Rules) == 1 && c.Rules[0].Verdict == "ask" }},
		{name: "the user's valid loosening goes too while the project is broken",
			user: "guard: {enabled: false}\npreset: guard\n", project: "guard: [\n",
			want: func(c *Config) bool { return c.Guard.Enabled && c.Preset == PresetFull }},
		{name: "a broken project's reset does not undo the user's tightening",
			user: "guard: {verdicts: {git.push-force: deny}}\n", project: "guard: {verdicts: ~, enabled: 5}\n",
			want: func(c *Config) bool { return c.Guard.Verdicts["git.push-force"] == "deny" }},
		{name: "an unreadable file contributes nothing, the other file tightens",
			user: "guard: {groups: [cloud]}\n", dirProject: true,
			want: func(c *Config) bool { return slices.Equal(c.Guard.Groups, []string{"cloud"}) }},
		{name: "programs to run never stay",
			project: "context: {checks: {run: [{globs: ['*.go'], command: 'curl x | sh'}]}}\nnope: 1\n",
			want:    func(c *Config) bool { return len(c.Context.Checks.Run) == 0 }},
		{name: "names the guard does not know are left out",
			project: "guard:\n  enabled: 2\n  groups: [kubernets, cloud]\n  verdicts: {git.push-forse: deny, git.push-force: deny}\n  switches: {nosuch: deny}\n",
			want: func(c *Config) bool {
				return slices.Equal(c.Guard.Groups, []string{"cloud"}) && len(c.Guard.Verdicts) == 1 && c.Guard.Verdicts["git.push-force"] == "deny" && len(c.Guard.Switches) == 0
			}},
		{name: "free settings read apply", project: "session: {stop: {max_blocks: 5}}\nguard: {enabled: 3}\n",
			want: func(c *Config) bool { return c.Session.Stop.MaxBlocks == 5 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := untrustedSetup(t, tc.user, tc.project)
			if tc.dirProject {
				if err := os.MkdirAll(p.Project, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := Load(p); err == nil {
				t.Fatal("Load succeeded; the case needs a broken file")
			}
			c := Fallback(p)
			if !c.IsFallback() {
				t.Error("not marked as a fallback")
			}
			if !tc.want(c) {
				t.Errorf("fallback: guard %+v, rules %+v, preset %s", c.Guard, c.Rules, c.Preset)
			}
		})
	}
}

// TestLazyUsable: a Lazy of broken files gives its fallback with the
// error, and of good files their configuration without one.
func TestLazyUsable(t *testing.T) {
	dir := t.TempDir()
	p := Paths{Project: filepath.Join(dir, ".atreides", "config.yaml")}
	os.MkdirAll(filepath.Dir(p.Project), 0o755)
	os.WriteFile(p.Project, []byte("guard: {verdicts: {git.push-force: deny}, enabled: 7}\n"), 0o644)
	c, err := NewCachedLazy(p, dir, nil, nil).Usable()
	if err == nil || !c.IsFallback() || c.Guard.Verdicts["git.push-force"] != "deny" {
		t.Errorf("broken: %v, fallback %v, verdicts %v", err, c.IsFallback(), c.Guard.Verdicts)
	}
	os.WriteFile(p.Project, []byte("guard: {verdicts: {git.push-force: deny}}\n"), 0o644)
	c, err = NewCachedLazy(p, dir, nil, nil).Usable()
	if err != nil || c.IsFallback() {
		t.Errorf("good: %v, fallback %v", err, c.IsFallback())
	}
}
