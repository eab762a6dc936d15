package config

import (
	"strings"
	"testing"
)

// TestKeywordModesMerge: modes are keyed by name, so a layer changes one
// field of a mode, adds a mode or removes one without repeating the rest.
func TestKeywordModesMerge(t *testing.T) {
	p, _ := setup(t, `context:
  keywords:
    modes:
      ultrawork: {once: false}
      review me: {keywords: [review me], text: "Review mode."}
`, `context:
  keywords:
    modes:
      review me: ~
`)
	c, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	m := c.Context.Keywords.Modes
	u, ok := m["ultrawork"]
	if !ok || u.Once || len(u.Keywords) != 2 || !strings.Contains(u.Text, "maximum effort") || u.Priority != "high" {
		t.Errorf("ultrawork after a user change of once: %+v", u)
	}
	if _, ok := m["review me"]; ok {
		t.Error("a mode removed by the project layer is still there")
	}
}

func TestKeywordModeErrors(t *testing.T) {
	p, rel := setup(t, "", `context:
  keywords:
    modes:
      x: {keywords: ["ulw.go", ""], priority: urgent}
`)
	_, err := Load(p)
	if err == nil {
		t.Fatal("invalid keywords and priority accepted")
	}
	got := rel(err.Error())
	for _, want := range []string{`"ulw.go": a keyword is letters`, "empty keyword", `"urgent" is not one of`} {
		if !strings.Contains(got, want) {
			t.Errorf("errors lack %q:\n%s", want, got)
		}
	}
}
