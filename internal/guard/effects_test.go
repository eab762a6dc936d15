package guard

import (
	"slices"
	"strings"
	"testing"
)

// TestEffectsPhases: what the session's phase inference reads of a
// command, through wrappers, lists, subshells and substitutions.
func TestEffectsPhases(t *testing.T) {
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
		got := ShellEffects(Request{Tool: "shell", Command: tt.cmd, Cwd: testProject, ProjectRoot: testProject, Home: testHome})
		if got.Changes != tt.changes || got.Verifies != tt.verifies {
			t.Errorf("%q: changes %q, verifies %q; want %q, %q", tt.cmd, got.Changes, got.Verifies, tt.changes, tt.verifies)
		}
	}
}

// TestEffectsWrites: the files a command writes, with paths joined to the
// working directory (testProject), and whether some writes are unknown.
func TestEffectsWrites(t *testing.T) {
	j := func(p ...string) []string {
		out := make([]string, len(p))
		for i, s := range p {
			if !strings.HasPrefix(s, "/") {
				s = testProject + "/" + s
			}
			out[i] = s
		}
		return out
	}
	cases := []struct {
		cmd     string
		paths   []string
		unknown bool
	}{
		{"echo hi > a.txt", j("a.txt"), false},
		{"echo hi >> 'b c.txt' 2>&1", j("b c.txt"), false},
		{"cat x | tee -a out.log other.log >/dev/null", j("out.log", "other.log"), false},
		{"sed -i 's/a/b/' f.go g.go", j("f.go", "g.go"), false},
		{"sed -i.bak -e s/a/b/ f.go", j("f.go"), false},
		{"sed 's/a/b/' f.go", nil, false},
		{"perl -pi -e 's/a/b/' f.pl", j("f.pl"), true},
		{"cp a.go b.go", j("b.go"), false},
		{"cp a.go b.go dir", j("dir"), false},
		{"cp -t dir a.go b.go", j("dir"), false},
		{"mv old.go new.go", j("new.go", "old.go"), false},
		{"rm -rf build out.txt", j("build", "out.txt"), false},
		{"rm -- -weird", j("-weird"), false},
		{"touch x && mkdir -p -m 755 y/z", j("x", "y/z"), false},
		{"cd dir && echo > f", j("dir/f"), false},
		{"(cd dir; echo > f); echo > g", j("dir/f", "g"), false},
		{"bash -c 'echo x > inner.txt'", j("inner.txt"), false},
		{"echo $(echo y > sub.txt)", j("sub.txt"), false},
		{"dd if=/dev/zero of=disk.img", j("disk.img"), false},
		{"git checkout -- a.go", j("a.go"), false},
		{"git restore --source HEAD b.go", j("b.go"), false},
		{"git -C sub rm old.go", j("sub/old.go"), false},
		{"git rm --cached c.go", nil, false},
		{"git apply fix.patch", nil, true},
		{"git apply --check fix.patch", nil, false},
		{"git checkout main", nil, true},
		{"git checkout -b topic", nil, false},
		{"git reset --hard", nil, true},
		{"git clean -n", nil, false},
		{"git clean -fd", nil, true},
		{"echo > $OUT", nil, true},
		{"ls -la; cat a.go; grep -r x .", nil, false},
		{"echo x > /dev/null 2>/dev/stderr", nil, false},
		{"sudo tee /etc/hosts", j("/etc/hosts"), false},
		{"go test ./...", nil, false},
		{"chmod -x bin/tool", j("bin/tool"), false},
		{"chmod 644 a b", j("a", "b"), false},
		{"chown -R me:me dir", j("dir"), false},
		{"truncate -s 0 log", j("log"), false},
		{"sort -o sorted.txt in.txt", j("sorted.txt"), false},
		{"sort in.txt", nil, false},
		{"curl -sSLo /tmp/i.sh https://x/i.sh", j("/tmp/i.sh"), false},
		{"curl -O https://x/dl/tool.tgz", j("tool.tgz"), false},
		{"curl --output-dir out -o f https://x", j("out/f"), false},
		{"curl https://x", nil, false},
		{"wget https://x/a/b.sh", j("b.sh"), false},
		{"wget -O o.html https://x", j("o.html"), false},
		{"wget -P dl https://x/f.zip", j("dl/f.zip"), false},
		{"wget -r https://x", nil, true},
		{"tar -C out -xzf a.tgz", j("out"), false},
		{"tar -xPf a.tar -C out", nil, true},
		{"tar xzf a.tgz", nil, true},
		{"tar -czf out.tgz src", j("out.tgz"), false},
		{"tar cf out.tar src", j("out.tar"), false},
		{"tar -tzf a.tgz", nil, false},
		{"unzip -l a.zip", nil, false},
		{"unzip -d d a.zip", j("d"), false},
		{"unzip a.zip", nil, true},
		{"gzip big.log", j("big.log"), false},
		{"gzip -c big.log > big.gz", j("big.gz"), false},
		{"split -l 100 data.csv part_", j("part_*"), false},
		{"sponge f.txt", j("f.txt"), false},
		{"rsync -a src/ dst/", j("dst"), false},
		{"rsync -a src/ host:dst/", nil, false},
		{"rsync -a --remove-source-files src/ dst/", j("dst", "src"), false},
		{"rsync -an src/ dst/", nil, false},
		{"ed -s f.txt", j("f.txt"), false},
		{"vim -es -c 'x' f.txt", j("f.txt"), false},
		{"ln -s ../target link", j("link"), false},
		{"ln -s /opt/x/tool", j("tool"), false},
		{"install -d a b", j("a", "b"), false},
		{"install -m 755 tool /usr/local/bin/tool", j("/usr/local/bin/tool"), false},
		{"patch -p1 < fix.diff", nil, true},
		{"patch a.c fix.diff", j("a.c"), false},
		{"patch --dry-run -p1 < fix.diff", nil, false},
		{"gofmt -w a.go", j("a.go"), false},
		{"gofmt -l .", nil, false},
		{"prettier --write src/x.ts", j("src/x.ts"), false},
		{"black .", []string{testProject}, false},
		{"ruff format", nil, true},
		{"ruff check .", nil, false},
		{"find . -name '*.bak' -delete", nil, true},
		{"find . -name '*.go' -print", nil, false},
		{"find . -exec rm {} +", nil, true},
		{"ls | xargs rm", nil, true},
		{"python3 -c 'print(1)'", nil, true},
		{"python3 --version", nil, false},
		{"python -m pytest -x", nil, false},
		{"make", nil, true},
		{"npm install", nil, true},
		{"npm test", nil, false},
		{"go mod tidy", nil, true},
		{"npx rimraf dist", nil, true},
		{"mytool rm README.md", nil, true},
		{"ls rm x", nil, false},
		{"$EDITOR notes.md", nil, true},
		{"bash deploy.sh", nil, true},
		{"source env.sh", nil, true},
		{"cat steps.txt | sh", nil, true},
		{"bash -c \"$CMD\"", nil, true},
		{"echo 'rm x' | sh", j("x"), false},
		{"exec > out.log 2>&1", j("out.log"), false},
		{"for f in a b; do rm $f.tmp; done", j("a.tmp", "b.tmp"), false},
		{"rm *.pyc", j("*.pyc"), false},
		{"rm ~/.bashrc", j(testHome + "/.bashrc"), false},
		{"cat <<EOF > gen.go\npackage x\nEOF", j("gen.go"), false},
		{"echo 'unterminated", nil, false},
		{"rm x; )", nil, true},
	}
	for _, c := range cases {
		e := ShellEffects(Request{Tool: "shell", Command: c.cmd, Cwd: testProject, ProjectRoot: testProject, Home: testHome})
		if !slices.Equal(e.Writes, c.paths) {
			t.Errorf("%q: writes %q, want %q", c.cmd, e.Writes, c.paths)
		}
		if (len(e.Unknown) > 0) != c.unknown {
			t.Errorf("%q: unknown %q, want unknown=%v", c.cmd, e.Unknown, c.unknown)
		}
	}
}

