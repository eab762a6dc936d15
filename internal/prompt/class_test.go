package prompt

import "testing"

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		prompt string
		want   Class
	}{
		// Questions: asked, not requested.
		{"what does this function do?", Question},
		{"why does the build fail?", Question},
		{"How is the cache invalidated", Question},
		{"is it safe to call Close twice?", Question},
		{"where do we parse the config?", Question},
		{"Should I use a mutex or a channel here?", Question},
		{"how do I fix this error?", Question},
		{"what's the difference between Load and LoadBytes?", Question},
		// Bug fixes.
		{"why does the build fail? fix it", Bugfix},
		{"fix the failing test in internal/store", Bugfix},
		{"the login page crashes when I submit an empty form", Bugfix},
		{"There's a bug in the date parsing, it returns the wrong month", Bugfix},
		{"can you fix the panic in `Decode`?", Bugfix},
		{"tests are flaky on CI since yesterday", Bugfix},
		{"investigate the crash and fix it", Bugfix},
		{"please debug why the server hangs on shutdown", Bugfix},
		{"getting this error:\n```\npanic: runtime error: index out of range\n```\nfix it", Bugfix},
		{"users report that export doesn't work anymore", Bugfix},
		{"fix the bug and add a regression test", Bugfix},
		// Features.
		{"can you add a flag", Feature},
		{"add a --json flag to the list command", Feature},
		{"implement retries with backoff for the HTTP client", Feature},
		{"We need an endpoint that returns the user's settings", Feature},
		{"could you make the CLI print a summary at the end?", Feature},
		{"write a function that parses durations like 1h30m", Feature},
		{"I want you to support YAML config files too", Feature},
		{"let's build a small dashboard for the metrics", Feature},
		// Refactors.
		{"refactor the store package to use interfaces", Refactor},
		{"rename Foo to Bar everywhere", Refactor},
		{"extract the retry logic into its own function", Refactor},
		{"this file is messy, clean it up", Refactor},
		{"split handlers.go into one file per handler", Refactor},
		{"simplify the error handling in decode.go, keep behaviour the same", Refactor},
		// Reviews.
		{"review my PR", Review},
		{"can you review the changes in the last commit?", Review},
		{"Please do a code review of internal/guard", Review},
		{"check this diff for mistakes", Review},
		{"audit the permissions code for security problems", Review},
		// Research.
		{"look into how OpenCode loads plugins and tell me", Research},
		{"compare bbolt and sqlite for our use case", Research},
		{"investigate how the cache behaves under load", Research},
		{"explain the auth flow", Research},
		{"find out which packages import internal/engine", Research},
		{"what are our options for caching? list the tradeoffs", Research},
		// Chores.
		{"bump the Go version to 1.26", Chore},
		{"update the dependencies", Chore},
		{"fix the typo in README", Chore},
		{"update the changelog for the release", Chore},
		{"format the code and commit", Chore},
		{"remove the unused CI workflow", Chore},
		// Nothing to go by.
		{"", Unknown},
		{"hello", Unknown},
		{"```\nfix the bug\n```", Unknown},
		// Words inside code and paths say nothing.
		{"run `make fix-bug`", Unknown},
	} {
		if got := Classify(Prose(tc.prompt)); got != tc.want {
			t.Errorf("Classify(%q) = %q, want %q", tc.prompt, got, tc.want)
		}
	}
}
