package guard

import (
	"strings"
	"testing"
)

// selfBin is the installed binary in the self-protection tests: in the
// home, so that no system-directory rule gets there first.
const selfBin = testHome + "/go/bin/atreides"

// testHostSettings is what the host registry lists for the test project
// and home with CODEX_HOME=/srv/codex (its TestHookFiles checks the same
// list; the guard's own tests cannot import the registry, which links the
// guard).
var testHostSettings = []string{
	"/home/user/proj/.claude/settings.json", "/home/user/proj/.claude/settings.local.json", "/home/user/proj/.mcp.json",
	"/home/user/proj/.gemini/settings.json", "/home/user/.claude/settings.json", "/home/user/.gemini/settings.json",
	"/home/user/proj/.codex/hooks.json", "/home/user/proj/.codex/config.toml", "/srv/codex/hooks.json",
	"/srv/codex/config.toml", "/home/user/.codex/hooks.json", "/home/user/.codex/config.toml",
	"/home/user/proj/.opencode/plugin/", "/home/user/proj/.opencode/plugins/", "/home/user/proj/.opencode/opencode.json",
	"/home/user/proj/.opencode/opencode.jsonc", "/home/user/proj/opencode.json", "/home/user/proj/opencode.jsonc",
	"/home/user/.config/opencode/plugin/", "/home/user/.config/opencode/plugins/",
	"/home/user/.config/opencode/opencode.json", "/home/user/.config/opencode/opencode.jsonc",
	"/home/user/proj/.qwen/settings.json", "/home/user/.qwen/settings.json",
}

// selfReq is a request with atreides's own paths filled in the way
// policy.NewRequest fills them.
func selfReq(tool, arg string) Request {
	r := Request{Tool: tool, Cwd: testProject, ProjectRoot: testProject, Home: testHome, TempDirs: testTemps,
		Self: selfBin, ConfigDir: testHome + "/.config/atreides",
		HostSettings: testHostSettings}
	if tool == "shell" {
		r.Command = arg
	} else {
		r.Path = arg
	}
	return r
}

type selfCase struct {
	cmd  string
	want Verdict
	rule string // "" = any rule (or none, for Allow)
}

func runSelfCases(t *testing.T, p *Policy, cases []selfCase, mod func(*Request)) {
	t.Helper()
	for _, tc := range cases {
		req := selfReq("shell", tc.cmd)
		if mod != nil {
			mod(&req)
		}
		got := p.Check(req)
		if got.Verdict != tc.want || tc.rule != "" && got.Rule != tc.rule {
			t.Errorf("%s\n  got  %s %s (%s)\n  want %s %s", tc.cmd, got.Verdict, got.Rule, got.Reason, tc.want, tc.rule)
		}
	}
}

