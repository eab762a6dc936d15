// Command hooktime times whole hook processes the way a host runs them: it
// starts the binary once per run with a payload on stdin and measures from
// start to reap, plus the child's peak resident memory. Cases are
// interleaved round-robin so background noise hits all of them alike.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() {
	runs := flag.Int("n", 200, "runs per case")
	warmup := flag.Int("warmup", 10, "untimed runs per case first")
	dir := flag.String("dir", "", "working directory and project dir of the hook (default: a fresh temp dir)")
	hostName := flag.String("host", "claude", "host protocol to speak: claude, gemini or codex")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: hooktime [-n N] [-warmup N] [-dir DIR] [-host HOST] BINARY PAYLOAD.json...\n\nRuns 'BINARY hook HOST' with each payload on stdin and prints the median,\np90 and p99 wall time and the peak RSS per payload. __PROJ__ in a payload\nis replaced by the project dir.\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() < 2 {
		flag.Usage()
		os.Exit(2)
	}
	env, ok := hostEnv[*hostName]
	if !ok {
		fmt.Fprintf(os.Stderr, "hooktime: unknown host %q\n", *hostName)
		os.Exit(2)
	}
	if err := run(flag.Arg(0), flag.Args()[1:], *runs, *warmup, *dir, *hostName, env); err != nil {
		fmt.Fprintln(os.Stderr, "hooktime:", err)
		os.Exit(1)
	}
}

// hostEnv names the variables each host sets to the project dir for its
// hooks, so a timed run sees what a real one does. Codex sets none: its
// hooks find the project from the payload's cwd.
var hostEnv = map[string][]string{
	"claude": {"CLAUDE_PROJECT_DIR"},
	"gemini": {"GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"},
	"codex":  nil,
}

type sample struct {
	wall time.Duration
	rss  int64 // KiB
}

func run(bin string, payloads []string, runs, warmup int, dir, hostName string, envVars []string) error {
	if dir == "" {
		d, err := os.MkdirTemp("", "hooktime-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	inputs := make([][]byte, len(payloads))
	for i, p := range payloads {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		inputs[i] = bytes.ReplaceAll(b, []byte("__PROJ__"), []byte(dir))
	}
	samples := make([][]sample, len(payloads))
	for r := -warmup; r < runs; r++ {
		for k := range payloads {
			i := (k + max(r, 0)) % len(payloads) // rotate the order
			s, err := once(bin, dir, hostName, envVars, inputs[i])
			if err != nil {
				return fmt.Errorf("%s: %w", payloads[i], err)
			}
			if r >= 0 {
				samples[i] = append(samples[i], s)
			}
		}
	}
	fmt.Printf("%-28s %8s %8s %8s %10s  (hook %s, n=%d)\n", "payload", "p50 ms", "p90 ms", "p99 ms", "maxRSS MB", hostName, runs)
	for i, p := range payloads {
		walls := make([]time.Duration, len(samples[i]))
		var rss int64
		for j, s := range samples[i] {
			walls[j], rss = s.wall, max(rss, s.rss)
		}
		slices.Sort(walls)
		fmt.Printf("%-28s %8.2f %8.2f %8.2f %10.1f\n", strings.TrimSuffix(filepath.Base(p), ".json"),
			ms(pct(walls, 50)), ms(pct(walls, 90)), ms(pct(walls, 99)), float64(rss)/1024)
	}
	return nil
}

func once(bin, dir, hostName string, envVars []string, input []byte) (sample, error) {
	cmd := exec.Command(bin, "hook", hostName)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	for _, v := range envVars {
		cmd.Env = append(cmd.Env, v+"="+dir)
	}
	cmd.Stdin = bytes.NewReader(input)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
			return sample{}, fmt.Errorf("%v: %s", err, out.String())
		}
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss
	}
	return sample{wall: wall, rss: rss}, nil
}

func pct(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[(len(sorted)-1)*p/100]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
