package mcptools

import (
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/lazy"
	"github.com/atreides-dev/atreides/internal/sanitize"
)

// A reader reads the arguments of a known tool; false when they do not
// have the shape the tool's schema gives them (another server's tool of
// the same name), which leaves the call to guess.
type reader func(server string, a args) (Calls, bool)

// known are the common servers' tools, by name (words joined with '_'),
// with the argument names of their schemas:
//   - @modelcontextprotocol/server-filesystem: path, paths, source,
//     destination, pattern, edits with dryRun;
//   - Desktop Commander: path, paths, file_path (edit_block), source and
//     destination, command with an optional shell, pid;
//   - shell servers (run_command, execute_command, shell, exec, bash, ...):
//     command or cmd, a string or an argv array, with args, stdin and a
//     working directory;
//   - mcp-server-git: repo_path and the tool's own (judged as the git
//     command the tool runs);
//   - GitHub's and GitLab's servers: owner and repo, or project_id, name a
//     remote repository (their paths are in it, not on this machine).
//
// Built on first use: package init runs in every hook process.
var known = lazy.Value[map[string]reader]{New: func() map[string]reader {
	known := map[string]reader{}
	for _, n := range []string{"read_file", "read_text_file", "read_media_file", "get_file_info", "read_multiple_files",
		"list_directory", "list_directory_with_sizes", "directory_tree", "search_code"} {
		known[n] = local(func(a args) Calls { return Calls{Requests: paths("read", a.strs("path", "paths"))} })
	}
	known["write_file"] = local(func(a args) Calls { return written("write", a.strs("path")) })
	known["edit_file"] = local(func(a args) Calls {
		if a.flag("dryrun") { // the server shows the diff and writes nothing
			return Calls{Requests: paths("read", a.strs("path"))}
		}
		return written("edit", a.strs("path"))
	})
	known["edit_block"] = local(func(a args) Calls { return written("edit", a.strs("filepath", "path")) })
	known["create_directory"] = local(func(a args) Calls { return mkdir(a.strs("path")) })
	known["move_file"] = local(func(a args) Calls { return written("write", a.strs("source", "destination")) })
	for _, n := range []string{"search_files", "start_search"} {
		known[n] = local(search)
	}
	known["list_allowed_directories"] = local(func(args) Calls { return Calls{} })
	known["set_config_value"] = local(func(a args) Calls {
		return Calls{Unknown: "it changes the MCP server's own settings (" + oneLine(a.str("key")) + ")"}
	})
	known["interact_with_process"] = local(func(args) Calls {
		return Calls{Unknown: "it sends input to a running process, which may run it as code"}
	})
	known["kill_process"] = local(func(a args) Calls {
		if pid := a.num("pid"); pid != "" {
			return Calls{Requests: shell(command("kill", "-9", pid), "")}
		}
		return Calls{Unknown: "it kills a process it does not name"}
	})
	for _, n := range []string{"git_status", "git_diff_unstaged", "git_diff_staged", "git_diff", "git_commit",
		"git_commit_signed", "git_add", "git_reset", "git_log", "git_create_branch", "git_checkout", "git_show",
		"git_branch", "git_init"} {
		known[n] = gitTool(n)
	}
	for _, n := range []string{"create_or_update_file", "push_files", "delete_file"} {
		known[n] = remote(remotePush)
	}
	known["merge_pull_request"] = remote(func(a args) Calls {
		argv := []string{"pr", "merge", a.num("pullnumber", "pullrequestnumber", "number")}
		if o, r := a.str("owner"), a.str("repo"); o != "" && r != "" {
			argv = append(argv, "--repo", o+"/"+r)
		}
		if m := a.str("mergemethod"); m == "merge" || m == "squash" || m == "rebase" {
			argv = append(argv, "--"+m)
		}
		return Calls{Requests: shell(command("gh", argv...), "")}
	})
	return known
}}

// local reads a tool of a server on this machine. Arguments naming a
// remote repository besides do not change what it does here (the
// server ignores names it does not know).
func local(f func(args) Calls) reader {
	return func(_ string, a args) (Calls, bool) { return f(a), true }
}

// remote reads a code-hosting server's tool: owner and repo, or a
// project_id, or the server's name saying it, make its paths the remote
// repository's.
func remote(f func(args) Calls) reader {
	return func(server string, a args) (Calls, bool) {
		if !isRemote(a) && !strings.Contains(server, "github") && !strings.Contains(server, "gitlab") {
			return Calls{}, false
		}
		return f(a), true
	}
}

func isRemote(a args) bool {
	return a.has("owner") && a.has("repo") || a.has("projectid")
}

