package tasks

import (
	"cmp"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/lazy"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/taskboard"
)

// RouteAgents are the roster agents (by id) that research and implement.
type RouteAgents struct {
	Research  string `json:"research"`
	Implement string `json:"implement"`
	// MCP are the MCP servers the language's agents work with (checked
	// by [Pick.CheckTools]).
	MCP []string `json:"mcp,omitempty"`
}

// RouteOptions are the configured routes (tasks.routing): by language,
// and Default for the rest.
type RouteOptions struct {
	Default   RouteAgents
	Languages map[string]RouteAgents
}

// RouteOptionsFromConfig maps the configuration's tasks.routing.
func RouteOptionsFromConfig(c *config.Config) RouteOptions {
	o := RouteOptions{Default: RouteAgents(c.Tasks.Routing.Default), Languages: map[string]RouteAgents{}}
	for lang, r := range c.Tasks.Routing.Languages {
		o.Languages[Language(lang)] = RouteAgents(r)
	}
	return o
}

// Check names every configured agent id that is not an enabled agent of
// the roster (has says which are), with the key that names it.
func (o RouteOptions) Check(has func(id string) bool) []string {
	var out []string
	check := func(key string, r RouteAgents) {
		for _, a := range []struct{ field, id string }{{"research", r.Research}, {"implement", r.Implement}} {
			if a.id != "" && !has(a.id) {
				out = append(out, fmt.Sprintf("tasks.routing.%s.%s: %q is not an enabled agent of the roster (the agents section)", key, a.field, a.id))
			}
		}
	}
	check("default", o.Default)
	for _, lang := range slices.Sorted(maps.Keys(o.Languages)) {
		check("languages."+lang, o.Languages[lang])
	}
	return out
}

// Missing is Check against the roster the configuration c declares: the
// routes' agents it lacks, never nil (a JSON list).
func (o RouteOptions) Missing(c *config.Config) []string {
	roster, _ := agents.FromConfig(c.Agents)
	p := o.Check(func(id string) bool { _, ok := roster.Get(id); return ok })
	if p == nil {
		p = []string{}
	}
	return p
}

// Routing is where a task goes, and why.
type Routing struct {
	// Language is the task's language; "" when unknown.
	Language  string `json:"language"`
	Research  string `json:"research"`
	Implement string `json:"implement"`
	Why       string `json:"why"`
}

// Route picks the agents for task t by its language: the task's own, else
// the language most of files (the files it wrote) are in, else that of the
// file names in its title and description; a language without a route of
// its own, or none, takes the default route.
func Route(o RouteOptions, t *taskboard.Task, files []string) Routing {
	lang, why := taskLanguage(t, files)
	r := Routing{Language: lang}
	own, ok := o.Languages[lang]
	switch {
	case lang == "":
		why += "; the default route"
	case !ok:
		why += "; no route for " + lang + " (tasks.routing.languages): the default route"
	default:
		why += "; the route for " + lang
	}
	r.Research = cmp.Or(own.Research, o.Default.Research)
	r.Implement = cmp.Or(own.Implement, o.Default.Implement)
	r.Why = why
	return r
}

func taskLanguage(t *taskboard.Task, files []string) (lang, why string) {
	if t.Language != "" {
		return Language(t.Language), "the task's language"
	}
	if lang, n, of := mostCommon(files); lang != "" {
		return lang, fmt.Sprintf("inferred from the files (%d of %d are %s)", n, of, lang)
	}
	if lang, _, _ := mostCommon(mentionedFiles(t.Title + "\n" + t.Description)); lang != "" {
		return lang, "inferred from the file names in the task's title and description"
	}
	return "", "no language: the task names none and none could be inferred"
}

// mostCommon is the language most of files are in (the first seen wins a
// tie), how many are, and how many files have a known language.
func mostCommon(files []string) (lang string, n, of int) {
	count := map[string]int{}
	var order []string
	for _, f := range files {
		l := FileLanguage(f)
		if l == "" {
			continue
		}
		if count[l] == 0 {
			order = append(order, l)
		}
		count[l]++
		of++
	}
	for _, l := range order {
		if count[l] > n {
			lang, n = l, count[l]
		}
	}
	return lang, n, of
}

// mentionedFiles are the words of s that look like file names: with an
// extension (main.go, *.py, .tsx) or a known file name (Dockerfile).
func mentionedFiles(s string) []string {
	words := strings.FieldsFunc(s, func(r rune) bool {
		return strings.ContainsRune(" \t\n\r,;:()[]{}<>\"'`!?", r)
	})
	var out []string
	for _, w := range words {
		w = strings.TrimRight(w, ".")
		if strings.Contains(w, ".") || languageByName.Get()[strings.ToLower(path.Base(w))] != "" {
			out = append(out, w)
		}
	}
	return out
}

// FileLanguage is the language of a file by its extension or name; ""
// when unknown.
func FileLanguage(name string) string {
	base := strings.ToLower(path.Base(strings.ReplaceAll(name, `\`, "/")))
	if l := languageByName.Get()[base]; l != "" {
		return l
	}
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		return extensions.Get()[base[i:]]
	}
	return ""
}

// Language is the canonical name of a language as people write it:
// "Golang" and "go" are go, "C++" is cpp.
func Language(s string) string {
	l := strings.ToLower(strings.TrimSpace(s))
	if a, ok := aliases.Get()[l]; ok {
		return a
	}
	return l
}

// The tables are built on first use: no work at package init, which
// every hook process would pay.
var aliases = lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{
		"golang": "go", "py": "python", "python3": "python", "ts": "typescript", "js": "javascript",
		"node": "javascript", "nodejs": "javascript", "rs": "rust", "kt": "kotlin", "c++": "cpp",
		"cxx": "cpp", "c#": "csharp", "cs": "csharp", "rb": "ruby", "sh": "shell", "bash": "shell",
		"zsh": "shell", "tf": "terraform", "hcl": "terraform", "docker": "dockerfile", "yml": "yaml",
		"md": "markdown",
	}
}}

// extensions are the languages by file extension; every language here has
// a route in the defaults (a test keeps them so).
var extensions = lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{
		".go": "go", ".py": "python", ".pyi": "python", ".ts": "typescript", ".tsx": "typescript",
		".mts": "typescript", ".cts": "typescript", ".js": "javascript", ".jsx": "javascript",
		".mjs": "javascript", ".cjs": "javascript", ".rs": "rust", ".java": "java", ".kt": "kotlin",
		".kts": "kotlin", ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp",
		".hpp": "cpp", ".hh": "cpp", ".hxx": "cpp", ".cs": "csharp", ".rb": "ruby", ".php": "php",
		".swift": "swift", ".sh": "shell", ".bash": "shell", ".zsh": "shell", ".sql": "sql",
		".tf": "terraform", ".tfvars": "terraform", ".yaml": "yaml", ".yml": "yaml",
		".md": "markdown", ".markdown": "markdown", ".lean": "lean",
	}
}}

// languageByName are the languages of files known by name.
var languageByName = lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{
		"dockerfile": "dockerfile", "containerfile": "dockerfile", "gemfile": "ruby", "rakefile": "ruby",
	}
}}
