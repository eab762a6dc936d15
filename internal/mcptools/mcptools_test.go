package mcptools

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// What a call is read as: the requests the guard judges (the verdicts
// under the default policy are tested in internal/policy, through the
// guard). Requests come in the order of the argument names, sorted.
func TestRead(t *testing.T) {
	for _, tc := range []struct {
		server, tool, input string
		want                []Request
		unknown             bool
	}{
		{"filesystem", "move_file", `{"source":"a","destination":"b"}`,
			[]Request{{Tool: "write", Arg: "b"}, {Tool: "write", Arg: "a"}}, false},
		{"filesystem", "edit_file", `{"path":"a","edits":[],"dryRun":true}`, []Request{{Tool: "read", Arg: "a"}}, false},
		{"filesystem", "create_directory", `{"path":"~/x y"}`, []Request{{Tool: "shell", Arg: "mkdir -p -- ~/'x y'"}}, false},
		{"filesystem", "search_files", `{"path":"src","pattern":"*.go"}`, []Request{{Tool: "search", Arg: "src", Pattern: "*.go"}}, false},
		{"desktop-commander", "read_file", `{"path":"https://example.com/x","isUrl":true}`, nil, false},
		{"x", "read_file", `{"path":"file:///home/u/.ssh/id%5Frsa"}`, []Request{{Tool: "read", Arg: "/home/u/.ssh/id_rsa"}}, false},
		{"desktop-commander", "start_process", `{"command":"ls","shell":"python3"}`, []Request{{Tool: "shell", Arg: "python3 -c ls"}}, false},
		{"desktop-commander", "start_process", `{"command":"ls","shell":"/bin/zsh"}`, []Request{{Tool: "shell", Arg: "ls"}}, false},
		{"s", "run_command", `{"command":"cat","stdin":"it's","cwd":"sub"}`,
			[]Request{{Tool: "shell", Arg: "{ cat\n} <<< 'it'\\''s'", Dir: "sub"}}, false},
		{"s", "shell_execute", `{"command":["rm","-rf","a b"]}`, []Request{{Tool: "shell", Arg: "rm -rf 'a b'"}}, false},
		{"s", "execute", `{"command":"git","args":["status","--short"]}`, []Request{{Tool: "shell", Arg: "git status --short"}}, false},
		// An argv with shell syntax in a word is also read as a shell would.
		{"s", "execute", `{"command":"rm","args":["-rf","$HOME/x"]}`,
			[]Request{{Tool: "shell", Arg: "rm -rf '$HOME/x'"}, {Tool: "shell", Arg: "rm -rf $HOME/x"}}, false},
		{"s", "run_command", `{"commands":["ls","rm -rf ~"]}`, []Request{{Tool: "shell", Arg: "ls"}, {Tool: "shell", Arg: "rm -rf ~"}}, false},
		// Two spellings of one name: both are judged.
		{"s", "exec", `{"cmd":"ls","Cmd":"rm -rf ~"}`,
			[]Request{{Tool: "shell", Arg: "rm -rf ~"}, {Tool: "shell", Arg: "ls"}}, false},
		{"git", "git_add", `{"repo_path":"/r","files":["a","-f"]}`, []Request{{Tool: "shell", Arg: "git -C /r add -- a -f"}}, false},
		{"git", "git_diff", `{"repo_path":"/r","target":"main"}`, []Request{{Tool: "shell", Arg: "git -C /r diff main"}}, false},
		{"github", "push_files", `{"owner":"o","repo":"r","branch":"main","files":[{"path":"a"}]}`,
			[]Request{{Tool: "shell", Arg: "git push origin HEAD:refs/heads/main"}}, false},
		{"github", "merge_pull_request", `{"owner":"o","repo":"r","pullNumber":7}`,
			[]Request{{Tool: "shell", Arg: "gh pr merge 7 --repo o/r"}}, false},
		// The same tool name with another shape is not GitHub's.
		{"files", "delete_file", `{"path":"x"}`, []Request{{Tool: "shell", Arg: "rm -r -f -- x"}}, false},
		{"gitlab", "create_or_update_file", `{"project_id":"1","file_path":"a","branch":"dev"}`,
			[]Request{{Tool: "shell", Arg: "git push origin HEAD:refs/heads/dev"}}, false},
		// Guessed.
		{"x", "renameFile", `{"oldPath":"a","newPath":"b"}`, []Request{{Tool: "write", Arg: "b"}, {Tool: "write", Arg: "a"}}, false},
		{"x", "copy_dir", `{"from":"a","to":"b","target":"c"}`, []Request{{Tool: "read", Arg: "a"}, {Tool: "write", Arg: "c"}}, false},
		{"x", "summarize", `{"file":"notes.md"}`, []Request{{Tool: "read", Arg: "notes.md"}}, false},
		{"x", "explain_command", `{"command":"rm -rf ~"}`, nil, false},
		{"x", "run_tests", `{"pattern":"x"}`, nil, false},
		{"x", "execute_sql", `{"query":"drop table x"}`, nil, false},
		{"x", "run_in_terminal", `{"text":"x"}`, nil, true},
		{"x", "update_page", `{"page_id":"1"}`, nil, false},
		{"x", "write_dir", `{"name":"x"}`, nil, true},
		{"x", "docker", `{"args":["rm","-f","x"]}`, []Request{{Tool: "shell", Arg: "docker rm -f x"}}, false},
		// OpenCode: the server's name is in the tool's.
		{"", "desktop-commander_edit_block", `{"file_path":"a"}`, []Request{{Tool: "edit", Arg: "a"}}, false},
		{"", "git_git_status", `{"repo_path":"/r"}`, []Request{{Tool: "shell", Arg: "git -C /r status"}}, false},
		{"", "git_git_push", `{"path":"/r","force":true}`, []Request{{Tool: "shell", Arg: "git -C /r push --force"}}, false},
		// Not an object.
		{"x", "y", `[1]`, nil, true},
		{"x", "y", ``, nil, false},
	} {
		got := Read(tc.server, tc.tool, []byte(tc.input))
		if !slices.Equal(got.Requests, tc.want) || (got.Unknown != "") != tc.unknown {
			t.Errorf("%s %s %s:\n got %q unknown %q\nwant %q unknown %v", tc.server, tc.tool, tc.input, got.Requests, got.Unknown, tc.want, tc.unknown)
		}
	}
}