// TestSelfConfigWrites: every shell form of writing atreides's own files is
// denied; reading them is not.
func TestSelfConfigWrites(t *testing.T) {
	const cw, bw = "self.config-write", "self.binary-write"
	runSelfCases(t, DefaultPolicy(), []selfCase{
		{`echo 'guard: {enabled: false}' > .atreides/config.yaml`, Deny, cw},
		{`echo '{}' >> .atreides/trace.jsonl`, Deny, cw},
		{`cat > .atreides/specs/1_x/plans/implementation-001.md <<'EOF'
## Phase 1: a [NOT STARTED]
EOF`, Allow, ""},
		{`rm -rf .atreides/specs/1_x/plans`, Deny, cw},
		{`echo '# Layout' > .atreides/context/project/layout.md`, Allow, ""},
		{`rm -rf .atreides/context`, Deny, cw},
		{`ln -s ../config.yaml .atreides/context/core/x.md`, Deny, cw},
		{`mv .atreides/config.yaml .atreides/specs/1_x/plans/a.md`, Deny, cw},
		{`cp x.md .atreides/specs/1_x/plans/a.md && echo y > .atreides/specs/errors.json`, Deny, cw},
		{`printf 'intents: []\n' >| .atreides/intents.yaml`, Deny, cw},
		{`: > .atreides/state.db`, Deny, cw},
		{`echo x &> .atreides/log`, Deny, cw},
		{`echo x >& .atreides/config.yaml`, Deny, cw},
		{`echo x >& /etc/passwd`, Deny, "fs.write-critical"},
		{`make 2>&1 | tee build.log`, Allow, ""},
		{`echo x >&2`, Allow, ""},
		{`exec 3>&-`, Allow, ""},
		{`tee .atreides/config.yaml < /tmp/c.yaml`, Deny, cw},
		{`echo x | tee -a .atreides/trace.jsonl`, Deny, cw},
		{`echo x | sudo tee .atreides/config.yaml`, Deny, cw},
		{`sed -i 's/enabled: true/enabled: false/' .atreides/config.yaml`, Deny, cw},
		{`sed --in-place=.bak -e d .atreides/config.yaml`, Deny, cw},
		{`cp /tmp/c.yaml .atreides/config.yaml`, Deny, cw},
		{`cp -f /tmp/c.yaml ./.atreides/`, Deny, cw},
		{`mv /tmp/c.yaml .atreides/config.yaml`, Deny, cw},
		{`install -m 644 /tmp/c.yaml .atreides/config.yaml`, Deny, cw},
		{`ln -sf /dev/null .atreides/config.yaml`, Deny, cw},
		{`truncate -s 0 .atreides/trace.jsonl`, Deny, cw},
		{`dd if=/dev/zero of=.atreides/state.db bs=1 count=1`, Deny, cw},
		{`jq '.guard.enabled = false' .atreides/config.yaml > tmp && mv tmp .atreides/config.yaml`, Deny, cw},
		{`yq -i '.guard.enabled = false' x.yaml && cp x.yaml .atreides/config.yaml`, Deny, cw},
		{`cd .atreides && echo x > config.yaml`, Deny, cw},
		{`cd src && echo x > ../.atreides/config.yaml`, Deny, cw},
		{`echo x > src/../.atreides/config.yaml`, Deny, cw},
		{`echo x > /home/user/proj/.atreides/config.yaml`, Deny, cw},
		{`f=config.yaml; echo x > .atreides/$f`, Deny, cw},
		{`echo x > .atreides/$(date +%s)`, Deny, cw},
		{`cd "$SOMEWHERE" && echo x > .atreides/config.yaml`, Deny, cw},
		{`bash -c "echo 'guard: {enabled: false}' > .atreides/config.yaml"`, Deny, cw},
		{`sh -c 'cp /tmp/c .atreides/config.yaml'`, Deny, cw},
		{`timeout 5 tee .atreides/config.yaml < /dev/null`, Deny, cw},
		{`echo x > ~/.config/atreides/config.yaml`, Deny, cw},
		{`echo x > "$HOME/.config/atreides/config.yaml"`, Deny, cw},
		{`echo x > "${XDG_CONFIG_HOME:-$HOME/.config}/atreides/config.yaml"`, Deny, cw},
		{`cp evil.yaml ~/.config/atreides/`, Deny, cw},
		{`echo x > ../.atreides/config.yaml`, Deny, cw}, // an ancestor's: project.Root may find it
		// The installed binary and atreides-mcp beside it.
		{`cp /tmp/fake ~/go/bin/atreides`, Deny, bw},
		{`printf '#!/bin/sh\nexit 0\n' > ~/go/bin/atreides`, Deny, bw},
		{`ln -sf /bin/true ~/go/bin/atreides`, Deny, bw},
		{`install -m 755 /bin/true /home/user/go/bin/atreides-mcp`, Deny, bw},
		{`dd if=/bin/true of=/home/user/go/bin/atreides`, Deny, bw},
		{`mv ./atreides-new ~/go/bin/atreides`, Deny, bw},
		// Harmless neighbours: reads, other files, other projects.
		{`cat .atreides/config.yaml`, Allow, ""},
		{`grep -n enabled .atreides/config.yaml ~/.config/atreides/config.yaml`, Allow, ""},
		{`tail -n 20 .atreides/log`, Allow, ""},
		{`jq . .atreides/trace.jsonl | head`, Allow, ""},
		{`cp .atreides/config.yaml /tmp/config-backup.yaml`, Allow, ""},
		{`diff .atreides/config.yaml /tmp/c.yaml > /tmp/diff.txt`, Allow, ""},
		{`ls -la .atreides`, Allow, ""},
		{`mkdir -p .atreides`, Allow, ""},
		{`touch .atreides/config.yaml`, Allow, ""},
		{`echo x > .atreides-notes.md`, Allow, ""},
		{`echo x > docs/atreides/config.yaml`, Allow, ""},
		{`echo x > testdata/fixture/.atreides/config.yaml`, Allow, ""},
		{`echo x > /tmp/other-project/.atreides/config.yaml`, Allow, ""},
		{`echo x > ~/.config/other/config.yaml`, Allow, ""},
		{`cp /tmp/fake ~/go/bin/other-tool`, Allow, ""},
		{`~/go/bin/atreides version`, Allow, ""},
		{`cp ~/go/bin/atreides /tmp/atreides-copy`, Allow, ""},
	}, nil)
}