// TestEffectsReads: plain readers' files are reads, whatever wraps them;
// an option's value, a script, a computed path or an in-place edit is not.
func TestEffectsReads(t *testing.T) {
	cases := []struct {
		cmd   string
		reads []string
	}{
		{"cat a.go", []string{"a.go"}},
		{"cat -n a.go b.go | head", []string{"a.go", "b.go"}},
		{"head -n 50 a.go", []string{"a.go"}},
		{"tail -n50 -f log.txt", []string{"log.txt"}},
		{"sed -n '1,200p' pkg/x.go", []string{"pkg/x.go"}},
		{"sed -e 's/a/b/' -n x.go", []string{"x.go"}},
		{"nl -ba x.go | sed -n '10,40p'", []string{"x.go"}},
		{"cd pkg && cat ../README.md", []string{"README.md"}},
		{"bash -c 'cat inner.go'", []string{"inner.go"}},
		{"cat /etc/hosts", []string{"/etc/hosts"}},
		{"sed -i 's/a/b/' x.go", nil},
		{"cat $F", nil},
		{"cat < a.go", nil}, // stdin: the walk sees no file argument
		{"cat -", nil},
		{"grep -n foo a.go", nil},
		{"find . -name '*.go' -exec cat {} +", nil},
	}
	for _, c := range cases {
		e := ShellEffects(Request{Tool: "shell", Command: c.cmd, Cwd: testProject, ProjectRoot: testProject, Home: testHome})
		var want []string
		for _, p := range c.reads {
			if !strings.HasPrefix(p, "/") {
				p = testProject + "/" + p
			}
			want = append(want, p)
		}
		if !slices.Equal(e.Reads, want) {
			t.Errorf("%q: reads %q, want %q", c.cmd, e.Reads, want)
		}
	}
}
