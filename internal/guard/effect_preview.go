package guard

import (
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
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
	// apply to; other subcommands have no preview flag, or pass their
	// arguments on to a program of their own (`npm run deploy --dry-run`
	// runs deploy).
	subs string
	// verbs are subcommands that only preview whatever their flags
	// (terraform plan, pulumi preview, kubectl diff). via are the group
	// words that may come before one (terraform state show, argocd app
	// diff, az deployment group what-if); a command of via words alone
	// prints its group's state or help. Only the leading positionals are
	// read, so a resource named like a verb (`terraform apply plan`, a
	// saved plan file) is not one.
	verbs, via string
	// bundles: the tool's short options bundle (rsync -avn), so a short
	// preview flag counts inside a bundle, up to the first of valued's
	// letters, which take the rest of the word as their value (make
	// -Cnginx). Otherwise a short flag counts only as a word of its own:
	// gradle's -Pmaven is a property, not -m.
	bundles bool
	valued  string
}

// previewOff are flag values that turn a preview flag off.
const previewOff = "none|false|0|no|off"

// previewOf is the preview spec of the tool name: its first registration
// in previewRegs, found through ruleindex_gen.go's previewIndex (which
// TestRuleIndexGenerated keeps equal to the registrations) rather than by
// scanning every registration's names.
func previewOf(name string) (previewSpec, bool) {
	i, ok := slices.BinarySearchFunc(previewIndex[:], name, func(e namedPreview, n string) int { return strings.Compare(e.name, n) })
	if !ok {
		return previewSpec{}, false
	}
	return previewRegs[previewIndex[i].reg].spec, true
}

// namedPreview is a tool name and its registration in previewRegs.
type namedPreview struct {
	name string
	reg  int
}

// previewReg registers the preview spec of the tools named by names.
type previewReg struct {
	names string
	spec  previewSpec
}