// ownWritesViaEffects are deletions, moves and mode changes of atreides's
// files: the write collector (effects.go) hands every path a command
// deletes, moves or chmods to ownWrite; selfguard.go has no per-program
// handling of rm, mv or chmod.
var ownWritesViaEffects = []selfCase{
	{`rm .atreides/config.yaml`, Deny, "self.config-write"},
	{`rm -f .atreides/trace.jsonl`, Deny, "self.config-write"},
	{`rm -rf .atreides`, Deny, "self.config-write"},
	{`rm -rf ./.atreides/`, Deny, "self.config-write"},
	{`unlink .atreides/intents.yaml`, Deny, "self.config-write"},
	{`shred -u .atreides/trace.jsonl`, Deny, "self.config-write"},
	{`mv .atreides/config.yaml /tmp/`, Deny, "self.config-write"},
	{`mv .atreides .atreides.off`, Deny, "self.config-write"},
	{`chmod 000 .atreides/config.yaml`, Deny, "self.config-write"},
	{`find .atreides -name '*.jsonl' -delete`, Deny, "self.config-write"},
	{`rm -rf ~/.config/atreides`, Deny, "self.config-write"},
	{`ionice -c3 rm .atreides/config.yaml`, Deny, "self.config-write"},
	{`rm ~/go/bin/atreides`, Deny, "self.binary-write"},
	{`chmod -x ~/go/bin/atreides`, Deny, "self.binary-write"},
	{`chmod 000 /home/user/go/bin/atreides`, Deny, "self.binary-write"},
	{`mv ~/go/bin/atreides ~/go/bin/atreides.off`, Deny, "self.binary-write"},
	{`rm .claude/settings.json`, Ask, "self.host-settings"},
	{`rm -rf .claude`, Ask, "self.host-settings"},
	{`mv .claude/settings.json /tmp/`, Ask, "self.host-settings"},
	{`rm .opencode/plugin/atreides.ts`, Ask, "self.host-settings"},
	// Neighbours that must stay allowed.
	{`rm .atreides-notes.md`, Allow, ""},
	{`rm ~/other-project/.atreides/log`, Allow, ""}, // another project's state
	{`chmod +x ./atreides-dev.sh`, Allow, ""},
	{`rm .claude/commands/old.md`, Allow, ""},
}

// TestOwnWritesViaEffects: see ownWritesViaEffects.
func TestOwnWritesViaEffects(t *testing.T) {
	runSelfCases(t, DefaultPolicy(), ownWritesViaEffects, nil)
}

