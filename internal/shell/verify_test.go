package shell

import (
	"strings"
	"testing"
)

func words(s string) []Word {
	var out []Word
	for _, f := range strings.Fields(s) {
		out = append(out, Lit(f))
	}
	return out
}

func TestVerifier(t *testing.T) {
	for _, tc := range []struct{ cmd, want string }{
		{"go test ./...", "go test"},
		{"go run .", ""},
		{"npm run lint:ci", "npm run lint:ci"},
		{"npm run dev", ""},
		{"pnpm test", "pnpm test"},
		{"python3 -m pytest -q", "python3 -m pytest"},
		{"python3 -m http.server", ""},
		{"ruff check --fix", ""},
		{"ruff check .", "ruff check"},
		{"rake", "rake"},
		{"rake db:migrate", ""},
		{"cmake --build build", "cmake --build"},
		{"eslint --fix src", ""},
		{"prettier -c .", "prettier --check"},
		{"make", "make"},
		{"make test", "make test"},
		{"cargo clippy --all", "cargo clippy"},
		{"cargo run", ""},
		{"gradlew build", "gradlew build"},
		{"zig fmt .", ""},
		{"pytest -x", "pytest"},
		{"atreides plan phase-done", "atreides plan phase-done"},
		{"atreides plan show", ""},
		{"ls -la", ""},
	} {
		w := words(tc.cmd)
		if got := Verifier(w[0].Text, w[1:]); got != tc.want {
			t.Errorf("Verifier(%q) = %q, want %q", tc.cmd, got, tc.want)
		}
	}
	if dyn := []Word{dynWord(), Lit("./...")}; Verifier("go", dyn) != "" {
		t.Error("a subcommand known only at run time counted as a verification")
	}
}

func TestVerifyModule(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want bool
	}{
		{"python -m pytest", true},
		{"python3.12 -m mypy src", true},
		{"python -W ignore -m pytest", false}, // -m is not the program's first word
		{"python -m mymodule", false},
		{"node -m pytest", false},
		{"python", false},
	} {
		w := words(tc.cmd)
		if got := VerifyModule(w[0].Text, w[1:]); got != tc.want {
			t.Errorf("VerifyModule(%q) = %v, want %v", tc.cmd, got, tc.want)
		}
	}
}
