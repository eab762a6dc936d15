//go:build linux

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
)

// trueRSS reports whether peakRSS measures the process's own peak.
const trueRSS = true

// peakRSS runs cmd to its end and returns the peak resident set of the
// program it execs: its own, not inherited. The kernel's rusage
// figure for a child (ru_maxrss) starts at the high-water mark of the
// address space it leaves at exec, which for a child started by a Go
// program (vfork: the starter's own address space) is the starter's
// peak, often larger than the hook's. VmHWM in /proc/PID/status is the
// high-water mark of the process's current address space alone, the one
// exec created; it can only be read while the process is alive, so the
// child is traced: PTRACE_O_TRACEEXIT stops it as it exits, before its
// memory is released, VmHWM is read, and it is let go. Tracing costs time,
// so these runs are never among the timed ones.
func peakRSS(cmd *exec.Cmd) (memory, error) {
	// The tracer is the OS thread that started the child: every ptrace
	// request must come from it.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Ptrace = true
	if err := cmd.Start(); err != nil {
		return memory{}, err
	}
	pid := cmd.Process.Pid
	var ws syscall.WaitStatus
	// The child stops with SIGTRAP once exec has succeeded.
	if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil || !ws.Stopped() {
		cmd.Process.Kill()
		cmd.Wait()
		return memory{}, fmt.Errorf("traced start: %v (status %v)", err, ws)
	}
	if err := syscall.PtraceSetOptions(pid, syscall.PTRACE_O_TRACEEXIT|ptraceExitKill); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return memory{}, fmt.Errorf("ptrace options: %w", err)
	}
	var m memory
	sig := 0
	for {
		if err := syscall.PtraceCont(pid, sig); err != nil {
			break
		}
		if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil {
			return memory{}, err
		}
		if ws.Exited() || ws.Signaled() {
			// Reaped here: os/exec's Wait would find no child.
			return m, exitErr(ws)
		}
		sig = 0
		if ws.TrapCause() == syscall.PTRACE_EVENT_EXIT {
			var err error
			if m, err = readMemory(pid); err != nil {
				return memory{}, err
			}
		} else if s := ws.StopSignal(); s != syscall.SIGTRAP {
			sig = int(s) // a signal meant for the child: deliver it
		}
	}
	return m, nil
}

// exitErr is nil for the exit codes a hook may end with (0, and 2 for a
// refusal by exit code), an error otherwise.
func exitErr(ws syscall.WaitStatus) error {
	if ws.Exited() && (ws.ExitStatus() == 0 || ws.ExitStatus() == 2) {
		return nil
	}
	return fmt.Errorf("traced run ended with status %v", ws)
}

// readMemory reads the VmHWM and RssAnon lines of /proc/PID/status.
func readMemory(pid int) (memory, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return memory{}, err
	}
	var m memory
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), ":")
		n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		switch k {
		case "VmHWM":
			m.peak = n
		case "RssAnon":
			m.anon = n
		}
	}
	if m.peak == 0 {
		return m, fmt.Errorf("no VmHWM in /proc/%d/status", pid)
	}
	return m, nil
}

// ptraceExitKill (PTRACE_O_EXITKILL, which package syscall lacks) kills
// the traced child if hooktime dies first.
const ptraceExitKill = 0x100000
