package guard

import (
	"net"
	"net/url"
	"path"
	"strings"
	"unicode"

	"github.com/atreides-dev/atreides/internal/shell"
)

// produce computes the stdout of commands that matter for pipelines:
// printers (exact text), decoders (transformed text), downloaders (remote
// text), environment dumps and file readers (taints).
func (a *analyzer) produce(c *Cmd, sc *shell.Scope, in shell.Feed) shell.Feed {
	if a.judging() {
		// Credentials only matter to a verdict; an effects-only walk does
		// not build the credential-printer table (rules.go's loadRules).
		if f, ok := a.exfil().credOutput(c); ok {
			return f
		}
	}
	switch c.Name {
	case "echo":
		return shell.EchoOutput(c.Args)
	case "printf":
		return shell.PrintfOutput(c.Args, c.Scope)
	case "pwd":
		if sc.CwdOK {
			return shell.Feed{Cwd: true}
		}
	case "realpath", "readlink", "dirname":
		if f, ok := a.pathOutput(c, sc); ok {
			return f
		}
	case "which", "type":
		if f, ok := a.req.lookupOutput(c); ok {
			return f
		}
	case "cat", "tac", "head", "tail", "less", "more", "bat", "nl", "strings", "xxd", "od", "hexdump":
		return a.readerOutput(c, sc, in)
	case "tee":
		return in // its files are writes (effects.go)
	case "base64", "base32", "basenc", "openssl", "uudecode", "gunzip", "zcat", "gzip", "bzcat", "xzcat", "zstdcat", "bzip2", "xz", "zstd":
		return decoderOutput(c, in)
	case "rev":
		if in.Known {
			return shell.Feed{Known: true, Text: shell.ReverseLines(in.Text), Taint: in.Taint | shell.TaintDecoded, From: "rev"}
		}
		return decoded(in, "rev")
	case "tr":
		return trOutput(c, in)
	case "iconv", "perl", "awk":
		return shell.Feed{Taint: in.Taint | shell.TaintUnknown, From: c.Name}
	case "curl", "wget", "fetch", "http", "https", "xh", "aria2c", "lynx", "links":
		if a.judging() {
			noteDownload(c, sc)
		}
		return shell.Feed{Taint: shell.TaintRemote, From: c.Name}
	case "printenv", "set", "export", "declare", "compgen":
		return shell.Feed{Taint: shell.TaintEnv | shell.TaintUnknown, From: c.Name}
	case "grep", "egrep", "fgrep", "rg", "ag", "cut", "jq", "gojq", "jaq":
		if a.judging() {
			return a.exfil().credFilter(c, in)
		}
		return shell.Feed{Taint: in.Taint | shell.TaintUnknown, From: c.Name}
	case "sort", "uniq", "fold", "column", "paste", "expand":
		return shell.Feed{Taint: in.Taint | shell.TaintUnknown, From: c.Name}
	case "sed":
		return shell.Feed{Taint: in.Taint | shell.TaintUnknown, From: c.Name}
	}
	return shell.Feed{Taint: shell.TaintUnknown, From: c.Name}
}

// readerOutput is what a program that prints files (cat, head, xxd ...)
// gives: its stdin, or its files, secret when one is.
func (a *analyzer) readerOutput(c *Cmd, sc *shell.Scope, in shell.Feed) shell.Feed {
	if c.Name == "xxd" && c.Has("-r", "-revert") {
		return decoded(in, "xxd -r")
	}
	files := c.Pos()
	if len(files) == 0 || (len(files) == 1 && files[0].Text == "-") {
		if c.Name == "cat" {
			return in
		}
		return shell.Feed{Taint: in.Taint | shell.TaintUnknown, From: c.Name}
	}
	f := shell.Feed{Taint: shell.TaintUnknown, From: c.Name}
	for _, w := range files {
		if w.Proc != nil {
			f.Taint |= w.Proc.Taint
		}
		if !w.Dyn && a.judging() && a.files().sensitive(w.Text, sc) {
			f.Taint |= shell.TaintSecret
		}
		if strings.HasSuffix(strings.ToLower(w.Text), "_history") {
			f.From = "history" // a grep for secrets in it is a credential read (credFilter)
		}
	}
	return f
}