// TestSelfHostSettings: the hosts' settings files that register the hooks
// ask; their neighbours do not.
func TestSelfHostSettings(t *testing.T) {
	const hs = "self.host-settings"
	runSelfCases(t, DefaultPolicy(), []selfCase{
		{`echo '{}' > .claude/settings.json`, Ask, hs},
		{`printf '{"disableAllHooks": true}' > .claude/settings.local.json`, Ask, hs},
		{`sed -i '/atreides/d' ~/.claude/settings.json`, Ask, hs},
		{`jq 'del(.hooks)' .claude/settings.json > s.tmp && mv s.tmp .claude/settings.json`, Ask, hs},
		{`cp /tmp/empty.json .gemini/settings.json`, Ask, hs},
		{`echo '{}' > ~/.gemini/settings.json`, Ask, hs},
		{`echo '{}' > ~/.codex/hooks.json`, Ask, hs},
		{`echo '{}' > /srv/codex/hooks.json`, Ask, hs}, // $CODEX_HOME
		{`printf '[features]\nhooks = false\n' >> ~/.codex/config.toml`, Ask, hs},
		{`echo '{}' > .codex/hooks.json`, Ask, hs},
		{`echo 'export default {}' > .opencode/plugin/atreides.ts`, Ask, hs},
		{`cp /tmp/x.js .opencode/plugins/override.js`, Ask, hs},
		{`echo '{"plugin": []}' > opencode.json`, Ask, hs},
		{`echo '{}' > .opencode/opencode.jsonc`, Ask, hs},
		{`echo '{}' > ~/.config/opencode/opencode.json`, Ask, hs},
		{`echo x > ~/.config/opencode/plugin/a.ts`, Ask, hs},
		{`echo '{}' > .mcp.json`, Ask, hs},
		{`cp /tmp/settings.json .claude/`, Ask, hs}, // into the directory: lands on settings.json
		{`bash -c "echo '{}' > .claude/settings.json"`, Ask, hs},
		// Neighbours.
		{`cat .claude/settings.json`, Allow, ""},
		{`jq .hooks .claude/settings.json`, Allow, ""},
		{`echo x > .claude/commands/review.md`, Allow, ""},
		{`mkdir -p .claude/agents && echo x > .claude/agents/a.md`, Allow, ""},
		{`echo x > .gemini/GEMINI.md`, Allow, ""},
		{`echo x > .opencode/agent/reviewer.md`, Allow, ""},
		{`echo '{}' > settings.json`, Allow, ""},
		{`echo '{}' > src/.claude/settings.json.example`, Allow, ""},
		{`echo '{}' > package.json`, Allow, ""},
		{`mkdir -p .claude`, Allow, ""},
		{`cp README.md .`, Allow, ""},
	}, nil)
}

// TestOwnPathsOnFirstUse: a request whose host lists are filled by Hosts,
// and whose binary SelfOf finds, judges as one that carries them. The
// lists are asked for only for a command that writes (the hook's hosts
// list dozens of paths per host), the binary only for a command that
// writes or runs a program the guard does not model (finding it is a
// system call).
func TestOwnPathsOnFirstUse(t *testing.T) {
	for _, tc := range []struct {
		cmd           string
		want          Verdict
		rule          string
		listed, found bool
	}{
		{`echo '{}' > .claude/settings.json`, Ask, "self.host-settings", true, true},
		{`echo '{}' > ~/.codex/hooks.json`, Ask, "self.host-settings", true, true},
		{`echo x > .opencode/plugins/a.ts`, Ask, "self.host-settings", true, true},
		{`cp /tmp/x ~/go/bin/atreides`, Deny, "self.binary-write", true, true},
		{`echo x > notes.md`, Allow, "", true, true},
		{`go test ./... -run 'TestHook' -count=1 2>&1 | tail -50`, Allow, "", false, true},
		{`git status && cat README.md | grep -n x | head -5`, Allow, "", false, false},
	} {
		hosts, binary := 0, 0
		req := selfReq("shell", tc.cmd)
		req.HostSettings, req.Self = nil, ""
		req.Hosts = func(r *Request) {
			hosts++
			r.HostSettings = testHostSettings
		}
		req.SelfOf = func() string {
			binary++
			return selfBin
		}
		got := DefaultPolicy().Check(req)
		if got.Verdict != tc.want || got.Rule != tc.rule {
			t.Errorf("%s: got %s %s (%s), want %s %s", tc.cmd, got.Verdict, got.Rule, got.Reason, tc.want, tc.rule)
		}
		if listed := hosts > 0; listed != tc.listed || hosts > 1 {
			t.Errorf("%s: the hosts were listed %d times, want listed: %v", tc.cmd, hosts, tc.listed)
		}
		if found := binary > 0; found != tc.found || binary > 1 {
			t.Errorf("%s: the binary was looked for %d times, want looked for: %v", tc.cmd, binary, tc.found)
		}
	}
}

