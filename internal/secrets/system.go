package secrets

import "strings"

// System credential files: password hashes and privilege configuration.
// They are secrets for every reader (shell commands and file tools alike):
// /etc/shadow and /etc/gshadow hold password hashes, /etc/master.passwd is
// the BSD/macOS equivalent, /etc/security/opasswd keeps old hashes, and the
// sudoers files describe who may become root without a password. Backup
// copies (`shadow-`, `shadow.bak`) count too. /etc/passwd and /etc/group
// are world-readable account lists and are not secrets.
var systemDefs = []ruleDef{
	{id: "secret.system.shadow", category: catStore, label: "system password hashes", sub: "etc/shadow", kind: kVariant},
	{id: "secret.system.shadow", category: catStore, label: "system group password hashes", sub: "etc/gshadow", kind: kVariant},
	{id: "secret.system.shadow", category: catStore, label: "system password hashes", sub: "etc/master.passwd", kind: kVariant},
	{id: "secret.system.shadow", category: catStore, label: "system password hashes", sub: "private/etc/master.passwd", kind: kVariant},
	{id: "secret.system.shadow", category: catStore, label: "previous password hashes", sub: "etc/security/opasswd", kind: kVariant},
	{id: "secret.system.sudoers", category: catStore, label: "sudo policy", sub: "etc/sudoers", kind: kVariant},
	{id: "secret.system.sudoers", category: catStore, label: "sudo policy", sub: "private/etc/sudoers", kind: kVariant},
	{id: "secret.system.sudoers", category: catStore, label: "sudo policy directory", sub: "etc/sudoers.d", kind: kTree},
	{id: "secret.system.sudoers", category: catStore, label: "sudo policy directory", sub: "private/etc/sudoers.d", kind: kTree},
}

// matchSystem checks an absolute canonical path against systemDefs. The
// `-` suffix is the backup that shadow-utils writes (`/etc/shadow-`).
func matchSystem(p string) (Match, bool) {
	if len(p) < 5 || p[0] != '/' || !(hasPrefixFold(p, "/etc/") || hasPrefixFold(p, "/private/etc/")) {
		return Match{}, false
	}
	rel := strings.TrimSuffix(p[1:], "-")
	return matchRules(systemDefs, rel)
}
