package guard

// containerCLIs are the Docker-compatible command-line tools.
var containerCLIs = []string{"docker", "podman", "nerdctl"}

// containersRules are registerContainers's rules, static data: loading the
// batch allocates none of them.
var containersRules = []*Rule{
	{ID: ruleContainersPrune, Category: "containers", Group: "containers", Verdict: Deny, Names: containerCLIs,
		When: whenContainersPrune, Reason: "docker prune deletes containers, images, volumes or networks; ask the user"},
	{ID: ruleContainersRemove, Category: "containers", Group: "containers", Verdict: Deny, Names: containerCLIs,
		When: whenContainersRemove, Reason: "force-removing containers, images or volumes loses their data; ask the user"},
	{ID: ruleContainersComposeDownVolumes, Category: "containers", Group: "containers", Verdict: Deny,
		Names: []string{"docker-compose", "podman-compose"}, Sub: []string{"down"}, AnyFlag: []string{"-v", "--volumes", "--rmi"},
		Reason: "compose down -v deletes named volumes; ask the user"},
	{ID: ruleContainersComposeDownVolumes, Category: "containers", Group: "containers", Verdict: Deny,
		Names: containerCLIs, Sub: []string{"compose", "down"}, AnyFlag: []string{"-v", "--volumes", "--rmi"},
		Reason: "compose down -v deletes named volumes; ask the user"},
}

// Opt-in group "containers": destructive Docker/Podman operations.
func registerContainers() {
	register(containersRules...)
}

// whenContainersPrune is the condition of rule containers.prune.
func whenContainersPrune(c *Cmd) bool {
	p := c.Pos()
	switch {
	case len(p) >= 2 && p[1].Text == "prune":
		return pruneConfirmed(c) && !regenerablePrune(c, p[0].Text)
	case len(p) >= 1 && p[0].Text == "prune":
		return pruneConfirmed(c)
	}
	return false
}

// regenerablePrune: the prune deletes only what a build or a pull brings
// back, the user's own cache: the build cache, or dangling images (no
// tag, no container). `image prune -a` (every unused image, locally built
// ones too), containers, volumes, networks and `system prune` are not.
func regenerablePrune(c *Cmd, object string) bool {
	switch object {
	case "builder", "buildx":
		return true
	case "image":
		return !c.Has("-a", "--all")
	}
	return false
}

// whenContainersRemove is the condition of rule containers.remove.
func whenContainersRemove(c *Cmd) bool {
	p := c.Pos()
	if len(p) >= 1 && oneOf(p[0].Text, "rm|rmi") && c.Has("-f", "--force") {
		return true
	}
	return len(p) >= 2 && oneOf(p[0].Text, "volume|network|image|container") && oneOf(p[1].Text, "rm|remove") && (p[0].Text == "volume" || c.Has("-f", "--force"))
}
