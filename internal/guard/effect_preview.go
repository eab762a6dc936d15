package guard

import (
	"strings"
)

// Dry runs: a command that only previews what it would do is judged as
// a read. Whether a flag previews is the tool's own business (`-n` is a
// dry run for rsync and make, "no verify" for git commit, a namespace
// for kubectl), so the table is per tool and per subcommand, and a
// preview flag the tool does not have counts for nothing: `rm -rf /
// --dry-run` is still rm.

// previewSpec says how one tool previews.
type previewSpec struct {
	// flags are the options that make a run a preview ("--dry-run|-n").
	// A flag written --flag=value previews unless the value is one of
	// off's ("--dry-run=none").
	flags string
	// subs, when set, are the subcommands (first positional) the flags
	// apply to; other subcommands have no preview flag.
	subs string
	// verbs are subcommands that only preview whatever their flags
	// (terraform plan, pulumi preview, kubectl diff), among the first
	// depth positionals (1 when zero).
	verbs string
	depth int
}

// previewOff are flag values that turn a preview flag off.
const previewOff = "none|false|0|no|off"

// previews are the preview flags of the tools the guard knows.
var previews = &lazy[map[string]previewSpec]{src: func() map[string]previewSpec {
	m := map[string]previewSpec{}
	for _, r := range previewRegs {
		for _, name := range strings.Split(r.names, "|") {
			m[name] = r.spec
		}
	}
	return m
}}

// previewReg registers the preview spec of the tools named by names.
type previewReg struct {
	names string
	spec  previewSpec
}

// previewRegs are the preview specs; files that add tools append to it
// in their init functions.
var previewRegs = []previewReg{
	{"kubectl|oc", previewSpec{flags: "--dry-run|--server-dry-run", verbs: "diff|get|describe|explain|top|logs|api-resources|api-versions|version|kustomize|auth|events|wait"}},
	{"helm", previewSpec{flags: "--dry-run", subs: "install|upgrade|uninstall|rollback|delete|del|un", verbs: "template|diff|lint|show|status|list|ls|history|get|search|verify|version|env"}},
	{"terraform|tofu|terragrunt", previewSpec{verbs: "plan|validate|show|fmt|graph|providers|version|output|console|init|get|test", depth: 2}},
	{"pulumi", previewSpec{flags: "--preview-only", subs: "up|update|destroy|refresh|import", verbs: "preview|about|whoami|version|logs|config", depth: 1}},
	{"aws", previewSpec{flags: "--dry-run|--dryrun|--no-execute-changeset"}},
	{"az", previewSpec{flags: "--what-if", verbs: "what-if", depth: 4}},
	{"ansible|ansible-playbook", previewSpec{flags: "--check|-C|--syntax-check|--list-hosts|--list-tasks"}},
	{"rsync", previewSpec{flags: "-n|--dry-run|--list-only"}},
	{"rclone", previewSpec{flags: "-n|--dry-run"}},
	{"make|gmake", previewSpec{flags: "-n|--dry-run|--just-print|--recon"}},
	{"apt|apt-get", previewSpec{flags: "-s|--simulate|--dry-run|--just-print|--no-act|--recon"}},
	{"npm|pnpm", previewSpec{flags: "--dry-run"}},
	{"cargo", previewSpec{flags: "--dry-run|-n", subs: "publish|clean|package"}},
	{"poetry", previewSpec{flags: "--dry-run"}},
	{"pip|pip3|uv", previewSpec{flags: "--dry-run"}},
	{"conda|mamba|micromamba", previewSpec{flags: "--dry-run|-d"}},
	{"brew", previewSpec{flags: "--dry-run|-n", subs: "cleanup|autoremove|upgrade|install|uninstall|remove|rm|bundle"}},
	{"restic|borg", previewSpec{flags: "--dry-run|-n", subs: "forget|prune|delete|recreate"}},
	{"wrangler", previewSpec{flags: "--dry-run"}},
	{"semantic-release", previewSpec{flags: "--dry-run|-d"}},
	{"chezmoi", previewSpec{flags: "--dry-run|-n"}},
	{"stow", previewSpec{flags: "--no|-n|--simulate"}},
	{"certbot", previewSpec{flags: "--dry-run"}},
	{"kubeadm|eksctl|argocd|flux|kind|k3d|skaffold", previewSpec{flags: "--dry-run", verbs: "diff|render|get|list"}},
	{"cdk", previewSpec{verbs: "diff|synth|synthesize|ls|list|doctor"}},
	{"sam", previewSpec{flags: "--no-execute-changeset", verbs: "validate|build|local"}},
	{"puppet", previewSpec{flags: "--noop"}},
	{"chef-client", previewSpec{flags: "--why-run|-W"}},
	{"rake", previewSpec{flags: "--dry-run|-n"}},
	{"gradle|gradlew", previewSpec{flags: "--dry-run|-m"}},
	{"ufw", previewSpec{flags: "--dry-run"}},
	{"git-lfs", previewSpec{flags: "--dry-run|-d", subs: "prune"}},
}

// preview reports whether c only previews: one of its tool's preview
// verbs leads it, or it has one of its tool's preview flags.
func (a *analyzer) preview(c *Cmd) bool {
	spec, ok := previews.get()[c.Name]
	if !ok {
		return false
	}
	if spec.verbs != "" {
		depth := spec.depth
		if depth == 0 {
			depth = 1
		}
		for _, w := range words(c, depth) {
			if w != "" && oneOf(w, spec.verbs) {
				return true
			}
			if w == "" {
				break
			}
		}
	}
	if spec.flags == "" {
		return false
	}
	if spec.subs != "" {
		sub := words(c, 1)
		if len(sub) == 0 || !oneOf(sub[0], spec.subs) {
			return false
		}
	}
	return previewFlag(c, spec.flags)
}

// previewFlag: one of flags is given, not with a value that turns it
// off. Flags are read as written (--dry-run=client, a bundled -nv for
// rsync) so a value option's argument is not mistaken for one.
func previewFlag(c *Cmd, flags string) bool {
	for _, w := range c.Args {
		if w.Dyn {
			continue
		}
		s := asciiDashes(w.Text)
		if s == "--" {
			return false
		}
		name, val, has := strings.Cut(s, "=")
		switch {
		case strings.HasPrefix(name, "--"):
			if oneOf(name, flags) && (!has || !oneOf(strings.ToLower(val), previewOff)) {
				return true
			}
		case len(name) > 1 && name[0] == '-' && !has:
			// Bundled short options (rsync -avn): each letter counts.
			for j := 1; j < len(name); j++ {
				if oneOf("-"+name[j:j+1], flags) {
					return true
				}
			}
		}
	}
	return false
}