// TestSelfHostSettingsAnyDir: a host's settings file is protected
// whatever directory it lies in, also where a program's code names it
// (the texts searched for are derived from the files handed to the
// guard, not from a list of the hosts known today): a made-up host with
// its file in a made-up directory of the project, another outside the
// project and the home.
func TestSelfHostSettingsAnyDir(t *testing.T) {
	madeUp := func(r *Request) {
		r.HostSettings = []string{testProject + "/.newhost/conf.yml", "/opt/elsewhere/hostcfg.toml"}
	}
	runSelfCases(t, DefaultPolicy(), []selfCase{
		{`echo x > .newhost/conf.yml`, Ask, "self.host-settings"},
		{`node -e 'require("fs").writeFileSync(".newhost/conf.yml", "{}")'`, Ask, "self.unknown-write"},
		{`node -e 'require("fs").writeFileSync("/opt/elsewhere/hostcfg.toml", "")'`, Ask, ""},
		{`python3 -c "import shutil; shutil.rmtree('.newhost')"`, Ask, ""},
		// Neighbours.
		{`node -e 'require("fs").writeFileSync(".newhost/notes.md", "{}")'`, Allow, ""},
		// Not this request's host: not self-protection's, but a coding
		// agent's permission settings all the same (effect_review.go).
		{`node -e 'require("fs").writeFileSync(".claude/settings.local.json", "{}")'`, Ask, "safety.disable"},
	}, madeUp)
}

// TestSelfFileTools: the Write/Edit tools obey the same paths; Read does not.
func TestSelfFileTools(t *testing.T) {
	cases := []struct {
		tool, path string
		want       Verdict
		rule       string
	}{
		{"write", ".atreides/config.yaml", Deny, "self.config-write"},
		{"edit", ".atreides/intents.yaml", Deny, "self.config-write"},
		{"write", "/home/user/proj/.atreides/trace.jsonl", Deny, "self.config-write"},
		{"write", "~/.config/atreides/config.yaml", Deny, "self.config-write"},
		{"write", "$HOME/.config/atreides/config.yaml", Deny, "self.config-write"},
		{"write", "~/go/bin/atreides", Deny, "self.binary-write"},
		{"write", ".claude/settings.json", Ask, "self.host-settings"},
		{"edit", "~/.claude/settings.json", Ask, "self.host-settings"},
		{"write", ".gemini/settings.json", Ask, "self.host-settings"},
		{"write", ".opencode/plugin/x.ts", Ask, "self.host-settings"},
		{"edit", ".mcp.json", Ask, "self.host-settings"},
		{"read", ".atreides/config.yaml", Allow, ""},
		{"read", ".claude/settings.json", Allow, ""},
		{"read", "~/go/bin/atreides", Allow, ""},
		{"search", ".atreides", Allow, ""},
		{"write", ".claude/commands/x.md", Allow, ""},
		{"write", "README.md", Allow, ""},
		{"write", ".atreides-notes.md", Allow, ""},
		// A task's plans and reports are the agent's work; the files
		// generated beside them, and look-alikes, are not.
		{"write", ".atreides/specs/1_add-a-health-endpoint/plans/implementation-001.md", Allow, ""},
		{"edit", "/home/user/proj/.atreides/specs/12_fix-it/reports/research-002.md", Allow, ""},
		{"write", ".atreides/specs/TODO.md", Deny, "self.config-write"},
		{"write", ".atreides/specs/state.json", Deny, "self.config-write"},
		{"write", ".atreides/specs/1_x/plans/implementation-001.json", Deny, "self.config-write"},
		{"write", ".atreides/specs/1_x/plans/.md", Deny, "self.config-write"},
		{"write", ".atreides/specs/x_y/plans/a.md", Deny, "self.config-write"},
		{"write", ".atreides/specs/1_/plans/a.md", Deny, "self.config-write"},
		{"write", ".atreides/specs/1_x/notes/a.md", Deny, "self.config-write"},
		{"write", ".atreides/specs/1_x/plans/../../../config.yaml", Deny, "self.config-write"},
		// The context files /at-meta writes are the agent's too (loaded
		// as facts, never as configuration); nothing else there is.
		{"write", ".atreides/context/core/architecture.md", Allow, ""},
		{"edit", "/home/user/proj/.atreides/context/agents/build/go.md", Allow, ""},
		{"write", ".atreides/context/core/config.yaml", Deny, "self.config-write"},
		{"write", ".atreides/context/../config.yaml", Deny, "self.config-write"},
		{"write", ".atreides/context.md", Deny, "self.config-write"},
	}
	for _, tc := range cases {
		r := DefaultPolicy().Check(selfReq(tc.tool, tc.path))
		if r.Verdict != tc.want || r.Rule != tc.rule {
			t.Errorf("%s %s = %s %s, want %s %s", tc.tool, tc.path, r.Verdict, r.Rule, tc.want, tc.rule)
		}
	}
	// XDG_CONFIG_HOME moves the user's configuration directory.
	req := selfReq("write", "/xdg/atreides/config.yaml")
	req.ConfigDir = "/xdg/atreides"
	if r := DefaultPolicy().Check(req); r.Verdict != Deny || r.Rule != "self.config-write" {
		t.Errorf("write in ConfigDir: %s %s", r.Verdict, r.Rule)
	}
}