// remotePush: writing files on a branch of the hosted repository is what
// `git push` does, and is judged as that (allowed by the default policy;
// asked for a protected branch with the protected-branches group on).
func remotePush(a args) Calls {
	ref := "HEAD"
	if b := a.str("branch"); b != "" {
		ref = "HEAD:refs/heads/" + b
	}
	return Calls{Requests: shell(command("git", "push", "origin", ref), "")}
}

// written are write or edit requests for the paths; a tool that writes
// files and names none is an unknown write.
func written(tool string, ps []string) Calls {
	if rs := paths(tool, ps); len(rs) > 0 {
		return Calls{Requests: rs}
	}
	return Calls{Unknown: "it writes files it names no path for"}
}

// mkdir is judged as `mkdir -p`, as the shell's would be: creating a
// directory changes no setting, even under .atreides.
func mkdir(ps []string) Calls {
	if cmd := pathCommand("mkdir", []string{"-p"}, ps); cmd != "" {
		return Calls{Requests: shell(cmd, "")}
	}
	return Calls{Unknown: "it creates a directory it names no path for"}
}

// remove is judged as `rm -r -f`, so that deleting the home directory or
// the project is what it is for the shell.
func remove(ps []string) Calls {
	if cmd := pathCommand("rm", []string{"-r", "-f"}, ps); cmd != "" {
		return Calls{Requests: shell(cmd, "")}
	}
	return Calls{Unknown: "it deletes files it names no path for"}
}

// search reads the directory searched and, when the search is by file
// name, the pattern (filesystem's search_files, Desktop Commander's
// start_search with searchType files).
func search(a args) Calls {
	var rs []Request
	pattern := ""
	if t := a.str("searchtype"); t == "" || t == "files" {
		pattern = a.str("pattern")
	}
	for _, p := range noURLs(a.strs("path", "paths")) {
		rs = append(rs, Request{Tool: "search", Arg: p, Pattern: pattern})
	}
	return Calls{Requests: rs}
}

// Argument names of a command and what it runs with.
var (
	commandKeys = []string{"command", "cmd", "commandline", "shellcommand", "commands"}
	argvKeys    = []string{"args", "arguments", "argv"}
	dirKeys     = []string{"cwd", "workdir", "workingdirectory", "workingdir", "directory", "dir"}
	stdinKeys   = []string{"stdin", "input"}
	langKeys    = []string{"language", "lang", "interpreter", "runtime"}
	codeKeys    = []string{"script", "code", "source"}
)

// commands are the command lines a call's arguments hold. Code (script,
// code) counts when its language is a shell or one whose programs the
// guard reads; in a tool that runs commands (exec), code in another
// language or in none is unreadable.
func commands(a args, exec bool) (cmds []string, unreadable bool) {
	for _, k := range a.keys(commandKeys...) {
		switch v := a[k].(type) {
		case string:
			if v != "" {
				cmds = append(cmds, v)
			}
		case []any:
			if normKey(k) == "commands" { // a list of command lines
				cmds = append(cmds, strs(v)...)
			} else {
				cmds = append(cmds, argvLines(strs(v))...)
			}
		}
	}
	if len(cmds) == 1 {
		if lines := argvLines(a.strs(argvKeys...)); len(lines) > 0 {
			for i, l := range lines {
				lines[i] = cmds[0] + " " + l
			}
			cmds = lines
		}
	}
	lang := a.str(langKeys...)
	if len(cmds) == 0 && (exec || lang != "") {
		for _, code := range a.strs(codeKeys...) {
			if cmd, ok := program(lang, code); ok {
				cmds = append(cmds, cmd)
			} else {
				unreadable = true
			}
		}
	}
	// A shell named apart from the command (Desktop Commander's shell:
	// /bin/zsh, or python3) runs it with -c.
	if sh := a.str("shell"); sh != "" && !isPosixShell(sh) {
		for i, c := range cmds {
			cmds[i] = command(sh, "-c", c)
		}
	}
	return cmds, unreadable
}

// shellCalls are shell requests for the commands, fed the call's stdin
// and run in its directory; unreadable code is an unknown write.
func shellCalls(a args, cmds []string, unreadable bool) Calls {
	var c Calls
	if unreadable {
		c.Unknown = "it runs code in a language the guard does not read"
	}
	stdin := a.str(stdinKeys...)
	dir := a.str(dirKeys...)
	for _, cmd := range cmds {
		if stdin != "" {
			// The whole command line reads it, as the server's process does.
			cmd = "{ " + cmd + "\n} <<< " + quote(stdin)
		}
		c.Requests = append(c.Requests, shell(cmd, dir)...)
	}
	return c
}

func isPosixShell(sh string) bool {
	return slices.Contains(posixShells, strings.TrimSuffix(strings.ToLower(pathBase(sh)), ".exe"))
}

func pathBase(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// oneLine keeps a value short, printable and on one line for a reason.
func oneLine(s string) string {
	return sanitize.String(strings.Join(strings.Fields(s), " "), 80)
}