// previewRegs are the preview specs, plain data: each entry is a flag
// or verb the tool documents as a preview, nothing a tool merely accepts.
var previewRegs = []previewReg{
	// Atlas plans a schema or migration change and prints it.
	{"atlas", previewSpec{flags: "--dry-run", subs: "schema|migrate"}},
	// Kubernetes and its deployers.
	{"kubectl|oc", previewSpec{flags: "--dry-run|--server-dry-run", verbs: "diff|get|describe|explain|top|logs|api-resources|api-versions|version|kustomize|events|wait|cluster-info|can-i|whoami|status|history", via: "auth|rollout"}},
	{"helm", previewSpec{flags: "--dry-run", subs: "install|upgrade|uninstall|rollback|delete|del|un", verbs: "template|diff|lint|show|status|list|ls|history|get|search|verify|version|env", via: "repo|plugin|dependency|dep"}},
	{"helmfile", previewSpec{verbs: "diff|template|lint|list|status|build"}},
	{"kubeadm", previewSpec{flags: "--dry-run"}},
	{"eksctl", previewSpec{flags: "--dry-run", verbs: "get|info|version"}},
	{"argocd", previewSpec{flags: "--dry-run", verbs: "diff|get|list|manifests|history|resources|logs|version", via: "app|appset|proj|cluster|repo|account|context"}},
	{"flux", previewSpec{verbs: "diff|get|logs|check|tree|stats|events|trace|version"}},
	{"kind", previewSpec{verbs: "get|version"}},
	{"k3d", previewSpec{verbs: "list|get|version", via: "cluster|node|registry"}},
	{"skaffold", previewSpec{verbs: "render|diagnose|version"}},
	{"istioctl", previewSpec{flags: "--dry-run", verbs: "analyze|proxy-status|ps|version"}},
	{"nomad", previewSpec{verbs: "plan|status|inspect|validate|history", via: "job|deployment"}},

	// Infrastructure as code. terraform init, get and test are not
	// previews: init and get fetch code, test creates real resources.
	{"terraform|tofu|terragrunt", previewSpec{verbs: "plan|validate|show|fmt|graph|providers|version|output|console|list|hclfmt|render-json|validate-inputs", via: "state|workspace|run-all|run"}},
	{"cdktf", previewSpec{verbs: "diff|synth|list"}},
	{"pulumi", previewSpec{flags: "--preview-only", subs: "destroy|refresh|import", verbs: "preview|about|whoami|version|logs|ls|output|history|graph|get", via: "stack|config"}},
	{"cdk", previewSpec{flags: "--no-execute", subs: "deploy", verbs: "diff|synth|synthesize|ls|list|doctor"}},
	{"sam", previewSpec{flags: "--no-execute-changeset", verbs: "validate|build|local"}},
	{"serverless|sls", previewSpec{verbs: "package|print|info"}},
	{"az", previewSpec{flags: "--what-if", verbs: "what-if", via: "deployment|group|sub|mg|tenant|stack"}},
	{"ansible|ansible-playbook", previewSpec{flags: "--check|-C|--syntax-check|--list-hosts|--list-tasks|--list-tags"}},
	{"puppet", previewSpec{flags: "--noop"}},
	{"chef-client", previewSpec{flags: "--why-run|-W"}},

	// Clouds and storage. The AWS CLI refuses an option its command does
	// not have, so --dry-run on any aws command previews or fails.
	// A CloudFormation change set only computes what a deploy would do:
	// nothing changes until execute-change-set runs it. gcloud's
	// Deployment Manager previews with --preview the same way.
	{"aws", previewSpec{flags: "--dry-run|--dryrun|--no-execute-changeset", verbs: "create-change-set|describe-change-set|validate-template|estimate-template-cost", via: "cloudformation"}},
	{"gcloud", previewSpec{flags: "--dry-run|--preview"}},
	{"gsutil", previewSpec{flags: "-n", subs: "rsync", bundles: true, valued: "ajxy"}},
	{"azcopy", previewSpec{flags: "--dry-run"}},
	{"s3cmd", previewSpec{flags: "--dry-run|-n"}},
	{"mc", previewSpec{flags: "--dry-run", subs: "rm|mirror"}},
	{"rsync", previewSpec{flags: "-n|--dry-run|--list-only", bundles: true, valued: "eBfTM@"}},
	{"rclone", previewSpec{flags: "-n|--dry-run"}},
	{"restic|borg", previewSpec{flags: "--dry-run|-n", subs: "forget|prune|delete|recreate|create"}},

	// Hosting and release tools.
	{"wrangler", previewSpec{flags: "--dry-run", subs: "deploy|publish"}},
	{"firebase", previewSpec{flags: "--dry-run", subs: "deploy"}},
	{"supabase", previewSpec{flags: "--dry-run", subs: "db"}},
	{"fastlane", previewSpec{flags: "--validate_only", subs: "supply"}},
	{"semantic-release|release-it", previewSpec{flags: "--dry-run|-d"}},
	{"standard-version", previewSpec{flags: "--dry-run"}},
	{"goreleaser", previewSpec{flags: "--snapshot", subs: "release"}},
	{"certbot", previewSpec{flags: "--dry-run"}},

	// Packages: only the subcommands that have the flag; run, exec and
	// the like pass it to the program they start.
	{"npm", previewSpec{flags: "--dry-run", subs: "install|i|in|add|ci|update|up|upgrade|dedupe|ddp|uninstall|remove|rm|r|un|unlink|prune|pack|publish|unpublish|link|ln|audit"}},
	{"pnpm", previewSpec{flags: "--dry-run", subs: "publish|pack"}},
	{"bun", previewSpec{flags: "--dry-run", subs: "install|i|add|publish"}},
	{"cargo", previewSpec{flags: "--dry-run|-n", subs: "publish|clean"}},
	{"poetry", previewSpec{flags: "--dry-run", subs: "install|add|remove|rm|update|publish|version"}},
	{"pip|pip3", previewSpec{flags: "--dry-run", subs: "install"}},
	{"uv", previewSpec{flags: "--dry-run", subs: "pip|sync|lock|version"}},
	{"conda|mamba|micromamba", previewSpec{flags: "--dry-run|-d", subs: "install|create|remove|uninstall|update|upgrade|clean"}},
	{"composer", previewSpec{flags: "--dry-run", subs: "install|i|update|u|upgrade|require|r|remove|rm|bump"}},
	{"brew", previewSpec{flags: "--dry-run|-n", subs: "cleanup|autoremove|upgrade|install"}},
	{"apt|apt-get", previewSpec{flags: "-s|--simulate|--dry-run|--just-print|--no-act|--recon", bundles: true, valued: "octa"}},
	{"dnf|yum", previewSpec{flags: "--assumeno"}},
	{"zypper", previewSpec{flags: "--dry-run|-D", subs: "install|in|remove|rm|update|up|dist-upgrade|dup|patch"}},

	// Builds and task runners.
	{"make|gmake", previewSpec{flags: "-n|--dry-run|--just-print|--recon", bundles: true, valued: "CfIjloOWE"}},
	{"rake", previewSpec{flags: "--dry-run|-n"}},
	{"gradle|gradlew", previewSpec{flags: "--dry-run|-m"}},

	// Databases: migrations that print their SQL, and their status.
	{"alembic", previewSpec{flags: "--sql", subs: "upgrade|downgrade", verbs: "current|history|heads|branches|show|check"}},
	{"liquibase", previewSpec{verbs: "update-sql|updatesql|status|validate|history|diff|rollback-sql|rollbacksql|future-rollback-sql|futurerollbacksql"}},
	// flyway is left out: it runs every command word it is given
	// (`flyway info clean`), so a leading preview verb proves nothing.
	{"dbt", previewSpec{verbs: "compile|ls|list|parse|debug|docs|show"}},

	// The home directory and the system.
	{"chezmoi", previewSpec{flags: "--dry-run|-n"}},
	{"stow", previewSpec{flags: "--no|-n|--simulate"}},
	{"ufw", previewSpec{flags: "--dry-run"}},
	{"git-lfs", previewSpec{flags: "--dry-run|-d", subs: "prune"}},
}

