//go:build linux

package e2e

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/ptytest"
	fg "github.com/atreides-dev/atreides/test/e2e/fakegemini"
)

// TestGeminiCompressMemory drives the interactive Gemini CLI in a
// pseudo-terminal (`gemini -p "/compress"` does not compress: the
// command's action starts the compression without waiting for it, and
// the text goes to the model as a prompt). A prompt makes an anchor;
// /compress fires PreCompress "manual", where atreides takes its
// snapshot; Gemini fires nothing after a compression, so the next prompt
// (BeforeAgent) carries the state block with the anchor, and the one
// after it does not carry it again.
func TestGeminiCompressMemory(t *testing.T) {
	p := newGeminiProject(t, fg.Script{Steps: []fg.Step{fg.Text("Noted."), fg.Text("Resumed."), fg.Text("Fine.")}})
	p.writeGeminiHooks()
	master, term := ptytest.Open(t)
	ptytest.Resize(t, term, 120, 40)
	sc := &ptytest.Screen{}
	done := make(chan struct{})
	defer close(done)
	go sc.Read(master, done)

	cmd := exec.Command(p.bin)
	cmd.Dir = p.Dir
	cmd.Env = append(p.baseEnv(), "GOOGLE_GEMINI_BASE_URL="+p.Fake.URL, "GEMINI_API_KEY=fake-key",
		"GEMINI_CLI_TRUST_WORKSPACE=true", "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = term, term, term
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		select {
		case <-exited:
		default:
			_ = cmd.Process.Signal(os.Interrupt)
			_ = cmd.Process.Kill()
			<-exited // bounded: WaitDelay
		}
	})

	// type_ types text into the input box, waits until it shows there,
	// then submits it.
	type_ := func(text string) {
		t.Helper()
		from := sc.Len()
		if _, err := master.Write([]byte(text)); err != nil {
			t.Fatal(err)
		}
		sc.Expect(t, from, text[len(text)-6:], 30*time.Second)
		time.Sleep(300 * time.Millisecond)
		if _, err := master.Write([]byte("\r")); err != nil {
			t.Fatal(err)
		}
	}
	// The project's agents (atreides install wrote them) are new to Gemini:
	// it asks once; acknowledge.
	sc.Expect(t, 0, "Acknowledge and Enable", 60*time.Second)
	from := sc.Len()
	if _, err := master.Write([]byte("\r")); err != nil {
		t.Fatal(err)
	}
	sc.Expect(t, from, "Type your message", 30*time.Second)
	time.Sleep(time.Second) // the input box has the focus again
	waitMain := func(n int) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for len(p.Fake.Main()) < n {
			if time.Now().After(deadline) {
				t.Fatalf("gemini sent %d conversation requests, want %d; the terminal shows:\n%q", len(p.Fake.Main()), n, tail(sc.Text(), 3000))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	from = sc.Len()
	type_("remember: the release branch is frozen-9")
	waitMain(1)
	sc.Expect(t, from, "Noted.", 30*time.Second)

	from = sc.Len()
	type_("/compress")
	// Gemini reports the outcome (compressed, or nothing to compress)
	// once the compression ran; PreCompress came before it.
	sc.Expect(t, from, "ompress", 60*time.Second)
	time.Sleep(2 * time.Second)

	from = sc.Len()
	type_("continue")
	waitMain(2)
	sc.Expect(t, from, "Resumed.", 30*time.Second)
	type_("go on please")
	waitMain(3)

	main := p.Fake.Main()
	if !main[1].Contains("ATREIDES STATE") || !main[1].Contains("frozen-9") {
		t.Errorf("the prompt after /compress does not carry the state block with the anchor:\n%s", p.Fake.Summary())
	}
	if main[0].Contains("ATREIDES STATE") {
		t.Error("the state block came before any compression")
	}
	// The next request holds the conversation so far: the block once.
	if n := strings.Count(string(main[2].Raw), "END ATREIDES STATE"); n != 1 {
		t.Errorf("the request after the next prompt holds %d state blocks, want the one already delivered", n)
	}
}
