package prompt

import "testing"

var ultrawork = []string{"ultrawork", "ulw"}

func TestFind(t *testing.T) {
	for _, tc := range []struct {
		prompt string
		want   string // "" for no match
	}{
		{"ultrawork: fix the login flow", "ultrawork"},
		{"ULW add a --verbose flag", "ulw"},
		{"please fix the parser, ulw.", "ulw"},
		{"(ultrawork) refactor the store", "ultrawork"},
		{"do it *ultrawork* style", "ultrawork"},
		{"“ulw” on this one", "ulw"},
		{"first line\nulw\nlast line", "ulw"},
		{"ultrawork's rules apply", "ultrawork"},
		{"ulw!", "ulw"},
		{"Ultrawork?", "ultrawork"},
		// False triggers: names, paths, code, URLs, flags, longer words.
		{"open ulw.go and read it", ""},
		{"look at src/ultrawork/x and tell me", ""},
		{"see C:\\work\\ulw\\a.txt", ""},
		{"run the tool with --ulw", ""},
		{"run the tool with -ulw", ""},
		{"the multiworkload test is slow", ""},
		{"ultraworks are not a thing", ""},
		{"rename ulw_test to something", ""},
		{"the ulw-mode branch", ""},
		{"the `ulw` function is slow", ""},
		{"the ``ulw ` x`` span", ""},
		{"see https://example.com/ultrawork for details", ""},
		{"see www.ulw.dev", ""},
		{"mail me at ulw@example.com", ""},
		{"```\nulw\n```\nwhat does this print?", ""},
		{"~~~go\nultrawork()\n~~~", ""},
		{"here is the code:\n\n    ulw := 1\n    return ulw\n\nwhy?", ""},
		{"<ulw> tag in the template", ""},
		{"$ulw is unset", ""},
		{"ulw=1 make test", ""},
		{"call ulw() twice", ""},
		// Indented text right after a paragraph line is a continuation, not code.
		{"steps:\n    ulw and fix it", "ulw"},
		// A fence that never closes hides the rest.
		{"```\nulw", ""},
		// A lone backtick is literal and spoils only its own chunk.
		{"don`t ulw", "ulw"},
	} {
		got, ok := Find(Prose(tc.prompt), ultrawork)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("Find(%q) = %q, %v; want %q", tc.prompt, got, ok, tc.want)
		}
	}
}

func TestFindMultiWord(t *testing.T) {
	kw := []string{"deep research"}
	for _, tc := range []struct {
		prompt string
		want   bool
	}{
		{"do a deep research on caching", true},
		{"Deep  Research: caching", true},
		{"go deep. research caching", false},
		{"deep `x` research", false},
		{"deep/research", false},
	} {
		if _, ok := Find(Prose(tc.prompt), kw); ok != tc.want {
			t.Errorf("Find(%q) = %v, want %v", tc.prompt, ok, tc.want)
		}
	}
}
