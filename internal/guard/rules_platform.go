package guard

import "strings"

// platformRules are registerPlatform's rules, static data: loading the
// batch allocates none of them.
var platformRules = []*Rule{
	{ID: rulePlatformGhDelete, Category: "platform", Group: "platform", Verdict: Deny, Names: []string{"gh"},
		When: whenPlatformGhDelete, Reason: "this deletes a GitHub repository, release, secret, cache or other resource; ask the user"},
	{ID: rulePlatformGhDisrupt, Category: "platform", Group: "platform", Verdict: Ask, Names: []string{"gh"},
		When: whenPlatformGhDisrupt, Reason: "this archives a repository or disables a workflow; ask the user"},
	{ID: rulePlatformGlabDelete, Category: "platform", Group: "platform", Verdict: Deny, Names: []string{"glab"},
		When: whenPlatformGlabDelete, Reason: "this deletes a GitLab project, release, variable, pipeline or other resource; ask the user"},
	{ID: rulePlatformGlabDisrupt, Category: "platform", Group: "platform", Verdict: Ask, Names: []string{"glab"},
		Sub: []string{"repo", "archive"}, Reason: "this archives a GitLab project; ask the user"},
	{ID: rulePlatformGitlabAdmin, Category: "platform", Group: "platform", Verdict: Deny, Names: []string{"gitlab-rails", "gitlab-rake"},
		When: whenPlatformGitlabAdmin, Reason: "this deletes GitLab data or restores a backup over the live instance; ask the user"},
	{ID: rulePlatformJenkinsDelete, Category: "platform", Group: "platform", Verdict: Deny, Names: []string{"java", "jenkins-cli"},
		When: jenkinsDeletes, Reason: "this deletes Jenkins jobs, nodes, views, builds or credentials; ask the user"},
	{ID: rulePlatformCircleciDelete, Category: "platform", Group: "platform", Verdict: Deny, Names: []string{"circleci"},
		When: func(c *Cmd) bool { return hasVerb(c, 2, "delete|remove-secret|remove") }, Reason: "this deletes CircleCI contexts, secrets, orbs or pipelines; ask the user"},
	{ID: rulePlatformRunnerUnregister, Category: "platform", Group: "platform", Verdict: Ask, Names: []string{"gitlab-runner"},
		Sub: []string{"unregister|uninstall"}, Reason: "this unregisters CI runners; pipelines stop until they are registered again; ask the user"},
}

// Opt-in group "platform": code hosting and CI/CD services (GitHub and
// GitLab CLIs and APIs, Jenkins, CircleCI, GitLab runners). Deleting
// repositories, releases, secrets, pipelines or jobs is denied; archiving,
// disabling workflows and unregistering runners (all reversible) ask.
func registerPlatform() {
	register(platformRules...)
	register(httpRule(rulePlatformApiDelete, "platform", platformAPIs,
		"this deletes CI/CD or code-hosting resources through their API; ask the user"))
	setValueOpts("gh", "-R", "--repo", "-X", "--method", "-H", "--header", "-f", "--raw-field", "-F", "--field", "-q", "--jq", "-t", "--template")
	setValueOpts("glab", "-R", "--repo", "-X", "--method", "-H", "--header", "-f", "--raw-field", "-F", "--field")
	setValueOpts("gitlab-runner", "--name", "--url", "-u", "--token", "-t", "-c", "--config")
}

// hostingDeletes: `gh|glab <noun> delete ...` except for the CLI's own
// local settings (aliases, extensions, config).
func hostingDeletes(c *Cmd) bool {
	if oneOf(posLower(c, 0), "alias|extension|ext|config|auth|completion") {
		return false
	}
	return hasVerb(c, 3, "delete|delete-asset") || oneOf(posLower(c, 0), "secret|variable") && oneOf(posLower(c, 1), "remove|rm")
}

// apiMethodDelete: `gh|glab api -X DELETE ...`.
func apiMethodDelete(c *Cmd) bool {
	m, _ := c.Flag("-X", "--method")
	return strings.EqualFold(m, "DELETE")
}

// jenkinsDeletes: the Jenkins CLI (`java -jar jenkins-cli.jar ... delete-job`).
func jenkinsDeletes(c *Cmd) bool {
	cli := c.Name == "jenkins-cli"
	for _, w := range c.Args {
		s := strings.ToLower(w.Text)
		if strings.HasSuffix(s, ".jar") && strings.Contains(s, "jenkins-cli") {
			cli = true
			continue
		}
		if cli && hasPrefixAny(s, "delete-", "remove-", "disconnect-node", "clear-queue") {
			return true
		}
	}
	return false
}

// platformAPIs: hosted and self-hosted code-hosting and CI APIs.
var platformAPIs = []apiEndpoint{
	{host: "api.github.com"}, {path: "/api/v3/"}, {host: "gitlab"}, {path: "/api/v4/"},
	{host: "circleci.com"}, {host: "jenkins"}, {path: "/job/"}, {path: "/credentials/store/"},
	{host: "api.buildkite.com"}, {host: "travis-ci."}, {host: "bitbucket.org"}, {host: "dev.azure.com"},
}

// whenPlatformGhDelete is the condition of rule platform.gh-delete.
func whenPlatformGhDelete(c *Cmd) bool {
	return hostingDeletes(c) || posLower(c, 0) == "api" && apiMethodDelete(c)
}

// whenPlatformGhDisrupt is the condition of rule platform.gh-disrupt.
func whenPlatformGhDisrupt(c *Cmd) bool {
	return posLower(c, 0) == "repo" && posLower(c, 1) == "archive" || posLower(c, 0) == "workflow" && posLower(c, 1) == "disable"
}

// whenPlatformGlabDelete is the condition of rule platform.glab-delete.
func whenPlatformGlabDelete(c *Cmd) bool {
	return hostingDeletes(c) || posLower(c, 0) == "api" && apiMethodDelete(c)
}

// whenPlatformGitlabAdmin is the condition of rule platform.gitlab-admin.
func whenPlatformGitlabAdmin(c *Cmd) bool {
	for _, w := range c.Args {
		s := strings.ToLower(w.Text)
		if strings.Contains(s, "destroy") || strings.Contains(s, "delete") ||
			hasPrefixAny(s, "gitlab:backup:restore", "db:drop", "db:reset", "gitlab:setup", "gitlab:cleanup") {
			return true
		}
	}
	return false
}