// TestSelfCommands: the agent's own atreides verbs run, the ones that
// change policy are denied, through every wrapper.
func TestSelfCommands(t *testing.T) {
	const sc = "self.command"
	runSelfCases(t, DefaultPolicy(), []selfCase{
		{`atreides uninstall claude`, Deny, sc},
		{`atreides install claude --force`, Deny, sc},
		{`atreides install opencode --user`, Deny, sc},
		{`atreides intent add --id all --title all --scope "**"`, Deny, sc},
		{`atreides intent add --id all --title all --scope '**' && atreides intent select all --session s1`, Deny, sc},
		{`atreides intent close docs`, Deny, sc},
		{`atreides config set guard.enabled false`, Deny, sc},
		{`atreides hook claude < /tmp/forged-event.json`, Deny, sc},
		{`atreides serve --stdio`, Deny, sc},
		{`atreides mcp`, Deny, sc},
		{`atreides frobnicate`, Deny, sc},
		{`atreides $verb claude`, Deny, sc},
		{`atreides intent $op docs`, Deny, sc},
		{`sudo atreides uninstall claude`, Deny, sc},
		{`bash -c 'atreides uninstall claude'`, Deny, sc},
		{`env X=1 atreides install --force`, Deny, sc},
		{`/usr/local/bin/atreides uninstall`, Deny, sc},
		{`~/go/bin/atreides uninstall gemini`, Deny, sc},
		{`timeout -s KILL 5 atreides uninstall claude`, Deny, sc},
		{`nohup atreides uninstall codex &`, Deny, sc},
		{`ionice -c3 nice -n 19 atreides uninstall claude`, Deny, sc},
		{`echo uninstall | xargs atreides`, Deny, ""},
		{`eval "atreides uninstall claude"`, Deny, sc},
		{`sh -c "$(printf 'atreides uninstall claude')"`, Deny, sc},
		{`mytool atreides uninstall claude`, Deny, sc},
		{`$(which atreides) uninstall claude`, Ask, ""},
		{`atreides plan approve 1`, Deny, "self.plan-approve"},
		{`atreides plan commit 1`, Allow, ""},
		{`atreides task clean`, Allow, ""},
		{`atreides task reviewed 3 4`, Allow, ""},
		{`atreides plan --json approve 1`, Deny, sc},
		{`atreides task frobnicate 1`, Deny, sc},
		// The agent's own verbs and read-only views.
		{`atreides`, Allow, ""},
		{`atreides todo add "write the tests"`, Allow, ""},
		{`atreides todo done 1`, Allow, ""},
		{`atreides anchor add "keep the API stable"`, Allow, ""},
		{`atreides status --json`, Allow, ""},
		{`atreides check -- 'rm -rf /'`, Allow, ""},
		{`atreides intent list`, Allow, ""},
		{`atreides intent show docs`, Allow, ""},
		{`atreides intent select docs --session s1`, Allow, ""},
		{`atreides intent release --session s1`, Allow, ""},
		{`atreides intent requests`, Allow, ""},
		{`atreides intent --help`, Allow, ""},
		{`atreides trace verify`, Allow, ""},
		{`atreides trace show --json`, Allow, ""},
		{`atreides config show`, Allow, ""},
		{`atreides config validate`, Allow, ""},
		// The task system the slash commands drive.
		{`atreides task add 'add a health endpoint' --priority high`, Allow, ""},
		{`atreides task show 1 --json`, Allow, ""},
		{`atreides task start 1`, Allow, ""},
		{`atreides task done 1`, Allow, ""},
		{`atreides task block 1 --reason "waits for the API"`, Allow, ""},
		{`atreides task claim 1`, Allow, ""},
		{`atreides task ready`, Allow, ""},
		{`atreides task sync`, Allow, ""},
		{`atreides plan new 1`, Allow, ""},
		{`atreides plan next 1`, Allow, ""},
		{`atreides plan show 1`, Allow, ""},
		{`atreides plan phase-start 1`, Allow, ""},
		{`atreides plan phase-done 1`, Allow, ""},
		{`atreides plan research 1`, Allow, ""},
		{`atreides errors --json`, Allow, ""},
		{`atreides errors plan 3`, Allow, ""},
		{`atreides doctor`, Allow, ""},
		{`atreides version`, Allow, ""},
		{`atreides --version`, Allow, ""},
		{`atreides help uninstall`, Allow, ""},
		{`sudo atreides status`, Allow, ""},
		{`echo atreides uninstall claude`, Allow, ""},
		{`grep -rn "atreides uninstall" docs/`, Allow, ""},
		{`man atreides`, Allow, ""},
	}, nil)

	// The binary under another name: the basename of Request.Self, or a
	// path that resolves to it.
	renamed := func(r *Request) {
		r.Self = "/opt/guard/bin/agentguard"
		r.Resolve = func(p string) (string, error) {
			if p == testProject+"/bin/g" {
				return "/opt/guard/bin/agentguard", nil
			}
			return p, nil
		}
	}
	renamedCases := []selfCase{
		{`agentguard uninstall claude`, Deny, sc},
		{`sudo agentguard intent add --id x --title x --scope '**'`, Deny, sc},
		{`./bin/g uninstall claude`, Deny, sc},
		{`agentguard todo list`, Allow, ""},
		{`./bin/g status`, Allow, ""},
		{`./bin/other uninstall`, Allow, ""},
	}
	runSelfCases(t, DefaultPolicy(), renamedCases, renamed)
	// The same binary found on first use (policy.NewRequest's SelfOf).
	runSelfCases(t, DefaultPolicy(), renamedCases, func(r *Request) {
		renamed(r)
		self := r.Self
		r.Self, r.SelfOf = "", func() string { return self }
	})

	r := DefaultPolicy().Check(selfReq("shell", "atreides uninstall claude"))
	for _, want := range []string{"ask the user", "atreides todo", "intent list|show|select", "plan show|next|new"} {
		if !strings.Contains(r.Reason, want) {
			t.Errorf("reason %q does not say %q", r.Reason, want)
		}
	}
}

