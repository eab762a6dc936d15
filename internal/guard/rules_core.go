package guard

import (
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

// core1Rules are registerCore1's rules, static data: loading the
// batch allocates none of them.
var core1Rules = []*Rule{
	{ID: ruleParseError, Category: "parse", Verdict: Deny,
		Reason: "the command could not be parsed and contains dangerous text; fix the quoting and retry"},
	{ID: ruleParseUnreadable, Category: "parse", Verdict: Ask,
		Reason: "the command could not be parsed, so the guard cannot verify it; fix the quoting or ask the user"},
	{ID: ruleParseTooComplex, Category: "parse", Verdict: Deny,
		Reason: "the command is too large or too deeply nested to verify; split it into smaller commands"},
	{ID: ruleDynamicCommand, Category: "dynamic", Switch: "strict_dynamic",
		Reason: "the program to run is computed at run time and cannot be verified; write the command out literally"},
	{ID: ruleDynamicCode, Category: "dynamic", Switch: "strict_dynamic",
		Reason: "code built at run time is executed and cannot be verified; write the command out literally"},
	{ID: ruleDynamicScript, Category: "dynamic", Switch: "strict_dynamic",
		Reason: "the script path is computed at run time; name the script literally"},
	{ID: ruleDynamicStdinScript, Category: "dynamic", Switch: "strict_dynamic",
		Reason: "a shell reads its script from another command's output; run the script file directly so it can be checked"},
	{ID: ruleDynamicStreamCommand, Category: "dynamic", Verdict: Deny,
		Reason: "commands are assembled from stdin (xargs/parallel/find) and cannot be verified; list the commands explicitly"},
	{ID: ruleDynamicStreamCode, Category: "dynamic", Verdict: Deny,
		Reason: "code arriving on stdin is executed by a shell or interpreter; write the code out literally"},
	{ID: ruleRcePipeToShell, Category: "rce", Verdict: Deny,
		Reason: "downloaded text is executed directly; download to a file, review it, then ask the user to run it"},
	{ID: ruleRceRemoteCode, Category: "rce", Verdict: Deny,
		Reason: "downloaded text is executed (eval/sh -c/source of a download); download and review it first"},
	{ID: ruleRceDecodeToShell, Category: "rce", Verdict: Deny,
		Reason: "decoded or transformed text is executed, hiding what runs; run the plain command instead"},
	{ID: ruleRceObfuscated, Category: "rce", Verdict: Ask,
		Reason: "decoded text is executed; run the plain command instead so it can be checked"},
	{ID: ruleRceDownloadExec, Category: "rce", Verdict: Ask,
		Reason: "a file downloaded in the same command is executed; review it before running"},
	{ID: ruleSecretRead, Category: "secret", Verdict: Deny,
		Reason: "this reads, copies or sends a secret file; do not access credentials, ask the user for the value you need"},
	{ID: ruleSecretInlineName, Category: "secret", Verdict: Ask,
		Reason: "this inline program names a secret file; the code can reach it in ways the guard cannot follow (eval, template tags, dynamic requires); ask the user, or pass only the non-secret value it needs"},
	{ID: ruleSecretWrite, Category: "secret", Verdict: Deny,
		Reason: "this overwrites a secret file; ask the user to change credentials themselves"},
	{ID: ruleExfilPipeToNetwork, Category: "exfiltration", Verdict: Deny,
		Reason: "secrets or environment variables are sent to the network; never send credentials anywhere"},
	{ID: ruleExfilObfuscated, Category: "exfiltration", Verdict: Deny,
		Reason: "decoded data is sent to the network; send only data you can show the user"},
	{ID: ruleExfilUploadSensitive, Category: "exfiltration", Verdict: Deny,
		Reason: "a sensitive file is uploaded; never upload credentials or system files"},
	{ID: ruleExfilFileUpload, Category: "exfiltration", Verdict: Ask,
		Reason: "a local file is uploaded to a remote server; ask the user first"},
	{ID: ruleExfilSuspiciousHost, Category: "exfiltration", Verdict: Deny,
		Reason: "the destination is a raw public IP or a request-capture service typical of exfiltration; use the project's real endpoints"},
	{ID: ruleExfilInline, Category: "exfiltration", Verdict: Deny,
		Reason: "an inline program reads a sensitive file and uses the network; do not send local files anywhere"},
	{ID: ruleExfilDevTcp, Category: "exfiltration", Verdict: Deny,
		Reason: "writing to /dev/tcp or /dev/udp opens a raw network connection (exfiltration or reverse shell)"},
	{ID: ruleExfilTunnel, Category: "exfiltration", Verdict: Deny, Names: []string{"iodine", "iodined", "dnscat", "dnscat2", "dns2tcp"},
		Reason: "DNS tunnelling tools move data past network controls; not allowed"},
	{ID: ruleDiskWriteDevice, Category: "disk", Verdict: Deny,
		Reason: "writing to a block device destroys the filesystem on it; work on an image file instead"},
	{ID: ruleFsWriteCritical, Category: "filesystem", Verdict: Deny,
		Reason: "this overwrites a critical system file (accounts, sudoers, boot); ask the user to make the change"},
	{ID: ruleFsWriteSystem, Category: "filesystem", Verdict: Ask,
		Reason: "this writes into a system directory; ask the user first"},
	{ID: ruleFsWriteStartup, Category: "filesystem", Verdict: Ask,
		Reason: "this changes a shell startup file or authorized_keys (code that runs at every login); ask the user first"},
	{ID: ruleSystemForkBomb, Category: "system", Verdict: Deny,
		Reason: "a function that spawns copies of itself (fork bomb) exhausts the machine; not allowed"},
	{ID: ruleGitAliasConfig, Category: "git", Verdict: Ask,
		Reason: "git configuration injected on the command line or environment (aliases, commands) hides what runs; use plain git commands"},
	{ID: ruleGitSshEnv, Category: "git", Verdict: Ask,
		Reason: "GIT_SSH_COMMAND-style variables run a command; set them explicitly in config after asking the user"},
	{ID: ruleInterpOneLiner, Category: "dynamic", Switch: "interpreter_one_liners",
		Reason: "inline interpreter programs are not allowed in this mode; write a script file"},
	{ID: ruleInterpDeleteApi, Category: "filesystem", Switch: "interpreter_api_calls",
		Reason: "an inline program deletes a critical path (root, home, system); do not delete outside the project"},
	{ID: rulePrivilegeSudo, Category: "privilege", Switch: "sudo", Names: nil,
		Reason: "running commands as root is not allowed in this mode; ask the user to run it"},
	{ID: ruleStrictUnverifiable, Category: "strict", Switch: "strict_unverifiable",
		Reason: "this cannot be fully verified before it runs (strict mode); write the command out literally without substitutions, heredocs or variables"},
	{ID: ruleParseRawText, Category: "parse", Verdict: Ask,
		Reason: "the program name contains spaces or shell operators, so it will not run as written, and it reads like a dangerous command; write it as a normal command"},
	{ID: ruleHeredocDangerousData, Category: "heredoc", Switch: "heredoc_to_non_shell",
		Reason: "heredoc text fed to a command that does not run it reads like a dangerous command; make sure it is only data"},
	{ID: ruleInterpDeleteAny, Category: "filesystem", Switch: "interpreter_delete_any",
		Reason: "an inline program deletes files through a delete API; use rm on the exact paths so it can be checked, or ask the user"},
	{ID: rulePrivilegeRootShell, Category: "privilege", Verdict: Deny,
		Reason: "opening a root shell (sudo -i/-s, sudo su, sudo bash) escapes every check; run the specific command instead"},
}

// Rules the analysis fires directly (no command name): parse outcomes,
// dynamic code, remote code, exfiltration, secrets, redirections.
func registerCore1() {
	register(core1Rules...)
}

// core2Rules are registerCore2's rules, static data: loading the
// batch allocates none of them.
var core2Rules = []*Rule{
	{ID: ruleFsRmRootHome, Category: "filesystem", Verdict: Deny, Names: []string{"rm"},
		When:   func(c *Cmd) bool { return rmWhen(c, whenFsRmRootHome) },
		Reason: "recursive delete of / or a home directory; never delete outside the project"},
	{ID: ruleFsRmSystem, Category: "filesystem", Verdict: Deny, Names: []string{"rm"},
		When:   func(c *Cmd) bool { return rmWhen(c, whenFsRmSystem) },
		Reason: "recursive delete of a system directory; ask the user"},
	{ID: ruleFsRmCriticalFile, Category: "filesystem", Verdict: Deny, Names: []string{"rm", "unlink", "shred"},
		When:   func(c *Cmd) bool { return rmWhen(c, whenFsRmCriticalFile) },
		Reason: "deleting a critical system or account file (passwd, sudoers, dotfiles, keys); ask the user"},
	{ID: ruleFsRmProjectRoot, Category: "filesystem", Verdict: Deny, Names: []string{"rm"},
		When:   func(c *Cmd) bool { return rmWhen(c, whenFsRmProjectRoot) },
		Reason: "recursive delete of the project root, the working directory or a parent; delete specific subdirectories instead"},
	{ID: ruleFsRmProjectContents, Category: "filesystem", Verdict: Ask, Names: []string{"rm"},
		When:   func(c *Cmd) bool { return rmWhen(c, whenFsRmProjectContents) },
		Reason: "recursive delete of everything in the project root (rm -rf *) wipes the project but its dotfiles; delete specific subdirectories, or ask the user"},
	{ID: ruleFsRmOutsideProject, Category: "filesystem", Verdict: Deny, Names: []string{"rm"},
		When:   func(c *Cmd) bool { return rmWhen(c, whenFsRmOutsideProject) },
		Reason: "recursive forced delete outside the project and temp dirs; only delete inside the project, or ask the user"},
	{ID: ruleFsRmRecursiveOutside, Category: "filesystem", Verdict: Ask, Names: []string{"rm"},
		When:   func(c *Cmd) bool { return rmWhen(c, whenFsRmRecursiveOutside) },
		Reason: "recursive delete of a directory in a home folder outside the project; ask the user first"},
	{ID: ruleFsRmInProject, Category: "filesystem", Switch: "rm_recursive_in_project", Names: []string{"rm"},
		When:   func(c *Cmd) bool { return rmWhen(c, whenFsRmInProject) },
		Reason: "recursive delete inside the project is not allowed in this mode; ask the user"},
	{ID: ruleFsRmStreamTarget, Category: "filesystem", Verdict: Deny, Names: []string{"rm"},
		When:   func(c *Cmd) bool { return rmWhen(c, whenFsRmStreamTarget) },
		Reason: "recursive forced delete of paths produced at run time (xargs, find -exec, parallel); list the paths explicitly"},
	{ID: ruleFsRmStreamBulk, Category: "filesystem", Switch: "find_exec_rm", Names: []string{"rm", "unlink"},
		When:   func(c *Cmd) bool { return rmWhen(c, whenFsRmStreamBulk) },
		Reason: "bulk delete of files selected at run time; review the list first (run it with -print) and ask the user"},
	{ID: ruleFsRmDynamicTarget, Category: "dynamic", Switch: "dynamic_targets", Names: []string{"rm"},
		When:   func(c *Cmd) bool { return rmWhen(c, whenFsRmDynamicTarget) },
		Reason: "recursive delete of a path computed at run time; write the path literally"},
	{ID: ruleFsRmGlobOutside, Category: "filesystem", Verdict: Ask, Names: []string{"rm"},
		When:   func(c *Cmd) bool { return rmWhen(c, whenFsRmGlobOutside) },
		Reason: "wildcard delete outside the project; ask the user first"},
	{ID: ruleFsRmOutside, Category: "filesystem", Switch: "rm_outside_project", Names: []string{"rm", "rmdir", "unlink"},
		When:   func(c *Cmd) bool { return rmWhen(c, whenFsRmOutside) },
		Reason: "deleting outside the project is not allowed in this mode; ask the user"},
	{ID: ruleFsRmGitMetadata, Category: "filesystem", Verdict: Deny, Names: []string{"rm", "rmdir"},
		When:   func(c *Cmd) bool { return rmWhen(c, whenFsRmGitMetadata) },
		Reason: "deleting .git (history, hooks, config) destroys the repository; use git commands instead"},
	{ID: ruleFsFindDeleteOutside, Category: "filesystem", Verdict: Deny,
		Reason: "find -delete outside the project (or from /, ~, system dirs); never bulk-delete outside the project"},
	{ID: ruleFsFindDelete, Category: "filesystem", Switch: "find_delete_in_project",
		Reason: "find -delete removes every match; run with -print first and ask the user"},
	{ID: ruleFsShred, Category: "filesystem", Verdict: Ask, Names: []string{"shred", "srm", "wipe"},
		When:   whenFsShred,
		Reason: "shred destroys file contents irrecoverably; ask the user"},
	{ID: ruleFsSyncDelete, Category: "filesystem", Switch: "sync_delete", Names: []string{"rsync", "rclone"},
		When: syncDeletes, Reason: "this sync deletes files on its destination (or its source) outside the project; run it with --dry-run first and ask the user"},
	{ID: ruleFsTruncateOutside, Category: "filesystem", Verdict: Ask, Names: []string{"truncate"},
		When:   whenFsTruncateOutside,
		Reason: "truncating a file outside the project destroys its contents; ask the user"},
}

// Filesystem destruction.
func registerCore2() {
	register(core2Rules...)
	setValueOpts("truncate", "-s", "--size", "-r", "--reference")
	setValueOpts("rsync", "-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--exclude-from", "--include-from",
		"--files-from", "--chmod", "--chown", "--rsync-path", "-T", "--temp-dir", "--backup-dir", "--partial-dir",
		"--log-file", "--bwlimit", "--timeout", "--port", "--password-file", "--compare-dest", "--link-dest")
	setValueOpts("rclone", "--config", "--exclude", "--include", "--filter", "--transfers", "--checkers",
		"--log-file", "--log-level", "--bwlimit", "--exclude-from", "--include-from", "--filter-from", "--backup-dir")
	setValueOpts("rm", "--interactive")
}

// findCleans: t is a match of a find clean-up (findCleanup) under a start
// point inside the project or a temp dir.
func findCleans(c *Cmd, t target) bool {
	return c.Scope.FindClean && t.fromFind && (t.class == pcInside || t.class == pcTemp)
}

// rmWhen applies a per-target predicate to rm's (or rmdir/unlink/shred's)
// operands: a rule's condition is a function literal calling it, which
// the compiler lays out as static data (a closure over f would be
// allocated at package init).
func rmWhen(c *Cmd, f func(c *Cmd, t target, rec, force bool) bool) bool {
	rec := c.Has("-r", "-R", "--recursive", "-d") && c.Name == "rm"
	force := c.Has("-f", "--force") || c.Name != "rm"
	if v, ok := c.Flag("--interactive"); ok && v == "never" {
		force = true
	}
	if c.Name == "rm" && !c.Has("-r", "-R", "--recursive") {
		rec = false
	}
	dynFlags := false
	if c.Name == "rm" {
		for _, w := range c.Args {
			if w.Text == "--" {
				break
			}
			if w.Dyn && strings.HasPrefix(w.Text, "-") && !strings.HasPrefix(w.Text, "--") {
				// rm -$(printf rf): the option letters are computed, so
				// any of them may be there.
				rec, force, dynFlags = true, true, true
			}
		}
	}
	for _, w := range c.Pos() {
		if dynFlags && w.Dyn && strings.HasPrefix(w.Text, "-") {
			continue // the computed options, not an operand
		}
		if f(c, c.a.files().classify(w, c.Scope), rec, force) {
			return true
		}
	}
	return false
}

// core3Rules are registerCore3's rules, static data: loading the
// batch allocates none of them.
var core3Rules = []*Rule{
	{ID: ruleDiskMkfs, Category: "disk", Verdict: Deny, Names: []string{"mkfs*", "mke2fs", "mkswap", "mkdosfs", "newfs*"},
		When: devArg, Reason: "formatting a device destroys all data on it; use an image file"},
	{ID: ruleDiskDdDevice, Category: "disk", Verdict: Deny, Names: []string{"dd"},
		When: whenDiskDdDevice, Reason: "dd onto a block device overwrites the disk; write to an image file"},
	{ID: ruleDiskWipe, Category: "disk", Verdict: Deny, Names: []string{"wipefs", "blkdiscard", "sgdisk", "sfdisk", "cfdisk", "gdisk", "fdisk", "parted", "mdadm", "pvremove", "vgremove", "lvremove", "cryptsetup", "badblocks", "hdparm", "nvme", "shred", "zpool", "mkswap"},
		When: whenDiskWipe, Reason: "this erases or repartitions a disk; ask the user"},
	{ID: ruleDiskDiskutil, Category: "disk", Verdict: Deny, Names: []string{"diskutil"},
		Sub:    []string{"erasedisk|erasevolume|partitiondisk|zerodisk|securerase|secureerase|randomdisk|reformat|apfs"},
		Reason: "diskutil erase/partition destroys data on a disk; ask the user"},
	{ID: ruleSystemPower, Category: "system", Verdict: Deny, Names: []string{"reboot", "shutdown", "halt", "poweroff"},
		NoFlag: []string{"--help", "-c"}, Reason: "rebooting or shutting down the machine; ask the user"},
	{ID: ruleSystemPower, Category: "system", Verdict: Deny, Names: []string{"init", "telinit"},
		Sub: []string{"0|1|6|s"}, Reason: "rebooting, shutting down or dropping the machine to single-user mode; ask the user"},
	{ID: ruleSystemPower, Category: "system", Verdict: Deny, Names: []string{"systemctl", "loginctl"},
		Sub: []string{"reboot|poweroff|halt|kexec|emergency|rescue|soft-reboot|suspend|hibernate|hybrid-sleep|suspend-then-hibernate"}, Reason: "rebooting, suspending or shutting down the machine; ask the user"},
	{ID: rulePermRecursiveSystem, Category: "permissions", Verdict: Deny, Names: []string{"chmod", "chown", "chgrp", "setfacl"},
		AnyFlag: []string{"-R", "--recursive"},
		When:    whenPermRecursiveSystem, Reason: "recursive permission/ownership change of /, a home or a system directory breaks the system; limit it to project files"},
	{ID: rulePermSystemFile, Category: "permissions", Verdict: Ask, Names: []string{"chmod", "chown", "chgrp", "chattr"},
		When: whenPermSystemFile, Reason: "changing permissions of a system file; ask the user"},
	{ID: rulePermWorldWritableRecursive, Category: "permissions", Verdict: Ask, Names: []string{"chmod"},
		AnyFlag: []string{"-R", "--recursive"}, Pattern: &lazyRegexp{src: `(^|\s)(0?777|a\+rwx|o\+w|ugo\+rwx)(\s|$)`},
		Reason: "recursively making files world-writable; use narrower permissions"},
	{ID: rulePrivilegeSu, Category: "privilege", Verdict: Ask, Names: []string{"passwd", "chpasswd", "usermod", "useradd", "userdel", "visudo", "adduser", "deluser", "groupmod"},
		When: notVisudoCheck, Reason: "changing system accounts or sudoers; ask the user"},
	{ID: ruleProcessKill, Category: "system", Switch: "process_control", Names: []string{"kill", "killall", "pkill", "skill", "xkill"},
		NoFlag: []string{"-l", "-0"}, When: killsOthers, Reason: "this kills processes by name or with SIGKILL, which can reach processes this session did not start; stop your own jobs with `kill %1` or `kill <pid>`, or ask the user"},
	{ID: ruleProcessServiceStop, Category: "system", Switch: "process_control", Names: []string{"systemctl", "service"},
		When: whenProcessServiceStop, Reason: "stopping system services; ask the user"},
	{ID: ruleProcessServiceStop, Category: "system", Switch: "process_control", Names: []string{"launchctl"},
		Sub: []string{"unload|remove|bootout|stop|disable"}, Reason: "stopping system services; ask the user"},
	{ID: ruleSystemCrontabRemove, Category: "system", Verdict: Ask, Names: []string{"crontab"},
		AnyFlag: []string{"-r"}, Reason: "crontab -r deletes every scheduled job; edit with crontab -e instead"},
	{ID: ruleSystemFirewallFlush, Category: "system", Verdict: Ask, Names: []string{"iptables", "ip6tables", "nft", "ufw", "pfctl"},
		When: whenSystemFirewallFlush, Reason: "flushing or disabling the firewall; ask the user"},
	{ID: ruleSystemNixGc, Category: "system", Verdict: Ask, Names: []string{"nix-collect-garbage", "nixos-rebuild", "nix-env", "nix"},
		When: whenSystemNixGc, Reason: "this removes Nix store paths, generations or profile packages; ask the user"},
	{ID: rulePackageUninstall, Category: "packages", Switch: "package_uninstall",
		Names: []string{"apt", "apt-get", "yum", "dnf", "pacman", "zypper", "apk", "brew", "pip", "pip3", "pipx", "cargo", "gem", "port", "snap", "flatpak", "npm", "pnpm", "yarn", "choco", "winget", "scoop", "conda"},
		When:  whenPackageUninstall, Reason: "uninstalling system or global packages affects more than the project; ask the user"},
}

// Disks, power, permissions, privilege, processes, packages.
func registerCore3() {
	register(core3Rules...)
	setValueOpts("chmod", "--reference")
	setValueOpts("chown", "--reference", "--from")
	setValueOpts("kill", "-s", "-n")
}

func anyTarget(c *Cmd, f func(target) bool) bool {
	for _, w := range c.Pos() {
		if f(c.a.files().classify(w, c.Scope)) {
			return true
		}
	}
	return false
}

// anyPos reports whether the first positional is one of alts.
func anyPos(c *Cmd, alts string) bool {
	p := c.Pos()
	return len(p) > 0 && !p[0].Dyn && oneOf(strings.ToLower(p[0].Text), alts)
}

func anyPosSub(c *Cmd, s string) bool {
	for _, w := range c.Args {
		if strings.HasPrefix(w.Text, "-R") || strings.HasPrefix(w.Text, s) {
			return true
		}
	}
	return false
}

// Publishing and infrastructure that is on by default (the opt-in groups
// add more).
// sqlDestroy matches SQL that drops or empties data.
var sqlDestroy = &lazyRegexp{src: `(?i)\b(drop\s+(database|schema|table|user|role)|truncate\s+(table\s+)?\w|delete\s+from\s+\w+\s*(;|$|"|')|flushall|flushdb|dropdatabase\(\))`}

// core4Rules are registerCore4's rules, static data: loading the
// batch allocates none of them.
var core4Rules = []*Rule{
	{ID: ruleInfraKubectlDelete, Category: "infra", Verdict: Ask, Names: []string{"kubectl", "oc", "kubecolor"},
		Sub: []string{"delete|drain|replace"}, When: notLocalCluster, Reason: "deleting Kubernetes resources affects a live cluster; ask the user"},
	{ID: ruleInfraTerraformDestroy, Category: "infra", Verdict: Ask, Names: []string{"terraform", "tofu", "terragrunt", "pulumi", "cdk", "cdktf", "serverless", "sls", "sam", "sst"},
		When: whenInfraTerraformDestroy, Reason: "destroying or auto-applying infrastructure; run a plan and ask the user"},
	{ID: ruleInfraHelmUninstall, Category: "infra", Verdict: Ask, Names: []string{"helm"},
		Sub: []string{"uninstall|delete|del|un"}, Reason: "uninstalling a Helm release deletes its resources; ask the user"},
	{ID: ruleInfraSqlDestroy, Category: "infra", Verdict: Ask, Names: []string{"psql", "mysql", "mariadb", "sqlite3", "sqlcmd", "clickhouse-client", "cockroach", "redis-cli", "mongo", "mongosh", "cqlsh"},
		Pattern: sqlDestroy, When: notTestDatabase, Reason: "this SQL drops or empties data; take a backup and ask the user"},
	{ID: ruleInfraDbDrop, Category: "infra", Verdict: Ask, Names: []string{"dropdb", "dropuser", "mysqladmin"},
		When: func(c *Cmd) bool { return whenInfraDbDrop(c) && notTestDatabase(c) }, Reason: "dropping a database or user; ask the user"},
	{ID: ruleInfraDockerPrune, Category: "containers", Verdict: Ask, Names: []string{"docker", "podman"},
		When: whenInfraDockerPrune, Reason: "pruning or removing Docker data (volumes, images) deletes it; ask the user"},
	{ID: ruleInfraKafkaDelete, Category: "infra", Verdict: Ask, Names: []string{"kafka-topics", "kafka-topics.sh"},
		AnyFlag: []string{"--delete"}, Reason: "deleting Kafka topics loses their data; ask the user"},
}

func registerCore4() {
	register(core4Rules...)
	setValueOpts("psql", "-U", "-h", "-p", "-d", "-f")
	setValueOpts("mysql", "-u", "-h", "-P", "-D")
	setValueOpts("kubectl", "-n", "--namespace", "--context", "-l", "--selector", "-o", "--output", "-f", "--filename", "--kubeconfig", "-c", "--container", "--cluster", "--user", "-s", "--server",
		"--field-selector", "--field-manager", "-k", "--kustomize", "--grace-period", "--timeout", "--cascade", "-p", "--patch", "--type", "--token", "--as", "--as-group", "--certificate-authority", "--request-timeout")
	setValueOpts("helm", "-n", "--namespace", "--kube-context", "--kubeconfig")
	setValueOpts("docker", "-H", "--host", "--context", "-c", "--config", "-l", "--log-level")
	setValueOpts("terraform", "-chdir", "-var", "-var-file", "-target")
}

// killsOthers: process.kill's condition. killall/pkill match by name, so
// they reach processes the session did not start; kill of a pid with the
// default TERM (or INT, HUP) is how an agent stops its own server, but
// SIGKILL/SIGSTOP or a process group (a negative pid) asks. Job specs
// (%1) are the shell's own children.
func killsOthers(c *Cmd) bool {
	if c.Name != "kill" {
		return true
	}
	pids := killPIDs(c)
	jobsOnly := len(pids) > 0
	for _, w := range pids {
		if !strings.HasPrefix(w.Text, "%") || w.Dyn {
			jobsOnly = false
		}
		if !w.Dyn && strings.HasPrefix(w.Text, "-") && len(w.Text) > 1 {
			return true
		}
	}
	return oneOf(killSignal(c), "KILL|STOP") && !jobsOnly
}

// pruneConfirmed: docker/podman prune asks for confirmation on stdin unless
// -f/--force is given; with nothing on stdin (an agent's shell) it
// removes nothing. Piped input (`yes |`) confirms.
func pruneConfirmed(c *Cmd) bool {
	return c.Has("-f", "--force") || c.Stdin
}

// syncDeletes: rsync --delete*/--del/--remove-source-files and rclone
// sync/purge/delete/move delete files; it matters when the deleting side is
// not inside the project or a temp dir (remote ends are outside). A dry
// run never gets here (effect_preview.go).
func syncDeletes(c *Cmd) bool {
	p := c.Pos()
	if c.Name == "rclone" {
		if len(p) < 2 || !oneOf(p[0].Text, "sync|purge|delete|deletefile|move|rmdirs|cleanup") {
			return false
		}
		return outsideSide(c, p[len(p)-1])
	}
	del := c.Has("--del", "--delete", "--delete-before", "--delete-during", "--delete-delay", "--delete-after", "--delete-excluded")
	src := c.Has("--remove-source-files")
	if len(p) < 2 || !del && !src {
		return false
	}
	if src {
		for _, w := range p[:len(p)-1] {
			if outsideSide(c, w) {
				return true
			}
		}
	}
	return del && outsideSide(c, p[len(p)-1])
}

func outsideSide(c *Cmd, w shell.Word) bool {
	if w.Dyn {
		return true
	}
	if i := strings.IndexByte(w.Text, ':'); i > 0 && !strings.Contains(w.Text[:i], "/") {
		return true // host:path or remote:bucket
	}
	t := c.a.files().classify(w, c.Scope)
	return t.class != pcInside && t.class != pcTemp
}

// devArg: an argument names a device file.
func devArg(c *Cmd) bool {
	for _, w := range c.Args {
		if strings.HasPrefix(w.Text, "/dev/") || strings.Contains(w.Text, "=/dev/") {
			return true
		}
	}
	return false
}

// whenFsRmRootHome is the condition of rule fs.rm-root-home.
func whenFsRmRootHome(c *Cmd, t target, rec, force bool) bool {
	return (t.class == pcRoot || t.class == pcHome) && (rec || t.glob)
}

// whenFsRmSystem is the condition of rule fs.rm-system.
func whenFsRmSystem(c *Cmd, t target, rec, force bool) bool {
	return t.class == pcSystem && (rec || t.glob)
}

// whenFsRmCriticalFile is the condition of rule fs.rm-critical-file.
func whenFsRmCriticalFile(c *Cmd, t target, rec, force bool) bool {
	return t.abs != "" && (isCriticalFile(t.abs) || t.homeFile || c.a.req.isStartupFile(t.abs) || (t.class == pcSystem && !strings.HasPrefix(t.abs, "/dev/")))
}

// whenFsRmProjectRoot is the condition of rule fs.rm-project-root.
func whenFsRmProjectRoot(c *Cmd, t target, rec, force bool) bool {
	return t.class == pcProject && rec && !t.stream
}

// whenFsRmProjectContents is the condition of rule fs.rm-project-contents.
func whenFsRmProjectContents(c *Cmd, t target, rec, force bool) bool {
	return t.allChildren && rec && !t.stream && (t.abs == c.a.req.projectRoot(c.Scope) || t.abs == c.Scope.CwdIf())
}

// whenFsRmOutsideProject is the condition of rule fs.rm-outside-project.
func whenFsRmOutsideProject(c *Cmd, t target, rec, force bool) bool {
	return (t.class == pcOutside || t.class == pcProject && t.stream) && rec && force
}

// whenFsRmRecursiveOutside is the condition of rule fs.rm-recursive-outside.
func whenFsRmRecursiveOutside(c *Cmd, t target, rec, force bool) bool {
	return t.class == pcOutside && rec && !force && t.underHome
}

// whenFsRmInProject is the condition of rule fs.rm-in-project.
func whenFsRmInProject(c *Cmd, t target, rec, force bool) bool {
	return t.class == pcInside && rec && !t.stream
}

// whenFsRmStreamTarget is the condition of rule fs.rm-stream-target.
func whenFsRmStreamTarget(c *Cmd, t target, rec, force bool) bool {
	return t.stream && rec && force && !findCleans(c, t)
}

// whenFsRmStreamBulk is the condition of rule fs.rm-stream-bulk.
func whenFsRmStreamBulk(c *Cmd, t target, rec, force bool) bool {
	// Root, homes and system dirs are denied by the rm rules
	// whatever this switch says.
	return t.stream && t.fromFind && !(rec && force) && t.class != pcTemp && !findCleans(c, t)
}

// whenFsRmDynamicTarget is the condition of rule fs.rm-dynamic-target.
func whenFsRmDynamicTarget(c *Cmd, t target, rec, force bool) bool {
	// Unknown paths, plus (for strict setups) globs and paths
	// resolved through an assumed $TMPDIR.
	return !t.stream && rec && (t.class == pcUnknown || t.envDep || t.glob && (t.class == pcInside || t.class == pcProject))
}

// whenFsRmGlobOutside is the condition of rule fs.rm-glob-outside.
func whenFsRmGlobOutside(c *Cmd, t target, rec, force bool) bool {
	return t.class == pcOutside && t.glob && !rec && !t.stream
}

// whenFsRmOutside is the condition of rule fs.rm-outside.
func whenFsRmOutside(c *Cmd, t target, rec, force bool) bool {
	return (t.class == pcOutside || t.class == pcTemp && c.Name != "rm") && !t.stream && !(rec && (force || t.underHome)) || c.Name == "rmdir" && t.class == pcTemp
}

// whenFsRmGitMetadata is the condition of rule fs.rm-git-metadata.
func whenFsRmGitMetadata(c *Cmd, t target, rec, force bool) bool {
	if t.dotGlob && t.abs != "" && c.a.req.repoMetadata(t.abs+"/.git", c.Scope) {
		return true // rm .* in the repository root matches .git
	}
	return t.git && t.class != pcTemp && c.a.req.repoMetadata(t.abs, c.Scope)
}

// whenFsShred is the condition of rule fs.shred.
func whenFsShred(c *Cmd) bool {
	// Inside the project or temp it is a delete like rm;
	// elsewhere the loss is unrecoverable.
	return anyTarget(c, func(t target) bool { return t.class != pcInside && t.class != pcTemp })
}

// whenFsTruncateOutside is the condition of rule fs.truncate-outside.
func whenFsTruncateOutside(c *Cmd) bool {
	for _, w := range c.Pos() {
		if t := c.a.files().classify(w, c.Scope); t.class != pcInside && t.class != pcTemp {
			return true
		}
	}
	return false
}

// whenDiskDdDevice is the condition of rule disk.dd-device.
func whenDiskDdDevice(c *Cmd) bool {
	for _, w := range c.Args {
		if strings.HasPrefix(w.Text, "of=") && isBlockDevice(strings.TrimPrefix(w.Text, "of=")) {
			return true
		}
	}
	return false
}

// whenDiskWipe is the condition of rule disk.wipe.
func whenDiskWipe(c *Cmd) bool {
	if c.Name == "fdisk" && c.Has("-l", "--list") {
		return false
	}
	if c.Name == "parted" && c.Has("-l", "--list") {
		return false
	}
	if c.Name == "zpool" {
		p := c.Pos()
		return len(p) > 0 && (p[0].Text == "destroy" || p[0].Text == "labelclear")
	}
	if c.Name == "nvme" {
		p := c.Pos()
		return len(p) > 0 && (p[0].Text == "format" || p[0].Text == "sanitize")
	}
	return devArg(c) || oneOf(c.Name, "pvremove|vgremove|lvremove")
}

// whenPermRecursiveSystem is the condition of rule perm.recursive-system.
func whenPermRecursiveSystem(c *Cmd) bool {
	return anyTarget(c, func(t target) bool { return t.critical() || t.class == pcProject && t.abs == "/" })
}

// whenPermSystemFile is the condition of rule perm.system-file.
func whenPermSystemFile(c *Cmd) bool {
	return anyTarget(c, func(t target) bool {
		return t.class == pcSystem || t.class == pcRoot || t.abs != "" && isCriticalFile(t.abs)
	})
}

// whenProcessServiceStop is the condition of rule process.service-stop.
func whenProcessServiceStop(c *Cmd) bool {
	return anyPos(c, "stop|disable|mask|kill|isolate")
}

// whenSystemFirewallFlush is the condition of rule system.firewall-flush.
func whenSystemFirewallFlush(c *Cmd) bool {
	return c.Has("-F", "--flush", "-X", "--delete-chain") || anyPos(c, "flush|disable|reset") || c.Name == "pfctl" && c.Has("-d")
}

// whenSystemNixGc is the condition of rule system.nix-gc.
func whenSystemNixGc(c *Cmd) bool {
	p := c.Pos()
	switch c.Name {
	case "nix-collect-garbage":
		return true
	case "nixos-rebuild":
		return len(p) > 0 && (p[0].Text == "switch" || p[0].Text == "boot")
	case "nix-env":
		return c.Has("-e", "--uninstall", "--delete-generations")
	}
	return len(p) >= 2 && (p[0].Text == "store" && (p[1].Text == "gc" || p[1].Text == "delete") || p[0].Text == "profile" && (p[1].Text == "remove" || p[1].Text == "wipe-history"))
}

// whenPackageUninstall is the condition of rule package.uninstall.
func whenPackageUninstall(c *Cmd) bool {
	if c.Name == "pacman" {
		return c.Has("-R") || anyPosSub(c, "-rs")
	}
	if !anyPos(c, "remove|uninstall|purge|autoremove|erase|rm|un") {
		return false
	}
	if oneOf(c.Name, "npm|pnpm|yarn") {
		return c.Has("-g", "--global") || anyPos(c, "global")
	}
	return true
}

// whenInfraTerraformDestroy is the condition of rule infra.terraform-destroy.
func whenInfraTerraformDestroy(c *Cmd) bool {
	switch c.Name {
	case "cdk", "cdktf":
		return anyPos(c, "destroy")
	case "serverless", "sls", "sst":
		return anyPos(c, "remove")
	case "sam":
		return anyPos(c, "delete")
	}
	return anyPos(c, "destroy") || c.Has("-destroy") || anyPos(c, "apply") && c.Has("-auto-approve", "--auto-approve", "-y", "--yes") || c.Name == "pulumi" && anyPos(c, "destroy|down")
}

// notVisudoCheck: not visudo -c (--check), which only checks the
// sudoers files' syntax and opens no editor.
func notVisudoCheck(c *Cmd) bool {
	if c.Name != "visudo" {
		return true
	}
	for _, w := range c.Args {
		if w.Text == "--check" || len(w.Text) > 1 && w.Text[0] == '-' && w.Text[1] != '-' && strings.ContainsRune(w.Text, 'c') {
			return false
		}
	}
	return true
}

// notTestDatabase: the database a client or drop tool acts on is not a
// disposable one (app_test on localhost, TEST_ENV=ci): the environment
// reading the effect model uses, over the words naming the server and
// database, and the database a DROP DATABASE names.
func notTestDatabase(c *Cmd) bool {
	if c.a == nil {
		return true
	}
	if w, _ := c.a.effects().whereOf(dbTarget(c, true), whereUnknown); w == whereProduction {
		return true
	}
	// Only the database the statement destroys decides: the one DROP
	// DATABASE names, else the one the command connects to. A user
	// name, an output file, a variable or a URL's query naming "test"
	// says nothing about the data.
	name := droppedDatabase(c)
	if name == "" {
		name = databaseName(c)
	}
	return devKind(name) != 2
}

// databaseName is the database a client or dropdb names: its -d/
// --dbname/-D/--database option, a connection URL's path, or its last
// positional.
func databaseName(c *Cmd) string {
	if v, ok := c.Flag("-d", "--dbname", "-D", "--database"); ok {
		return v
	}
	for _, w := range c.Args {
		if db, ok := urlDatabase(w.Text); ok {
			return db
		}
	}
	if !oneOf(c.Name, "dropdb|createdb|mysql|mysqladmin|psql") {
		return ""
	}
	return lastName(c.Pos())
}

// urlDatabase is the database a connection URL's path names, without
// its query.
func urlDatabase(s string) (string, bool) {
	_, rest, ok := strings.Cut(s, "://")
	_, db, _ := strings.Cut(rest, "/")
	db, _, _ = strings.Cut(db, "?")
	return db, ok
}

// lastName is the last positional that is a name: not a statement given
// as an operand, nor a computed word.
func lastName(p []shell.Word) string {
	for i := len(p) - 1; i >= 0; i-- {
		if !p[i].Dyn && !strings.ContainsAny(p[i].Text, " \t\n;") {
			return p[i].Text
		}
	}
	return ""
}

// notLocalCluster: the kubectl run's cluster options do not name a
// cluster on this machine or a test context or namespace (--context
// kind-dev, -n e2e). Resource names and selectors are not read: a pod
// called test-runner, or -l env!=test, may be in any cluster.
func notLocalCluster(c *Cmd) bool {
	if c.a == nil {
		return true
	}
	t := &Cmd{Command: shell.Command{Name: c.Name, Scope: c.Scope}, a: c.a}
	for i, w := range c.Args {
		name, _, has := strings.Cut(w.Text, "=")
		if !oneOf(name, "--context|--cluster|--kubeconfig|-n|--namespace") {
			continue
		}
		t.Args = append(t.Args, w)
		if !has && i+1 < len(c.Args) {
			t.Args = append(t.Args, c.Args[i+1])
		}
	}
	w, _ := c.a.effects().whereOf(t, whereUnknown)
	return w != whereTest
}

// whenInfraDbDrop is the condition of rule infra.db-drop.
func whenInfraDbDrop(c *Cmd) bool {
	return c.Name != "mysqladmin" || anyPos(c, "drop")
}

// whenInfraDockerPrune is the condition of rule infra.docker-prune.
func whenInfraDockerPrune(c *Cmd) bool {
	p := c.Pos()
	if len(p) >= 2 && oneOf(p[0].Text, "system|volume|image|container|network|builder|buildx") && p[1].Text == "prune" {
		return pruneConfirmed(c) && !regenerablePrune(c, p[0].Text)
	}
	return len(p) >= 2 && oneOf(p[0].Text, "system|volume|image|container|network|builder") && p[1].Text == "rm"
}
