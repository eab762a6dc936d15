package guard

import (
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

// Publishing packages, images and releases. Publishing is often exactly
// what the user asked for (a release task), so it asks rather than
// denies; but it is public and cannot be taken back (registries keep
// versions, mirrors copy them at once), so it never runs silently. Dry
// runs and local builds are fine.

// publishCmd describes one publishing command: the tool, the subcommand
// words that publish (each "a|b" alternatives, matched in order), and the
// options that make it a dry run.
type publishCmd struct {
	names []string
	sub   []string
	dry   []string
}

var publishCmds = []publishCmd{
	{[]string{"npm", "pnpm", "bun"}, []string{"publish|unpublish|deprecate"}, []string{"--dry-run"}},
	{[]string{"npm", "pnpm"}, []string{"dist-tag", "add|rm|remove"}, nil},
	{[]string{"yarn"}, []string{"publish|unpublish"}, []string{"--dry-run"}},
	{[]string{"yarn"}, []string{"npm", "publish"}, []string{"--dry-run"}},
	{[]string{"lerna"}, []string{"publish"}, nil},
	{[]string{"changeset"}, []string{"publish"}, nil},
	{[]string{"cargo"}, []string{"publish|yank"}, []string{"--dry-run"}},
	{[]string{"twine"}, []string{"upload|register"}, nil},
	{[]string{"poetry"}, []string{"publish"}, []string{"--dry-run"}},
	{[]string{"uv"}, []string{"publish"}, []string{"--dry-run"}},
	{[]string{"flit", "hatch"}, []string{"publish"}, nil},
	{[]string{"pdm"}, []string{"publish"}, []string{"--dry-run"}},
	{[]string{"maturin"}, []string{"publish|upload"}, nil},
	{[]string{"gem"}, []string{"push|yank"}, nil},
	{[]string{"dotnet"}, []string{"nuget", "push|delete"}, nil},
	{[]string{"nuget"}, []string{"push|delete"}, nil},
	{[]string{"gh"}, []string{"release", "create|upload|delete|delete-asset"}, nil},
	{[]string{"glab"}, []string{"release", "create|upload|delete"}, nil},
	{[]string{"vsce", "ovsx"}, []string{"publish|unpublish"}, nil},
	{[]string{"pod"}, []string{"trunk", "push|delete|deprecate"}, nil},
	{[]string{"swift"}, []string{"package-registry", "publish"}, []string{"--dry-run"}},
	{[]string{"dart", "flutter"}, []string{"pub", "publish"}, []string{"--dry-run", "-n"}},
	{[]string{"deno"}, []string{"publish"}, []string{"--dry-run"}},
	{[]string{"jsr"}, []string{"publish"}, []string{"--dry-run"}},
	{[]string{"mix"}, []string{"hex.publish|hex.retire"}, []string{"--dry-run"}},
	{[]string{"rebar3"}, []string{"hex", "publish"}, nil},
	{[]string{"publish-module", "publish-script", "publish-psresource"}, nil, nil},
	{[]string{"cabal"}, []string{"upload"}, nil},
	{[]string{"stack"}, []string{"upload"}, nil},
	{[]string{"anaconda"}, []string{"upload"}, nil},
	{[]string{"snapcraft"}, []string{"upload|push|release"}, nil},
	{[]string{"lein"}, []string{"deploy"}, nil},
	// Shared data and model hubs and app-tester channels publish to
	// other people just as a package registry does.
	{[]string{"kaggle"}, []string{"datasets|d", "create|version"}, nil},
	{[]string{"kaggle"}, []string{"kernels|k", "push"}, nil},
	{[]string{"kaggle"}, []string{"competitions|c", "submit"}, nil},
	{[]string{"huggingface-cli", "hf"}, []string{"upload|upload-large-folder"}, nil},
	{[]string{"pod"}, []string{"repo", "push"}, nil},
	{[]string{"firebase"}, []string{"appdistribution:distribute"}, nil},
	{[]string{"datasette"}, []string{"publish"}, nil},
	{[]string{"quarto"}, []string{"publish"}, nil},
	{[]string{"jreleaser"}, []string{"release|full-release|publish|deploy|upload|announce"}, []string{"--dry-run"}},
	{[]string{"paket"}, []string{"push"}, nil},
	{[]string{"choco"}, []string{"push"}, nil},
	{[]string{"ansible-galaxy"}, []string{"collection|role", "publish|import"}, nil},
	{[]string{"pulumi"}, []string{"package", "publish"}, nil},
}

// imagePushCmds publish container images and charts to a registry.
var imagePushCmds = []publishCmd{
	{[]string{"docker", "podman", "nerdctl", "buildah"}, []string{"push"}, nil},
	{[]string{"docker", "podman", "nerdctl"}, []string{"image|manifest", "push"}, nil},
	{[]string{"docker"}, []string{"buildx", "imagetools", "create"}, []string{"--dry-run"}},
	{[]string{"crane", "gcrane"}, []string{"push|copy|cp|tag|delete|append|mutate|rebase|flatten"}, nil},
	{[]string{"oras"}, []string{"push|copy|cp|tag"}, nil},
	{[]string{"helm"}, []string{"push|cm-push"}, nil},
	{[]string{"crossplane", "up"}, []string{"xpkg", "push"}, nil},
}

// publishRules are registerPublish's rules, static data: loading the
// batch allocates none of them.
var publishRules = []*Rule{
	{ID: rulePublishPackage, Category: "publish", Verdict: Ask, Names: []string{"mvn", "mvnw", "gradle", "gradlew", "sbt"},
		When: buildToolPublishes, Reason: "publishing an artifact is visible to everyone and cannot be taken back; ask the user"},
	{ID: rulePublishImage, Category: "publish", Verdict: Ask, Names: []string{"docker", "podman", "nerdctl", "buildah", "depot"},
		When: builderPushes, Reason: "this build pushes the image to a registry; ask the user (build without --push, or with --load)"},
	{ID: rulePublishImage, Category: "publish", Verdict: Ask, Names: []string{"skopeo"},
		When: whenPublishImage, Reason: "this copies an image into (or deletes one from) a registry; ask the user"},
	{ID: rulePublishImage, Category: "publish", Verdict: Ask, Names: []string{"ko"},
		When: whenPublishImage2, Reason: "ko pushes the image it builds; ask the user (or build with --local / --push=false)"},
	{ID: rulePublishRelease, Category: "publish", Verdict: Ask, Names: []string{"goreleaser"},
		When: whenPublishRelease, Reason: "goreleaser publishes the release and its artifacts; ask the user (--snapshot builds locally)"},
	{ID: rulePublishRelease, Category: "publish", Verdict: Ask, Names: []string{"semantic-release"},
		NoFlag: []string{"--dry-run", "-d"}, Reason: "semantic-release tags and publishes a release; ask the user (--dry-run is fine)"},
}

func registerPublish() {
	register(publishRule(rulePublishPackage, publishCmds, "publishing is visible to everyone and cannot be taken back; ask the user (dry runs are fine)"))
	register(publishRule(rulePublishImage, imagePushCmds, "pushing an image publishes it; ask the user"))
	register(publishRules...)
	setValueOpts("gh", "-R", "--repo", "-t", "--title", "-n", "--notes", "-F", "--notes-file", "--target")
	setValueOpts("glab", "-R", "--repo", "-n", "--name", "-N", "--notes", "-F", "--notes-file", "--ref")
	setValueOpts("skopeo", "--dest", "--src", "--authfile", "--creds", "--src-creds", "--dest-creds", "--override-os", "--override-arch", "--format", "-f")
	setValueOpts("ko", "-t", "--tags", "--platform", "-B", "--image-label", "--image-refs", "-f", "--filename")
	setValueOpts("goreleaser", "-f", "--config", "--skip", "-p", "--parallelism", "--timeout", "--release-notes")
	setValueOpts("dotnet", "-k", "--api-key", "-s", "--source")
	setValueOpts("cargo", "-p", "--package", "--registry", "--index", "--token", "-j", "--jobs", "--target", "--features", "-F", "--manifest-path")
	setValueOpts("twine", "-r", "--repository", "--repository-url", "-u", "--username", "-p", "--password")
	setValueOpts("poetry", "-r", "--repository", "-u", "--username", "-p", "--password")
	setValueOpts("uv", "--index", "--default-index", "--index-url", "--extra-index-url", "-f", "--find-links", "--publish-url", "--token", "-t", "-u", "--username", "-p", "--password", "--python", "--directory", "--project", "-r", "--requirement")
}

// publishRule builds the rule for one table of publishing commands.
func publishRule(id ruleID, cmds []publishCmd, reason string) *Rule {
	byName := map[string][]publishCmd{}
	var names []string
	for _, pc := range cmds {
		for _, n := range pc.names {
			if byName[n] == nil {
				names = append(names, n)
			}
			byName[n] = append(byName[n], pc)
		}
	}
	return &Rule{ID: id, Category: "publish", Verdict: Ask, Names: names, Reason: reason,
		When: func(c *Cmd) bool {
			for _, pc := range byName[c.Name] {
				if subIs(c, pc.sub) && !(len(pc.dry) > 0 && previewFlag(c, previewSpec{flags: strings.Join(pc.dry, "|")})) {
					return true
				}
			}
			return false
		}}
}

// subIs: the leading positionals match sub (each "a|b").
func subIs(c *Cmd, sub []string) bool {
	for i, alt := range sub {
		if !oneOf(posLower(c, i), alt) {
			return false
		}
	}
	return true
}

// buildToolPublishes: maven's deploy phase or release plugin, gradle's
// publish* tasks (not publishToMavenLocal), maven's jib:build (it
// pushes), Firebase App Distribution
// uploads and jib (which pushes; jibDockerBuild and jibBuildTar stay
// local), sbt's publish and release tasks (a quoted sbt command is read
// by its first word: "release with-defaults").
func buildToolPublishes(c *Cmd) bool {
	for _, w := range c.Pos() {
		s := w.Text
		if w.Dyn {
			continue
		}
		switch c.Name {
		case "mvn", "mvnw":
			if oneOf(s, "deploy|release:perform|deploy:deploy-file|gpg:sign-and-deploy-file|jib:build|nexus-staging:release|nexus-staging:deploy|nexus-staging:rc-release|central-publishing:publish") {
				return true
			}
		case "sbt":
			if f := strings.Fields(s); len(f) > 0 && oneOf(f[0], "publish|publishSigned|sonatypeBundleRelease|sonatypeRelease|ci-release|release") {
				return true
			}
		default: // gradle
			task := s[strings.LastIndexByte(s, ':')+1:]
			if strings.HasPrefix(task, "publish") && !strings.HasSuffix(task, "ToMavenLocal") && task != "publishToMavenLocal" ||
				oneOf(task, "closeAndReleaseRepository|closeAndReleaseSonatypeStagingRepository|releaseRepository|uploadArchives|bintrayUpload|artifactoryPublish|jib") ||
				strings.HasPrefix(task, "appDistributionUpload") {
				return true
			}
		}
	}
	return false
}

// builderPushes: `docker build --push`, `docker buildx build|bake --push`,
// `--output type=registry` / `-o type=image,push=true`, `depot build
// --push`.
func builderPushes(c *Cmd) bool {
	p := c.Pos()
	i := 0
	if len(p) > 0 && !p[0].Dyn && p[0].Text == "buildx" {
		i = 1
	} else if len(p) > 1 && !p[0].Dyn && p[0].Text == "image" {
		i = 1
	}
	if i >= len(p) || p[i].Dyn || !oneOf(p[i].Text, "build|b|bake") {
		return false
	}
	if c.Has("--push") {
		return true
	}
	for k, w := range c.Args {
		v := ""
		switch {
		case oneOf(w.Text, "-o|--output") && k+1 < len(c.Args):
			v = c.Args[k+1].Text
		case strings.HasPrefix(w.Text, "--output="):
			v = w.Text[len("--output="):]
		case strings.HasPrefix(w.Text, "--set") && k+1 < len(c.Args):
			v = c.Args[k+1].Text // bake: --set *.output=type=registry
		}
		if strings.Contains(v, "type=registry") || strings.Contains(v, "push=true") {
			return true
		}
	}
	return false
}

// toRegistry: a skopeo/containers transport that is a remote registry.
func toRegistry(w shell.Word) bool {
	return w.Dyn || strings.HasPrefix(w.Text, "docker://") || strings.HasPrefix(w.Text, "atomic:")
}

// whenPublishImage is the condition of rule publish.image.
func whenPublishImage(c *Cmd) bool {
	p := c.Pos()
	switch posLower(c, 0) {
	case "copy":
		return len(p) >= 3 && toRegistry(p[len(p)-1])
	case "sync":
		v, _ := c.Flag("--dest")
		return v == "docker"
	case "delete":
		return true
	}
	return false
}

// whenPublishImage2 is the condition of rule publish.image.
func whenPublishImage2(c *Cmd) bool {
	if !anyPos(c, "build|publish|resolve|apply|create|run") {
		return false
	}
	if c.Has("-L", "--local") {
		return false
	}
	v, ok := c.Flag("--push")
	return !ok || v != "false"
}

// whenPublishRelease is the condition of rule publish.release.
func whenPublishRelease(c *Cmd) bool {
	if !anyPos(c, "release|publish") {
		return false
	}
	if c.Has("--snapshot", "--skip-publish") {
		return false
	}
	v, _ := c.Flag("--skip")
	return !strings.Contains(v, "publish")
}
