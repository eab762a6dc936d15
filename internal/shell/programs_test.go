package shell

import "testing"

func TestWritesAnything(t *testing.T) {
	tests := []struct {
		name, sub string
		want      bool
	}{
		{"make", "", true}, // every invocation of a task runner
		{"make", "test", true},
		{"npx", "prettier", true},
		{"npm", "", false}, // the program alone: only some subcommands write
		{"npm", "install", true},
		{"npm", "i", true},
		{"npm", "test", false},
		{"go", "generate", true},
		{"go", "build", false}, // a build's outputs go where the project puts them
		{"go", "test", false},
		{"cargo", "fmt", true},
		{"cargo", "check", false},
		{"mix", "deps.get", true},
		{"mix", "deps", false},
		{"cat", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		if got := WritesAnything(tt.name, tt.sub); got != tt.want {
			t.Errorf("WritesAnything(%q, %q) = %v, want %v", tt.name, tt.sub, got, tt.want)
		}
	}
}

func TestHarmlessDevice(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{"/dev/null", true},
		{"/dev/stderr", true},
		{"/dev/tty", true},
		{"/dev/fd/3", true},
		{"/dev/fd", false}, // the directory, not one of its streams
		{"/dev/sda", false},
		{"/dev/nullx", false},
		{"null", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := HarmlessDevice(tt.path); got != tt.want {
			t.Errorf("HarmlessDevice(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

func TestReader(t *testing.T) {
	tests := []struct {
		name, valued string
		ok           bool
	}{
		{"cat", "", true},
		{"head", "nc", true}, // head -n 5 FILE: 5 is no file
		{"sed", "efl", true},
		{"rm", "", false},
		{"grep", "", false}, // prints matching lines, not the files
		{"", "", false},
	}
	for _, tt := range tests {
		valued, ok := Reader(tt.name)
		if valued != tt.valued || ok != tt.ok {
			t.Errorf("Reader(%q) = %q, %v, want %q, %v", tt.name, valued, ok, tt.valued, tt.ok)
		}
	}
}