// decoderOutput is what a decoder or decompressor gives: decoded text
// when it decodes (base64 -d of a known text is decoded here).
func decoderOutput(c *Cmd, in shell.Feed) shell.Feed {
	if c.Has("-d", "--decode", "-D") || oneOf(c.Name, "gunzip|zcat|uudecode") || strings.HasSuffix(c.Name, "cat") {
		if c.Name == "base64" && in.Known {
			if b, ok := shell.DecodeBase64(in.Text); ok {
				return shell.Feed{Known: true, Text: b, Taint: in.Taint | shell.TaintDecoded, From: "base64 -d"}
			}
		}
		return decoded(in, c.Name+" -d")
	}
	return shell.Feed{Taint: in.Taint | shell.TaintUnknown, From: c.Name}
}

// trOutput is what tr gives: the mapped text when its input and sets are
// known.
func trOutput(c *Cmd, in shell.Feed) shell.Feed {
	p := c.Pos()
	if in.Known && len(p) == 2 && !p[0].Dyn && !p[1].Dyn && len(c.Args) == 2 {
		if out, ok := shell.Tr(in.Text, p[0].Text, p[1].Text); ok {
			return shell.Feed{Known: true, Text: out, Taint: in.Taint | shell.TaintDecoded, From: "tr"}
		}
	}
	return decoded(in, "tr")
}

func decoded(in shell.Feed, from string) shell.Feed {
	return shell.Feed{Taint: in.Taint | shell.TaintDecoded | shell.TaintUnknown, From: from}
}

func noteDownload(c *Cmd, sc *shell.Scope) {
	files, _ := downloadTargets(c)
	for _, f := range files {
		sc.NoteDownload(f)
	}
}

// networkSinks send their stdin or arguments off the machine.
func networkSinks(name string) bool {
	switch name {
	case "curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "http",
		"https", "xh", "ftp", "tftp", "sftp", "mail", "sendmail", "mutt",
		"dnscat", "dnscat2", "openssl", "nslookup", "dig", "host", "pbcopy", "xclip",
		"xsel", "wl-copy", "clip", "clip.exe", "nix", "aws", "gsutil", "rclone",
		"scp":
		return true
	}
	return false
}

func registerProduce() {
	for _, n := range []string{"curl", "wget"} {
		setValueOpts(n, "-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "-F", "--form",
			"-T", "--upload-file", "-o", "--output", "--output-document", "-H", "--header", "-X",
			"--request", "-u", "--user", "-A", "--user-agent", "-e", "--referer", "-b", "--cookie",
			"-c", "--cookie-jar", "--post-file", "--body-file", "--post-data", "--body-data", "-x", "--proxy",
			"-w", "--write-out", "--connect-timeout", "-m", "--max-time", "--retry", "-K", "--config", "-P")
	}
	// curl -O is --remote-name (no value); wget -O names the file.
	setValueOpts("wget", "-O", "--directory-prefix")
	setValueOpts("curl", "--output-dir")
	setValueOpts("aria2c", "-o", "--out", "-d", "--dir")
}

