package session

import (
	"strings"
	"testing"
)

// TestClassifyError has one recorded output per class of the catalogue,
// plus outputs that must fall back.
func TestClassifyError(t *testing.T) {
	tests := []struct{ text, class, excerpt string }{
		{"[Request interrupted by user for tool use]", "interrupted", ""},
		{"<tool_use_error>String to replace not found in file.\nString: foo</tool_use_error>", "edit-mismatch", "String to replace not found"},
		{"Found 3 matches of the string to replace, but replace_all is false.", "edit-mismatch", ""},
		{"Auto-merging a.go\nCONFLICT (content): Merge conflict in a.go\nAutomatic merge failed", "merge-conflict", "CONFLICT (content)"},
		{"fatal: Unable to create '/r/.git/index.lock': File exists.", "lock-contention", "index.lock"},
		{"Error: database is locked", "lock-contention", ""},
		{"write /tmp/x: no space left on device", "disk-full", ""},
		{"FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory", "out-of-memory", ""},
		{"Exit code 137\nsignal: killed", "out-of-memory", ""},
		{"panic: test timed out after 10m0s", "timeout", ""},
		{"context deadline exceeded", "timeout", ""},
		{"dial tcp 127.0.0.1:5432: connect: connection refused", "network", ""},
		{"curl: (6) Could not resolve host: example.invalid", "network", ""},
		{"remote: Permission denied (publickey).", "auth", ""},
		{"Error: listen EADDRINUSE: address already in use :::3000", "port-in-use", ""},
		{"Exit code 127\nbash: line 1: pnpm: command not found", "command-not-found", "pnpm: command not found"},
		{"bash: ./deploy.sh: Permission denied", "permission-denied", ""},
		{"ModuleNotFoundError: No module named 'requests'", "module-not-found", ""},
		{"Error: Cannot find module 'lodash'", "module-not-found", ""},
		{"main.go:3:8: no required module provides package github.com/x/y", "module-not-found", ""},
		{"npm ERR! code ERESOLVE", "dependency", ""},
		{"go: updates to go.mod needed; to update it:\n\tgo mod tidy", "dependency", ""},
		{"cat: missing.txt: No such file or directory", "file-not-found", ""},
		{"--- FAIL: TestParse (0.00s)\n    parse_test.go:12: got 1\nFAIL\texample.com/p\t0.01s", "test-failure", "--- FAIL: TestParse (0.00s)"},
		{"=========== 2 failed, 10 passed in 0.5s ===========", "test-failure", ""},
		{"test result: FAILED. 3 passed; 1 failed", "test-failure", ""},
		{"  File \"x.py\", line 3\n    def f(:\n          ^\nSyntaxError: invalid syntax", "syntax-error", "SyntaxError: invalid syntax"},
		{"bash: -c: line 1: syntax error near unexpected token `)'", "syntax-error", ""},
		{"TypeError: Cannot read properties of undefined (reading 'x')", "type-error", ""},
		{"src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.", "type-error", ""},
		{"# example.com/p\n./p.go:3:2: undefined: foo", "compile-error", "./p.go:3:2: undefined: foo"},
		{"error[E0425]: cannot find value `x` in this scope", "compile-error", ""},
		{"./p.go:5:2: declared and not used: x", "compile-error", ""},
		{"✖ 4 problems (4 errors, 0 warnings)", "lint-failure", ""},
		{"would reformat src/a.py", "lint-failure", ""},
		{"goroutine 1 [running]:\npanic: runtime error: index out of range", "runtime-panic", ""},
		{"Traceback (most recent call last):\n  File \"a.py\"\nValueError: bad", "runtime-panic", ""},
		{"flag provided but not defined: -frob", "usage", ""},
		{"fatal: not a git repository (or any of the parent directories): .git", "git", ""},
		{"! [rejected]        main -> main (non-fast-forward)", "git", ""},
		{"Exit code 3", "exit-code", "Exit code 3"},
		{"something odd happened", "failed", "something odd happened"},
		{"", "failed", ""},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		class, excerpt := classifyError(tt.text)
		seen[class] = true
		if class != tt.class {
			t.Errorf("classifyError(%q) = %q, want %q", tt.text, class, tt.class)
		}
		if tt.excerpt != "" && !strings.Contains(excerpt, tt.excerpt) {
			t.Errorf("classifyError(%q) excerpt = %q, want it to contain %q", tt.text, excerpt, tt.excerpt)
		}
	}
	for _, c := range errorClasses {
		if !seen[c.Name] {
			t.Errorf("class %q has no test case", c.Name)
		}
		if c.Advice == "" {
			t.Errorf("class %q has no advice", c.Name)
		}
	}
	if len(errorClasses) < 22 {
		t.Errorf("catalogue has %d classes, want at least 22", len(errorClasses))
	}
}

func TestStrongFailure(t *testing.T) {
	for out, want := range map[string]bool{
		"ok  example.com/p 0.1s":            false,
		"--- FAIL: TestX":                   true,
		"ok\n--- FAIL: TestX":               true,
		"sh: foo: command not found":        true,
		"grep found 3 errors in log.txt":    false,
		"Traceback (most recent call last)": true,
	} {
		if got := strongFailure(out); got != want {
			t.Errorf("strongFailure(%q) = %v, want %v", out, got, want)
		}
	}
}
