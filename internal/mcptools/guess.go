package mcptools

import (
	"slices"
	"strings"
)

// Verbs in tool names, by what the tool does with the paths it names.
var (
	removeVerbs = []string{"delete", "remove", "rm", "unlink", "rmdir", "erase", "trash"}
	moveVerbs   = []string{"move", "rename", "mv"}
	copyVerbs   = []string{"copy", "cp", "duplicate"}
	mkdirVerbs  = []string{"mkdir", "makedirs"}
	editVerbs   = []string{"edit", "patch", "apply", "replace", "insert", "append", "update", "modify", "change"}
	writeVerbs  = []string{"write", "create", "save", "put", "overwrite", "truncate", "touch", "chmod", "chown", "set",
		"upsert", "store", "new", "make", "add"}
	readVerbs = []string{"read", "get", "list", "search", "find", "show", "view", "cat", "ls", "stat", "tree", "glob",
		"grep", "info", "head", "tail", "describe", "open", "load", "fetch", "query", "lookup", "inspect", "check",
		"count", "exists", "diff", "print", "upload", "summarize", "analyze", "explain"}
	// execWords name running a command; a tool whose name is made only of
	// them (exec, run_command) runs one, as does any whose name says
	// command, shell or terminal.
	execWords   = []string{"exec", "execute", "run", "eval", "spawn", "start", "invoke", "launch"}
	execObjects = []string{"command", "commands", "cmd", "shell", "bash", "sh", "zsh", "powershell", "pwsh",
		"terminal", "console", "subprocess", "process"}
	// codeNouns with an exec word (execute_code, run_script) run code.
	codeNouns = []string{"code", "script", "program", "snippet"}
	// fileNouns in a name say that a tool writing something writes files.
	fileNouns = []string{"file", "files", "dir", "dirs", "directory", "directories", "folder", "folders", "path", "paths"}
)

// pathKeys are argument names that hold local paths (normalised).
var pathKeys = []string{"path", "paths", "file", "files", "filepath", "filepaths", "filename", "filenames",
	"source", "sourcepath", "src", "destination", "destinationpath", "dest", "target", "targetpath", "dir",
	"directory", "dirpath", "directorypath", "folder", "folderpath", "oldpath", "newpath", "outputpath", "notebookpath"}

// Of those, the ones a copy reads, and the ones that say where something
// goes.
var (
	sourceKeys = []string{"source", "sourcepath", "src", "from", "oldpath"}
	destKeys   = []string{"destination", "destinationpath", "dest", "target", "targetpath", "newpath", "outputpath"}
)

// fetchKeys carry something in from elsewhere: a tool with no verb the
// guard knows and one of them writes the paths it names.
var fetchKeys = []string{"url", "uri", "content", "contents", "data", "body", "text"}

// guess reads a tool no table knows, from the verb in its name and the
// names of its arguments:
//   - a command argument (command, cmd, argv; script or code in a
//     language the guard reads) is judged as a shell command, unless the
//     name says the tool only reads;
//   - path arguments are read or written as the verb says (write, edit,
//     move: written; copy: the source read, the destination written;
//     delete: as rm -r -f; mkdir: as mkdir -p); with no verb, or a reading
//     one, they are read;
//   - a tool whose name says it runs commands, or writes files, and whose
//     arguments name no command or path, is an unknown write;
//   - anything else (get-library-docs, create_issue) asks for nothing.
//
// A reading tool's arguments that name a remote repository (owner and
// repo, project_id) name no local path; a writing tool's paths are judged
// whatever else it is given.
func guess(name []string, a args) Calls {
	if i := slices.IndexFunc(name, func(w string) bool { return w != "git" }); i > 0 {
		// git_push; git_git_push on OpenCode, from a server named git.
		return otherGit(name[i:], a)
	}
	has := func(vs []string) bool {
		return slices.ContainsFunc(name, func(w string) bool { return slices.Contains(vs, w) })
	}
	reads := has(readVerbs) && !has(writeVerbs) && !has(editVerbs) && !has(removeVerbs) && !has(moveVerbs) && !has(copyVerbs)
	runs := has(execObjects) || has(execWords) && has(codeNouns) ||
		len(name) > 0 && !slices.ContainsFunc(name, func(w string) bool { return !slices.Contains(execWords, w) })

	if !reads {
		cmds, unreadable := commands(a, runs)
		if len(name) == 1 && !runs && !isVerb(name[0]) {
			// A tool named after a program (git, kubectl, docker) runs it
			// with the arguments it is given.
			cmds = prefixed(name[0], cmds, a)
		}
		if len(cmds) > 0 || unreadable {
			return shellCalls(a, cmds, unreadable)
		}
	}
	if runs && !reads {
		return Calls{Unknown: "its name says it runs commands, and its arguments show none"}
	}
	ps := a.strs(pathKeys...)
	switch {
	case reads || !isVerb(name...):
		if isRemote(a) {
			return Calls{} // the paths are the hosted repository's
		}
		if !reads && a.has(fetchKeys...) {
			// download_file {url, path}, export {data, output}: what
			// it writes is what the arguments carry in.
			return Calls{Requests: paths("write", ps)}
		}
		return readOrWrite(a, ps)
	case has(removeVerbs):
		if len(ps) == 0 {
			return unnamed(name)
		}
		return remove(ps)
	case has(mkdirVerbs) || has([]string{"create", "make", "new"}) && has([]string{"dir", "directory", "folder"}):
		if len(ps) == 0 {
			return unnamed(name)
		}
		return mkdir(ps)
	case has(copyVerbs):
		src := a.strs(sourceKeys...)
		var dst []string
		for _, p := range ps {
			if !slices.Contains(src, p) {
				dst = append(dst, p)
			}
		}
		rs := append(paths("read", src), paths("write", dst)...)
		if len(rs) == 0 {
			return unnamed(name)
		}
		return Calls{Requests: rs}
	case has(moveVerbs) || has(writeVerbs):
		if len(ps) == 0 {
			return unnamed(name)
		}
		return Calls{Requests: paths("write", ps)}
	case has(editVerbs):
		if len(ps) == 0 {
			return unnamed(name)
		}
		return Calls{Requests: paths("edit", ps)}
	}
	return readOrWrite(a, ps)
}

