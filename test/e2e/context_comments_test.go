package e2e

import (
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
)

// noisyGo narrates every statement and leaves notes about the change.
const noisyGo = `package weather

import "net/http"

// Fetch gets the weather page of a city.
func Fetch(city string) (*http.Response, error) {
	// Build the URL
	url := "https://weather.example/" + city
	// Now uses http.Get instead of the old client, as requested
	resp, err := http.Get(url)
	// Check the error
	if err != nil {
		// Return the error
		return nil, err
	}
	// Return the response
	return resp, nil
}
`

// cleanGo is documented the way Go code is: doc comments only.
const cleanGo = `// Package weather reads the weather.
package weather

import "strings"

// Normalize turns a city name into the form the service expects.
func Normalize(city string) string {
	city = strings.TrimSpace(city)
	city = strings.ToLower(city)
	return strings.ReplaceAll(city, " ", "-")
}
`

// TestClaudeCommentChecker: a comment-heavy Write with memo phrases brings
// the comment note into the next request the model receives, naming the
// file and quoting the lines; a clean Write brings none.
func TestClaudeCommentChecker(t *testing.T) {
	requireAtreides(t)
	p := NewProject(t, fa.Script{Steps: []fa.Step{
		fa.Call(writeTool("weather/fetch.go", noisyGo)),
		fa.Call(writeTool("weather/normalize.go", cleanGo)),
		fa.Text("Both files written."),
	}})
	// The stop after two unverified Go writes would get the verify nudge
	// (one more request); this test is about the comment note only.
	p.WriteFile(".atreides/config.yaml", "version: 1\ncontext:\n  work:\n    verify_before_stop: false\n", 0o644)
	p.InstallAtreides()
	p.RunClaude("write the weather package", RunOpts{})

	p.assertExists("weather/fetch.go")
	p.assertExists("weather/normalize.go")
	main := p.Fake.Main()
	if len(main) != 3 {
		t.Fatalf("got %d main requests, want 3", len(main))
	}
	if main[0].Contains("Comment check") {
		t.Error("a comment note before any write")
	}
	// The note quotes lines indented by two spaces; the file (which the
	// request also holds, as the Write's input) indents them with tabs.
	r := main[1]
	for _, want := range []string{
		"Comment check on weather/fetch.go", `read as notes about the change ("now uses")`,
		"  // Now uses http.Get instead of the old client, as requested", "  // Check the error", "  // Return the response",
	} {
		if !r.Contains(want) {
			t.Errorf("the request after the noisy Write lacks %q", want)
		}
	}
	if r.Contains("  // Fetch gets the weather page") {
		t.Error("the doc comment was quoted as noise")
	}
	if n := main[2].CountMessagesContaining("Comment check on"); n != 1 {
		t.Errorf("after the clean Write %d messages carry a comment note, want 1 (the first one)", n)
	}
	if main[2].Contains("normalize.go:") || main[2].Contains("Comment check on weather/normalize.go") {
		t.Error("the clean Write got a comment note")
	}
}
