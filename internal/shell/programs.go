package shell

import (
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/lazy"
)

// HarmlessDevice reports whether writing to path writes no file: the null
// device, the terminal and the process's own streams.
func HarmlessDevice(path string) bool {
	switch path {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero":
		return true
	}
	return strings.HasPrefix(path, "/dev/fd/")
}

// Reader reports whether program name prints the files it is given
// (whole or in part) and nothing else, and which of its short options take
// a value (head -n 5: "n"), so that its operands can be told apart.
func Reader(name string) (valued string, ok bool) {
	valued, ok = readers.Get()[name]
	return valued, ok
}

var readers = lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{
		"cat": "", "tac": "", "nl": "bdfhilnsvw", "head": "nc", "tail": "ncs",
		"less": "", "more": "", "bat": "lmrH", "sed": "efl",
	}
}}

// WritesAnything reports whether a program, or a program and its
// subcommand ("npm install"), writes what cannot be listed: task runners
// run arbitrary recipes, package managers install and run install
// scripts, npx and friends run a package's program. A build's outputs (go
// build, cargo build) are left out: they go where the project puts its
// artefacts. sub is the program's first operand, "" for the program
// alone. A table rather than a map: it costs nothing to build.
func WritesAnything(name, sub string) bool {
	for _, t := range writingTools {
		if t.name == name {
			return t.subs == nil || slices.Contains(t.subs, sub)
		}
	}
	return false
}

// writingTools are the programs that may write anything: task runners,
// package managers, formatters; subs are the subcommands that do, nil for
// every one.
var writingTools = []struct {
	name string
	subs []string
}{
	{"make", nil},
	{"gmake", nil},
	{"bmake", nil},
	{"ninja", nil},
	{"just", nil},
	{"task", nil},
	{"rake", nil},
	{"mage", nil},
	{"invoke", nil},
	{"scons", nil},
	{"xmake", nil},
	{"npx", nil},
	{"pnpx", nil},
	{"bunx", nil},
	{"uvx", nil},
	{"apt", nil},
	{"apt-get", nil},
	{"dnf", nil},
	{"yum", nil},
	{"pacman", nil},
	{"apk", nil},
	{"nix-env", nil},
	{"meson", []string{"install"}},
	{"npm", []string{"install", "i", "ci", "add", "uninstall", "remove", "rm", "update", "up", "link", "dedupe", "prune", "exec", "init", "pkg", "version"}},
	{"pnpm", []string{"install", "i", "add", "remove", "rm", "update", "up", "dlx", "exec", "link", "prune", "import"}},
	{"yarn", []string{"install", "add", "remove", "up", "upgrade", "dlx", "link"}},
	{"bun", []string{"install", "i", "add", "remove", "update", "x", "create"}},
	{"pip", []string{"install", "uninstall", "download"}},
	{"pip3", []string{"install", "uninstall"}},
	{"pipx", []string{"install", "run"}},
	{"uv", []string{"add", "remove", "sync", "lock", "pip", "init", "tool"}},
	{"poetry", []string{"add", "remove", "install", "lock", "update", "new", "init"}},
	{"pipenv", []string{"install", "uninstall", "lock", "update"}},
	{"cargo", []string{"add", "remove", "install", "update", "fix", "fmt", "new", "init", "generate-lockfile"}},
	{"go", []string{"generate", "get", "mod", "fmt", "fix", "work", "install"}},
	{"gem", []string{"install", "uninstall"}},
	{"bundle", []string{"install", "update", "add"}},
	{"composer", []string{"install", "require", "update", "remove"}},
	{"brew", []string{"install", "uninstall"}},
	{"dotnet", []string{"add", "new", "format"}},
	{"deno", []string{"fmt", "install", "add"}},
	{"mix", []string{"deps.get"}},
	{"flutter", []string{"pub"}},
	{"dart", []string{"pub", "format"}},
	{"swift", []string{"package"}},
}

// NormName reduces a command word to the name rules match on:
// /usr/bin/../bin/rm -> rm, C:/Git/bin/git.exe -> git, GIT -> git.
func NormName(s string) string {
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		s = s[i+1:]
	}
	s = strings.ToLower(s)
	s = strings.TrimSuffix(s, ".exe")
	return s
}
