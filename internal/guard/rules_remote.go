package guard

import "strings"

// remoteRules are registerRemote's rules, static data: loading the
// batch allocates none of them.
var remoteRules = []*Rule{
	{ID: ruleRemoteRsyncDelete, Category: "remote", Group: "remote", Verdict: Deny, Names: []string{"rsync"},
		AnyFlag: []string{"--delete", "--del", "--delete-before", "--delete-during", "--delete-delay", "--delete-after",
			"--delete-excluded", "--delete-missing-args", "--remove-source-files", "--remove-sent-files"},
		NoFlag: []string{"-n", "--dry-run", "--list-only"},
		Reason: "rsync --delete removes destination files missing from the source; run it with --dry-run and ask the user"},
	{ID: ruleRemoteScpSystem, Category: "remote", Group: "remote", Verdict: Deny, Names: []string{"scp"},
		When: whenRemoteScpSystem, Reason: "this overwrites files in a system directory of the remote machine; ask the user"},
	{ID: ruleRemoteForgetKeys, Category: "remote", Group: "remote", Verdict: Ask, Names: []string{"ssh-keygen"},
		AnyFlag: []string{"-R"}, Reason: "this removes a host's key from known_hosts; ask the user"},
	{ID: ruleRemoteForgetKeys, Category: "remote", Group: "remote", Verdict: Ask, Names: []string{"ssh-add"},
		AnyFlag: []string{"-d", "-D"}, Reason: "this removes identities from the SSH agent; ask the user"},
}

// Opt-in group "remote": copying to and syncing with other machines.
// rsync options that delete files at the destination (or the source) are
// denied unless it is a dry run; scp into a remote system directory is
// denied. Commands sent through ssh are already judged by the default rules
// as if they ran locally; this group adds nothing there. Forgetting host
// keys or agent identities asks.
func registerRemote() {
	register(remoteRules...)
	setValueOpts("scp", "-P", "-i", "-o", "-F", "-c", "-l", "-S", "-J")
	setValueOpts("rsync", "-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--exclude-from", "--include-from",
		"--files-from", "--port", "--password-file", "--log-file", "-T", "--temp-dir", "--backup-dir", "--suffix",
		"--compare-dest", "--copy-dest", "--link-dest", "--timeout", "--bwlimit", "--chmod", "--chown", "--info", "--debug")
	setValueOpts("ssh-keygen", "-f", "-R", "-t", "-b", "-C", "-N", "-P")
}

// remoteSystemPath: an absolute remote path at / or in a directory the
// system owns (the remote home and temp directories are fine).
func remoteSystemPath(p string) bool {
	if p == "/" {
		return true
	}
	for _, d := range []string{"/etc", "/boot", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/var/lib", "/opt", "/root", "/sys", "/proc", "/dev"} {
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// whenRemoteScpSystem is the condition of rule remote.scp-system.
func whenRemoteScpSystem(c *Cmd) bool {
	p := c.Pos()
	if len(p) < 2 || p[len(p)-1].Dyn {
		return false
	}
	_, path, remote := strings.Cut(p[len(p)-1].Text, ":")
	return remote && remoteSystemPath(path)
}