// readOrWrite reads the paths, but for those under a name that says where
// something goes (destination, output_path, new_path), written whatever
// the tool's verb: extract_archive {destination}, browser_screenshot
// {filename} write there.
func readOrWrite(a args, ps []string) Calls {
	dst := a.strs(destKeys...)
	var rs []Request
	for _, p := range ps {
		if !slices.Contains(dst, p) {
			rs = append(rs, paths("read", []string{p})...)
		}
	}
	return Calls{Requests: append(rs, paths("write", dst)...)}
}

// unnamed: a tool that changes something and names no path writes files
// the guard cannot see when its name says files (write_file, edit_dir);
// otherwise what it changes is not a file (create_issue, update_page).
func unnamed(name []string) Calls {
	if slices.ContainsFunc(name, func(w string) bool { return slices.Contains(fileNouns, w) }) {
		return Calls{Unknown: "it writes files it names no path for"}
	}
	return Calls{}
}

// isVerb reports whether any of the words is a verb the guard knows.
func isVerb(ws ...string) bool {
	for _, vs := range [][]string{removeVerbs, moveVerbs, copyVerbs, mkdirVerbs, editVerbs, writeVerbs, readVerbs, execWords, execObjects} {
		if slices.ContainsFunc(ws, func(w string) bool { return slices.Contains(vs, w) }) {
			return true
		}
	}
	return false
}

// prefixed puts the program a tool is named after before the command its
// arguments give (a command string, or an argv alone).
func prefixed(prog string, cmds []string, a args) []string {
	if len(cmds) == 0 {
		if argv := a.strs(argvKeys...); len(argv) > 0 {
			return argvLines(append([]string{prog}, argv...))
		}
		return nil
	}
	out := make([]string, len(cmds))
	for i, c := range cmds {
		out[i] = quote(prog) + " " + c
	}
	return out
}

// otherGit reads a git tool of another server (git_push, git_clean,
// git_reset, git_stash) as `git <verb>`, with its boolean options as flags
// (force: --force, dryRun: --dry-run), a reset's mode as --<mode> and
// another tool's action as its subcommand, in the repository its path
// names: close enough for the git rules to see a forced push, a hard reset
// or a cleaned tree.
func otherGit(verb []string, a args) Calls {
	sub := strings.Join(verb, "-")
	argv := []string{sub}
	mode := strings.ToLower(a.str("mode", "action", "operation", "subcommand"))
	switch {
	case mode == "":
	case sub == "reset":
		argv = append(argv, "--"+mode)
	default:
		argv = append(argv, mode)
	}
	for _, k := range sortedKeys(a) {
		if b, ok := a[k].(bool); ok && b {
			argv = append(argv, "--"+kebab(k))
		}
	}
	if repo := a.str("repopath", "path", "repository", "cwd", "dir", "directory"); repo != "" {
		argv = append([]string{"-C", repo}, argv...)
	}
	return Calls{Requests: shell(command("git", argv...), "")}
}

func sortedKeys(a args) []string {
	ks := make([]string, 0, len(a))
	for k := range a {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// kebab spells an argument name as a long option: dryRun and dry_run give
// dry-run.
func kebab(k string) string { return strings.Join(words(k), "-") }
