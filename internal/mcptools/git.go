package mcptools

import "strings"

// gitTool reads a tool of mcp-server-git (every one takes repo_path; a
// tool of the same name without it is another server's) as
// the git command it runs, so that the git rules judge it: git_checkout
// with branch_name "." is `git checkout .`, which discards work. Values
// are passed as the server passes them, without `--`: an option given as
// a branch name is an option to git too.
func gitTool(name string) reader {
	return func(_ string, a args) (Calls, bool) {
		if !a.has("repopath") {
			return Calls{}, false // another git server's tool: guessed
		}
		repo := a.str("repopath")
		argv := gitArgs(name, a)
		if name == "git_init" {
			if repo == "" {
				repo = "."
			}
			return Calls{Requests: shell(command("git", "init", repo), "")}, true
		}
		if repo != "" {
			argv = append([]string{"-C", repo}, argv...)
		}
		return Calls{Requests: shell(command("git", argv...), "")}, true
	}
}

// gitArgs are the arguments after `git` for each of the server's tools.
func gitArgs(name string, a args) []string {
	switch name {
	case "git_status":
		return []string{"status"}
	case "git_diff_unstaged":
		return []string{"diff"}
	case "git_diff_staged":
		return []string{"diff", "--cached"}
	case "git_diff":
		return append([]string{"diff"}, a.strs("target")...)
	case "git_commit", "git_commit_signed":
		return []string{"commit", "-m", a.str("message")}
	case "git_add":
		return append([]string{"add", "--"}, a.strs("files")...)
	case "git_reset":
		// The server unstages everything (index reset); the working tree
		// is left alone.
		return []string{"reset"}
	case "git_log":
		argv := []string{"log"}
		if s := a.str("starttimestamp"); s != "" {
			argv = append(argv, "--since", s)
		}
		if s := a.str("endtimestamp"); s != "" {
			argv = append(argv, "--until", s)
		}
		return argv
	case "git_create_branch":
		return append([]string{"branch", a.str("branchname")}, a.strs("basebranch")...)
	case "git_checkout":
		return []string{"checkout", a.str("branchname")}
	case "git_show":
		return append([]string{"show"}, a.strs("revision")...)
	case "git_branch":
		argv := []string{"branch"}
		switch strings.ToLower(a.str("branchtype")) {
		case "remote":
			argv = append(argv, "-r")
		case "all":
			argv = append(argv, "-a")
		}
		if s := a.str("contains"); s != "" {
			argv = append(argv, "--contains", s)
		}
		if s := a.str("notcontains"); s != "" {
			argv = append(argv, "--no-contains", s)
		}
		return argv
	}
	return nil
}
