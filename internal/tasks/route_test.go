package tasks

import (
	"slices"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/taskboard"
)

func defaultRoutes(t *testing.T) RouteOptions {
	t.Helper()
	c, err := config.Load(config.Paths{})
	if err != nil {
		t.Fatal(err)
	}
	return RouteOptionsFromConfig(c)
}

func TestRoute(t *testing.T) {
	o := RouteOptions{
		Default: RouteAgents{Research: "explore", Implement: "build"},
		Languages: map[string]RouteAgents{
			"go":        {Research: "librarian", Implement: "gopher"},
			"python":    {Implement: "snake"},
			"terraform": {Research: "librarian"},
		},
	}
	for _, tc := range []struct {
		name  string
		task  taskboard.Task
		files []string
		want  Routing
		why   string
	}{
		{"task language wins over files", taskboard.Task{Language: "Golang", Title: "fix app.py"}, []string{"a.py"},
			Routing{Language: "go", Research: "librarian", Implement: "gopher"}, "the task's language; the route for go"},
		{"files: the most common language", taskboard.Task{Title: "x"}, []string{"a.py", "b.go", "c.py", "README"},
			Routing{Language: "python", Research: "explore", Implement: "snake"}, "2 of 3 are python"},
		{"files: a tie goes to the first seen", taskboard.Task{}, []string{"main.tf", "x.go"},
			Routing{Language: "terraform", Research: "librarian", Implement: "build"}, "1 of 2 are terraform"},
		{"title", taskboard.Task{Title: "Speed up handler.go and cache.go"}, nil,
			Routing{Language: "go", Research: "librarian", Implement: "gopher"}, "title and description"},
		{"description, a glob", taskboard.Task{Title: "lint", Description: "all *.py files."}, []string{"NOTES"},
			Routing{Language: "python", Research: "explore", Implement: "snake"}, "title and description"},
		{"a file known by name", taskboard.Task{Title: "slim the Dockerfile"}, nil,
			Routing{Language: "dockerfile", Research: "explore", Implement: "build"}, "no route for dockerfile"},
		{"nothing to go by", taskboard.Task{Title: "Think about the roadmap"}, nil,
			Routing{Research: "explore", Implement: "build"}, "the default route"},
	} {
		got := Route(o, &tc.task, tc.files)
		why := got.Why
		got.Why = ""
		if got != tc.want || !strings.Contains(why, tc.why) {
			t.Errorf("%s: %+v (%s), want %+v (%s)", tc.name, got, why, tc.want, tc.why)
		}
	}
}

// Every language the extension table infers has a route of its own in
// the defaults, to agents of the default roster.
func TestDefaultRoutes(t *testing.T) {
	o := defaultRoutes(t)
	langs := map[string]bool{}
	for _, l := range extensions.Get() {
		langs[l] = true
	}
	for _, l := range languageByName.Get() {
		langs[l] = true
	}
	for l := range langs {
		if _, ok := o.Languages[l]; !ok {
			t.Errorf("no default route for %s", l)
		}
	}
	roster := []string{"muaddib", "stilgar", "explore", "librarian", "build", "plan"}
	if p := o.Check(func(id string) bool { return slices.Contains(roster, id) }); len(p) != 0 {
		t.Errorf("default routes name unknown agents: %q", p)
	}
	if r := Route(o, &taskboard.Task{Title: "edit main.go"}, nil); r.Research != "explore" || r.Implement != "build" || r.Language != "go" {
		t.Errorf("%+v", r)
	}
}

func TestRouteCheck(t *testing.T) {
	o := RouteOptions{Default: RouteAgents{Research: "explore", Implement: "ghost"},
		Languages: map[string]RouteAgents{"go": {Research: "nobody"}, "rust": {Implement: "build"}}}
	got := o.Check(func(id string) bool { return id == "explore" || id == "build" })
	want := []string{
		`tasks.routing.default.implement: "ghost" is not an enabled agent of the roster (the agents section)`,
		`tasks.routing.languages.go.research: "nobody" is not an enabled agent of the roster (the agents section)`,
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%q", got)
	}
}

func TestFileLanguage(t *testing.T) {
	for name, want := range map[string]string{
		"a/b/main.go": "go", "X.PY": "python", `src\app.tsx`: "typescript", "build/Dockerfile": "dockerfile",
		"Makefile": "", "notes": "", ".bashrc": "", "lib.rs": "rust", "k8s/deploy.yml": "yaml",
	} {
		if got := FileLanguage(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

// TestRouteMissing: the built-in routes name agents of the built-in
// roster; a route to an agent the roster lacks is named.
func TestRouteMissing(t *testing.T) {
	c, err := config.Load(config.Paths{})
	if err != nil {
		t.Fatal(err)
	}
	if got := RouteOptionsFromConfig(c).Missing(c); got == nil || len(got) != 0 {
		t.Errorf("built-in routes: %q, want an empty list", got)
	}
	o := RouteOptions{Default: RouteAgents{Implement: "ghost"}}
	if got := o.Missing(c); len(got) != 1 || !strings.Contains(got[0], `"ghost"`) {
		t.Errorf("route to a ghost: %q", got)
	}
}
