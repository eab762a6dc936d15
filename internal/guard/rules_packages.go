package guard

// packagesRules are registerPackages's rules, static data: loading the
// batch allocates none of them.
var packagesRules = []*Rule{
	{ID: rulePackagesUninstall, Category: "packages", Group: "packages", Verdict: Ask,
		Names: []string{"pip", "pip3", "pipx", "gem", "conda", "mamba", "micromamba"},
		Sub:   []string{"uninstall|remove"}, Reason: "this uninstalls packages; ask the user"},
	{ID: rulePackagesUninstall, Category: "packages", Group: "packages", Verdict: Ask, Names: []string{"uv"},
		When: whenPackagesUninstall, Reason: "this removes packages or project dependencies; ask the user"},
	{ID: rulePackagesUninstall, Category: "packages", Group: "packages", Verdict: Ask,
		Names: []string{"poetry", "pdm", "cargo", "composer", "npm", "pnpm", "yarn", "bun"},
		Sub:   []string{"remove|rm|uninstall|un|r"}, Reason: "this removes project dependencies; ask the user"},
	{ID: rulePackagesPublish, Category: "packages", Group: "packages", Verdict: Ask, Names: []string{"mvn", "mvnw", "gradle", "gradlew"},
		When: whenPackagesPublish, Reason: "publishing an artifact is visible to everyone and hard to undo; ask the user"},
}

// Opt-in group "packages": removing installed packages or project
// dependencies, and publishing through build-tool wrappers. The default
// policy already asks for registry publishing (publish.package) and has
// the package_uninstall switch for system-wide removals; this group asks
// for every removal, including a project's own dependencies.
func registerPackages() {
	register(packagesRules...)
}

// whenPackagesUninstall is the condition of rule packages.uninstall.
func whenPackagesUninstall(c *Cmd) bool {
	return posLower(c, 0) == "remove" || posLower(c, 0) == "pip" && posLower(c, 1) == "uninstall"
}

// whenPackagesPublish is the condition of rule packages.publish.
func whenPackagesPublish(c *Cmd) bool {
	for _, w := range c.Pos() {
		if s := w.Text; oneOf(s, "deploy|release:perform|release:prepare|deploy:deploy-file") || hasPrefixAny(s, "publish") {
			return true
		}
	}
	return false
}