// TestSelfNotOverridable: a custom allow rule does not open atreides's own
// files; the user can still turn a self rule off by id.
func TestSelfNotOverridable(t *testing.T) {
	p := mustPolicy(Options{Custom: []CustomRule{
		{ID: "my.sed", Verdict: "allow", Tool: "shell", Command: "sed -i"},
		{ID: "my.writes", Verdict: "allow", Tool: "write", Path: "**"},
		{ID: "my.atreides", Verdict: "allow", Tool: "shell", Command: "atreides uninstall"},
	}})
	for _, req := range []Request{
		selfReq("shell", `sed -i s/true/false/ .atreides/config.yaml`),
		selfReq("write", ".atreides/config.yaml"),
		selfReq("shell", `atreides uninstall claude`),
	} {
		if r := p.Check(req); r.Verdict != Deny || !strings.HasPrefix(r.Rule, "self.") {
			t.Errorf("%s%s with a custom allow: %s %s", req.Command, req.Path, r.Verdict, r.Rule)
		}
	}
	off := mustPolicy(Options{Disabled: []string{"self.command"}})
	if r := off.Check(selfReq("shell", "atreides uninstall claude")); r.Verdict != Allow {
		t.Errorf("self.command disabled by the user: %s %s", r.Verdict, r.Rule)
	}
}

// TestSelfSymlinks: atreides's directories and the hosts' settings reached
// through symlinks (a dotfiles checkout, a state directory elsewhere).
func TestSelfSymlinks(t *testing.T) {
	links := map[string]string{
		testProject + "/.atreides":             "/srv/state",
		testHome + "/.claude/settings.json":    testHome + "/dotfiles/claude.json",
		testHome + "/.config/atreides":         testHome + "/dotfiles/atreides",
		testProject + "/.atreides/config.yaml": "/srv/state/config.yaml",
	}
	resolve := func(r *Request) {
		r.Resolve = func(p string) (string, error) {
			if q, ok := links[p]; ok {
				return q, nil
			}
			return p, nil
		}
	}
	runSelfCases(t, DefaultPolicy(), []selfCase{
		{`echo x > /srv/state/config.yaml`, Deny, "self.config-write"},
		{`echo x > .atreides/config.yaml`, Deny, "self.config-write"},
		{`echo x > ~/dotfiles/atreides/config.yaml`, Deny, "self.config-write"},
		{`echo '{}' > ~/dotfiles/claude.json`, Ask, "self.host-settings"},
		{`echo x > /srv/other/config.yaml`, Allow, ""},
		{`echo x > ~/dotfiles/vimrc`, Allow, ""},
	}, resolve)
}