// preview reports whether c only previews: one of its tool's preview
// verbs leads it, or it has one of its tool's preview flags.
func (a effectJudge) preview(c *Cmd) bool {
	spec, ok := previewOf(c.Name)
	if !ok {
		return false
	}
	if spec.verbs != "" && previewVerb(c, spec) {
		return true
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
	return previewFlag(c, spec)
}

// previewVerb: c's leading positionals are via words, then a verb; or
// via words alone.
func previewVerb(c *Cmd, spec previewSpec) bool {
	ws := words(c, 4)
	for i, w := range ws {
		switch {
		case w == "":
			return false
		case oneOf(w, spec.verbs):
			return true
		case !oneOf(w, spec.via):
			return false
		case i == len(ws)-1:
			return true
		}
	}
	return false
}

// previewFlag: one of spec's flags is given, not with a value that
// turns it off. Flags are read as written (--dry-run=client, a bundled
// -nv for rsync) so a value option's argument is not mistaken for one.
func previewFlag(c *Cmd, spec previewSpec) bool {
	// The last word decides, as the tools' option parsers do:
	// `--dry-run=client --dry-run=none`, `-n --no-dry-run` and cdk's
	// `--no-execute --execute` really run. A word that is another
	// option's value (`--exclude -n`, `-f --dry-run=client`) is no flag.
	on := false
	vo := valueOptsOf(c.Name)
	for i, w := range c.Args {
		if w.Dyn {
			continue
		}
		if i > 0 && takesValue(c.Args[i-1], vo, spec) {
			continue
		}
		s := asciiDashes(w.Text)
		if s == "--" {
			break
		}
		name, val, has := strings.Cut(s, "=")
		switch {
		case strings.HasPrefix(name, "--no-") && oneOf("--"+name[5:], spec.flags):
			on = false
		case strings.HasPrefix(name, "--") && oneOf("--no-"+name[2:], spec.flags):
			// --execute after --no-execute
			on = has && oneOf(strings.ToLower(val), previewOff)
		case strings.HasPrefix(name, "--"):
			if oneOf(name, spec.flags) {
				on = !has || !oneOf(strings.ToLower(val), previewOff)
			}
		case has || len(name) < 2 || name[0] != '-':
		case oneOf(name, spec.flags):
			on = true
		case spec.bundles:
			on = on || shortInBundle(name[1:], spec)
		}
	}
	return on
}

// takesValue: w is an option that takes the next word as its value: one
// the tool's rules declare, or a short one of the preview spec's valued
// letters.
func takesValue(w shell.Word, vo optSets, spec previewSpec) bool {
	s := w.Text
	if w.Dyn || !strings.HasPrefix(s, "-") || strings.Contains(s, "=") {
		return false
	}
	if vo.has(s) {
		return true
	}
	return len(s) == 2 && spec.valued != "" && strings.ContainsRune(spec.valued, rune(s[1]))
}

// shortInBundle: a preview letter in the bundle b, before any letter
// that takes the rest as its value.
func shortInBundle(b string, spec previewSpec) bool {
	for j := 0; j < len(b); j++ {
		if oneOf("-"+b[j:j+1], spec.flags) {
			return true
		}
		if strings.IndexByte(spec.valued, b[j]) >= 0 {
			return false
		}
	}
	return false
}