// urlHost returns the host of an http(s)/ftp URL, or "".
func urlHost(s string) string {
	i := strings.Index(s, "://")
	if i < 0 {
		return ""
	}
	// The scheme starts after the last separator before "://"; it is
	// matched without case but cut from s itself (lower-casing can change
	// the length of non-ASCII text).
	start := strings.LastIndexAny(s[:i], " ='\"(") + 1
	switch strings.ToLower(s[start:i]) {
	case "http", "https", "ftp", "ws", "wss":
	default:
		return ""
	}
	u, err := url.Parse(s[start:])
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

var exfilDomains = []string{
	"webhook.site", "requestbin", "pipedream.net", "pastebin.com", "transfer.sh", "interact.sh",
	"oast.", "burpcollaborator", "ngrok.io", "ngrok-free.app", "hookbin.com", "beeceptor.com",
	"requestcatcher.com", "canarytokens", "dnslog.cn", "ceye.io", "paste.ee", "hastebin",
	"0x0.st", "file.io", "termbin.com", "ix.io", "sprunge.us", "discord.com/api/webhooks", "trycloudflare.com",
}

// suspiciousHost reports capture services and literal public IP addresses;
// loopback and private ranges are normal development targets.
func suspiciousHost(h string) bool {
	if ip := net.ParseIP(h); ip != nil {
		return !(ip.IsLoopback() || ip.IsPrivate() || ip.IsUnspecified() || ip.IsLinkLocalUnicast())
	}
	for _, d := range exfilDomains {
		if strings.Contains(h, d) {
			return true
		}
	}
	return false
}

// dangerousText is a keyword screen for text the parser cannot read.
func dangerousText(s string) bool {
	// Any blank separates words: "rm\n-rf" reads like "rm -rf".
	l := strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' || r == '\v' || r == '\f' {
			return ' '
		}
		return unicode.ToLower(r)
	}, s)
	for _, k := range []string{"rm ", "rm\t", "git reset", "git clean", "git push", "git checkout", "git restore", "git stash", "git branch", "git tag", "git rebase", "mkfs", "dd ", "shred", "sudo", "chmod", "chown", "curl", "wget", "| sh", "|sh", "| bash", "|bash", "eval", "drop ", "truncate", "kill", "format", "> /dev/", ">/dev/", "find ", "xargs", ".env", "id_rsa", ".ssh", "base64"} {
		if strings.Contains(l, k) {
			return true
		}
	}
	return false
}

// lookupOutput is what `which NAME`, `command -v NAME` and `type -P NAME`
// print for an atreides program: its file in the first directory of PATH
// (every file of that name on PATH is atreides's), so that
// `rm "$(command -v atreides)"` is known to remove atreides. Other names
// stay unknown, as before.
func (req *Request) lookupOutput(c *Cmd) (shell.Feed, bool) {
	switch {
	case c.Name == "type" && !shell.HasOption(c.Args, "pP"):
		return shell.Feed{}, false
	}
	ops := shell.Operands(c.Args, "")
	if len(ops) != 1 || ops[0].Dyn || !atreidesProgramName(ops[0].Text) || len(req.PathDirs) == 0 {
		return shell.Feed{}, false
	}
	return shell.Feed{Known: true, Text: path.Join(req.PathDirs[0], ops[0].Text) + "\n", From: c.Name}, true
}

// pathOutput is what realpath, readlink -f and dirname print for one known
// path: the guard resolves it as they would, so a write to
// "$(realpath .)/.atreides/config.yaml" is known to be atreides's.
func (a *analyzer) pathOutput(c *Cmd, sc *shell.Scope) (shell.Feed, bool) {
	ops := shell.Operands(c.Args, "")
	if len(ops) != 1 || ops[0].Dyn {
		return shell.Feed{}, false
	}
	s := ops[0].Text
	switch c.Name {
	case "dirname":
		return shell.Feed{Known: true, Text: path.Dir(s) + "\n", From: c.Name}, true
	case "readlink":
		if !shell.HasOption(c.Args, "fem", "--canonicalize", "--canonicalize-existing", "--canonicalize-missing") {
			return shell.Feed{}, false
		}
	}
	p, ok := a.files().canon(s, sc)
	if !ok {
		return shell.Feed{}, false
	}
	return shell.Feed{Known: true, Text: p + "\n", From: c.Name}, true
}
