package shell

import "testing"

// TestRunIntent: runners of one purpose share an intent whatever the
// program; other commands have none.
func TestRunIntent(t *testing.T) {
	for _, tc := range []struct{ cmd, want string }{
		{"npm test", IntentTest},
		{"jest src/a.test.js", IntentTest},
		{"yarn test", IntentTest},
		{"pnpm test -- --watch=false", IntentTest},
		{"npm run test:unit", IntentTest},
		{"go test ./...", IntentTest},
		{"python3 -m pytest -q", IntentTest},
		{"cargo nextest run", IntentTest},
		{"make test", IntentTest},
		{"go vet ./...", IntentLint},
		{"npm run lint", IntentLint},
		{"eslint src", IntentLint},
		{"ruff check .", IntentLint},
		{"python -m mypy src", IntentLint},
		{"cargo clippy", IntentLint},
		{"go build ./...", IntentBuild},
		{"npm run build:prod", IntentBuild},
		{"tsc -p .", IntentBuild},
		{"make", IntentBuild},
		{"cmake --build build", IntentBuild},
		{"npm ci", IntentInstall},
		{"npm install left-pad", IntentInstall},
		{"yarn", IntentInstall},
		{"pip install -r requirements.txt", IntentInstall},
		{"python3 -m pip install -e .", IntentInstall},
		{"uv pip install requests", IntentInstall},
		{"go mod download", IntentInstall},
		{"go mod graph", ""},
		{"npm run dev", ""},
		{"ls -la", ""},
		{"atreides plan phase-done", ""},
		{"eslint --fix src", ""},
	} {
		w := words(tc.cmd)
		if got := RunIntent(w[0].Text, w[1:]); got != tc.want {
			t.Errorf("RunIntent(%q) = %q, want %q", tc.cmd, got, tc.want)
		}
	}
}
