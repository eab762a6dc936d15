package tmpfstest

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// inNamespace marks the test binary run again by runInNamespace.
const inNamespace = "ATREIDES_TEST_IN_USERNS"

// Mount mounts a tmpfs of size (a mount option such as "64k") on a new
// temporary directory, unmounted at the end of the test, and returns the
// directory. When mounting is not permitted, it runs the calling test
// again in a user and mount namespace, fails t with that run's output if
// it failed, and returns "": the caller then returns at once, its test
// having run in the namespace. Any other failure to mount fails t.
func Mount(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		if os.Getenv(inNamespace) != "" || !errors.Is(err, syscall.EPERM) {
			t.Fatalf("mount a %s tmpfs: %v", size, err)
		}
		runInNamespace(t)
		return ""
	}
	t.Cleanup(func() {
		if err := unix.Unmount(dir, unix.MNT_DETACH); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}

// Resize changes the size of a tmpfs Mount made, as when space comes back.
func Resize(t *testing.T, dir, size string) {
	t.Helper()
	if err := unix.Mount("tmpfs", dir, "tmpfs", unix.MS_REMOUNT, "size="+size); err != nil {
		t.Fatalf("remount %s: %v", dir, err)
	}
}

// runInNamespace runs the calling test again in a new user and mount
// namespace, mapped to the caller's ids, and fails with its output if it
// fails there.
func runInNamespace(t *testing.T) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run", "^"+t.Name()+"$", "-test.v")
	cmd.Env = append(os.Environ(), inNamespace+"=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("in a user namespace (needed to mount a tmpfs without root): %v\n%s", err, out)
	}
}
