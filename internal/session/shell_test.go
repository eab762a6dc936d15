package session

import "testing"

func TestAnalyzeShell(t *testing.T) {
	tests := []struct {
		cmd               string
		changes, verifies string
	}{
		{"ls -la", "", ""},
		{"cat go.mod | grep module", "", ""},
		{"git status && git diff", "", ""},
		{"echo hi > out.txt", "redirect > out.txt", ""},
		{"echo hi >> log.txt", "redirect >> log.txt", ""},
		{"go build ./... 2>/dev/null", "", "go build"},
		{"go test ./... 2>&1", "", "go test"},
		{"ls > /dev/null", "", ""},
		{"echo x | tee a.txt", "tee", ""},
		{"echo x | tee", "", ""},
		{"sed -i 's/a/b/' f.go", "sed -i", ""},
		{"sed -i.bak -e s/a/b/ f.go", "sed -i", ""},
		{"sed 's/a/b/' f.go", "", ""},
		{"perl -pi -e 's/a/b/' f", "perl -i", ""},
		{"mv a b", "mv", ""},
		{"/bin/rm -f x", "rm", ""},
		{"sudo -E mkdir -p /opt/x", "mkdir", ""},
		{"touch new", "touch", ""},
		{"cp -r a b", "cp", ""},
		{"git commit -m 'x'", "git commit", ""},
		{"git -C sub apply p.diff", "git apply", ""},
		{"git checkout -- file", "git checkout", ""},
		{"git log --oneline", "", ""},
		{"gofmt -l .", "", ""},
		{"gofmt -w .", "gofmt -w", ""},
		{"cd web && npm test", "", "npm test"},
		{"npm run test:unit -- --watch=false", "", "npm run test:unit"},
		{"npm run dev", "", ""},
		{"npx tsc --noEmit", "", "tsc"},
		{"npx eslint src", "", "eslint"},
		{"npx eslint --fix src", "eslint --fix", ""},
		{"pytest -x tests/", "", "pytest"},
		{"python -m pytest -k parse", "", "python -m pytest"},
		{"cargo test --all", "", "cargo test"},
		{"cargo build --release", "", "cargo build"},
		{"make", "", "make"},
		{"make lint", "", "make lint"},
		{"env CGO_ENABLED=0 go vet ./...", "", "go vet"},
		{"FOO=1 timeout 60 go test -run X ./p", "", "go test"},
		{"(cd sub; go test ./...) | tee test.log", "tee", "go test"},
		{"bundle exec rspec", "", "rspec"},
		{"golangci-lint run", "", "golangci-lint"},
		{"mvn -q test", "", "mvn test"},
		{"./gradlew build", "", "gradlew build"},
		{"for f in *.go; do gofmt -w $f; done", "gofmt -w", ""},
		{"echo 'unterminated", "", ""}, // does not parse: word by word
		{"echo x > 'out file'", "redirect > out file", ""},
	}
	for _, tt := range tests {
		got := analyzeShell(tt.cmd)
		if got.Changes != tt.changes || got.Verifies != tt.verifies {
			t.Errorf("analyzeShell(%q) = {changes %q, verifies %q}, want {%q, %q}", tt.cmd, got.Changes, got.Verifies, tt.changes, tt.verifies)
		}
	}
}

func TestNextPhase(t *testing.T) {
	tests := []struct {
		cur   string
		calls int
		act   activity
		want  string
	}{
		{"", 0, actNone, ""},
		{"", 0, actRead, "assessment"},
		{"intent", 0, actRead, "assessment"},
		{"assessment", 2, actRead, "assessment"},
		{"assessment", 3, actRead, "exploration"},
		{"exploration", 9, actRead, "exploration"},
		{"assessment", 0, actVerify, "assessment"}, // tests before any change are exploration-like
		{"exploration", 0, actChange, "implementation"},
		{"implementation", 0, actRead, "implementation"},
		{"implementation", 0, actVerify, "verification"},
		{"verification", 0, actRead, "verification"},
		{"verification", 0, actChange, "implementation"},
		{"verification", 0, actNone, "verification"},
	}
	for _, tt := range tests {
		if got := nextPhase(tt.cur, tt.calls, tt.act); got != tt.want {
			t.Errorf("nextPhase(%q, %d, %d) = %q, want %q", tt.cur, tt.calls, tt.act, got, tt.want)
		}
	}
}

func TestNormalizeCommand(t *testing.T) {
	for in, want := range map[string]string{
		"go test ./...":                       "go test ./...",
		"  go   test\t./...  ":                "go test ./...",
		"go test ./... 2>&1 | tail -20":       "go test ./...",
		"go test ./... | grep FAIL | head -5": "go test ./...",
		"go test ./... | go run ./cmd/format": "go test ./... | go run ./cmd/format",
		"npm test":                            "npm test",
	} {
		if got := normalizeCommand(in); got != want {
			t.Errorf("normalizeCommand(%q) = %q, want %q", in, got, want)
		}
	}
}