// TestSelfNoPaths: without Self, ConfigDir and HostSettings (an embedder
// that does not fill them) the project's .atreides and the default user
// configuration directory are still protected.
func TestSelfNoPaths(t *testing.T) {
	for cmd, want := range map[string]Verdict{
		`echo x > .atreides/config.yaml`:            Deny,
		`echo x > ~/.config/atreides/config.yaml`:   Deny,
		`atreides uninstall claude`:                 Deny,
		`echo '{}' > .claude/settings.json`:         Ask, // an agent's settings (effect_review.go), not self-protection's
		`cat .atreides/config.yaml > /tmp/copy.yml`: Allow,
	} {
		if r := check(t, DefaultPolicy(), cmd); r.Verdict != want {
			t.Errorf("%s = %s %s, want %s", cmd, r.Verdict, r.Rule, want)
		}
	}
}

// TestSelfCaseInsensitive: where the file system ignores case (macOS and
// Windows by default) a path equal to a protected one but for case is
// that path; where it does not, it is another file.
func TestSelfCaseInsensitive(t *testing.T) {
	cases := []selfCase{
		{`echo x > .Atreides/CONFIG.yaml`, Deny, "self.config-write"},
		{`rm -rf .ATREIDES`, Deny, "self.config-write"},
		{`echo '{}' > .Claude/Settings.json`, Ask, "self.host-settings"},
		{`cp /tmp/fake ~/go/bin/Atreides`, Deny, "self.binary-write"},
		{`cp /tmp/fake ~/go/bin/ATREIDES-MCP.exe`, Deny, "self.binary-write"},
		{`echo x > ~/.Config/Atreides/config.yaml`, Deny, "self.config-write"},
		{`echo x > .Atreides-notes.md`, Allow, ""},
		{`echo x > Docs/Atreides.md`, Allow, ""},
	}
	saved := foldCase
	defer func() { foldCase = saved }()
	foldCase = true
	runSelfCases(t, DefaultPolicy(), cases, nil)
	foldCase = false
	runSelfCases(t, DefaultPolicy(), []selfCase{
		{`echo x > .Atreides/CONFIG.yaml`, Allow, ""},
		{`echo '{}' > .Claude/Settings.json`, Allow, ""},
		{`echo x > .atreides/config.yaml`, Deny, "self.config-write"},
	}, nil)
}

// TestMCPBinaryBesideSelf: the MCP server beside the installed binary is
// protected as the binary is, through a link to wherever it really lies,
// and only it among the programs that are not beside atreides.
func TestMCPBinaryBesideSelf(t *testing.T) {
	const bw = "self.binary-write"
	// /opt/at/bin/atreides-mcp is a link into a release directory that
	// is not on PATH; every other path resolves to itself.
	links := map[string]string{"/opt/at/bin/" + MCPBinary: "/srv/releases/7/" + MCPBinary}
	resolve := func(p string) (string, error) {
		if r, ok := links[p]; ok {
			return r, nil
		}
		return p, nil
	}
	mod := func(r *Request) { r.Self, r.Resolve = "/opt/at/bin/atreides", resolve }
	runSelfCases(t, DefaultPolicy(), []selfCase{
		{`cp /bin/true /opt/at/bin/` + MCPBinary, Deny, bw},
		{`cp /bin/true /srv/releases/7/` + MCPBinary, Deny, bw},
		{`ln -sf /bin/true /srv/releases/7/` + MCPBinary, Deny, bw},
		{`rm /srv/releases/7/` + MCPBinary, Deny, bw},
		{`cp /bin/true /srv/releases/7/atreides-ui`, Allow, ""},
		{`cp /bin/true /srv/releases/7/notes.txt`, Allow, ""},
		{`cat /srv/releases/7/` + MCPBinary, Allow, ""},
	}, mod)
}