func TestReadBounds(t *testing.T) {
	many := `{"paths":[` + strings.Repeat(`"a",`, MaxRequests) + `"a"]}`
	for _, in := range []string{
		`{"path":"` + strings.Repeat("x", MaxInput) + `"}`,
		strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1),
		many,
	} {
		if c := Read("filesystem", "read_multiple_files", []byte(in)); c.Unknown == "" || len(c.Requests) > 0 {
			t.Errorf("%.40s...: %d requests, unknown %q", in, len(c.Requests), c.Unknown)
		}
	}
	// Brackets inside strings do not count as depth.
	in := `{"path":"` + strings.Repeat(`[\"{`, MaxDepth+1) + `"}`
	if c := Read("filesystem", "read_file", []byte(in)); c.Unknown != "" || len(c.Requests) != 1 {
		t.Errorf("brackets in a string: %d requests, unknown %q", len(c.Requests), c.Unknown)
	}
}

func TestWords(t *testing.T) {
	for in, want := range map[string]string{
		"read_text_file": "read text file", "readTextFile": "read text file", "get-library-docs": "get library docs",
		"git_diff_staged": "git diff staged", "HTTPGet": "httpget", "list.v2": "list v2", "": "",
	} {
		if got := strings.Join(words(in), " "); got != want {
			t.Errorf("words(%q) = %q, want %q", in, got, want)
		}
	}
}

var validTools = map[string]bool{"shell": true, "read": true, "write": true, "edit": true, "search": true}

// FuzzRead: whatever the name and arguments, reading them never panics,
// every request is for one of the guard's tools with a non-empty argument,
// and a call is either judged or an unknown write within the limits.
func FuzzRead(f *testing.F) {
	for _, s := range [][3]string{
		{"filesystem", "write_file", `{"path":"a","content":"x"}`},
		{"filesystem", "read_multiple_files", `{"paths":["a",1,null,{"path":"b"}]}`},
		{"shell", "run_command", `{"command":["rm","-rf"],"args":["x"],"stdin":"y","cwd":"/"}`},
		{"desktop-commander", "start_process", `{"command":"ls","shell":"/bin/python3"}`},
		{"git", "git_checkout", `{"repo_path":".","branch_name":"-f"}`},
		{"gitx", "git_reset", `{"path":".","mode":"hard","force":true}`},
		{"github", "merge_pull_request", `{"owner":"o","repo":"r","pullNumber":1e400}`},
		{"", "a_b_copy_file", `{"source":"~","destination":"~/x"}`},
		{"x", "run_code", `{"code":"x","language":"Python3.12"}`},
		{"x", "y", `{"a":[[[[{"b":"\"[{"}]]]]}`},
		{"x", "y", `nul`},
		{"filesystem", "move_file", `{"source":" ","destination":"\t"}`},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, server, tool, input string) {
		c := Read(server, tool, []byte(input))
		if len(c.Requests) > MaxRequests {
			t.Fatalf("%d requests", len(c.Requests))
		}
		for _, r := range c.Requests {
			if !validTools[r.Tool] {
				t.Fatalf("request for tool %q: %+v", r.Tool, r)
			}
			if r.Arg == "" || strings.TrimSpace(r.Arg) == "" {
				t.Fatalf("empty argument: %+v", r)
			}
			if r.Tool != "shell" && r.Dir != "" {
				t.Fatalf("a directory for a path request: %+v", r)
			}
		}
	})
}

// TestReadNotFooled: arguments an agent adds beside the real ones do not
// change what is judged: a remote repository's names on a local tool, a
// second working directory, a write under a verb the guard does not know.
func TestReadNotFooled(t *testing.T) {
	for _, c := range []struct {
		server, tool, in string
		want             []Request
		unknown          bool
	}{
		{"filesystem", "write_file", `{"path":"~/.bashrc","content":"x","owner":"a","repo":"b"}`,
			[]Request{{Tool: "write", Arg: "~/.bashrc"}}, false},
		{"s", "run_command", `{"command":"rm -rf .ssh","working_dir":"~","cwd":"/tmp/p"}`, nil, true},
		{"s", "run_command", `{"command":"ls","cwd":"/tmp/p","CWD":"/tmp/p"}`,
			[]Request{{Tool: "shell", Arg: "ls", Dir: "/tmp/p"}}, false},
		{"x", "download_file", `{"url":"https://x.example/a","path":"~/.bashrc"}`,
			[]Request{{Tool: "write", Arg: "~/.bashrc"}}, false},
		{"x", "extract_archive", `{"archive":"a.zip","destination":".claude"}`,
			[]Request{{Tool: "write", Arg: ".claude"}}, false},
		{"github", "get_file_contents", `{"owner":"a","repo":"b","path":".env"}`, nil, false},
	} {
		got := Read(c.server, c.tool, []byte(c.in))
		if !reflect.DeepEqual(got.Requests, c.want) || (got.Unknown != "") != c.unknown {
			t.Errorf("%s %s: got %+v unknown %q, want %+v unknown %v", c.tool, c.in, got.Requests, got.Unknown, c.want, c.unknown)
		}
	}
}
