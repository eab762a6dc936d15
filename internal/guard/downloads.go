package guard

import (
	"path"
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

// Download-then-execute across a sequence: the files a downloader writes
// are remembered in the scope (through &&, ;, || and newlines, and across
// cd), and running one of them in the same command (`./f`, `/abs/f`,
// `sh f`, `source f`, `python f`) is rce.download-exec.

// downloadTargets lists the files a downloader writes: curl -o/-O
// (--remote-name, --output-dir), wget -O or the URL's last path element
// (-P prefix), aria2c -o/-d, fetch/http/xh -o. named counts the leading
// entries that the command names explicitly (the rest come from URLs).
func downloadTargets(c *Cmd) (out []string, named int) {
	dir := ""
	switch c.Name {
	case "curl":
		if v, ok := c.Flag("--output-dir"); ok {
			dir = v
		}
		if v, ok := c.Flag("-o", "--output"); ok && v != "-" && v != "" {
			out = append(out, v)
		}
		named = len(out)
		if c.Has("-O", "--remote-name", "--remote-name-all") {
			for _, u := range c.Pos() {
				if n := urlFileName(u.Text); n != "" && !u.Dyn {
					out = append(out, n)
				}
			}
		}
	case "wget":
		if v, ok := c.Flag("-O", "--output-document"); ok {
			if v != "-" && v != "" {
				out = append(out, v)
			}
			named = len(out)
			break
		}
		if v, ok := c.Flag("-P", "--directory-prefix"); ok {
			dir = v
		}
		for _, u := range c.Pos() {
			if u.Dyn {
				continue
			}
			n := urlFileName(u.Text)
			if n == "" && strings.Contains(u.Text, "://") {
				n = "index.html"
			}
			if n != "" {
				out = append(out, n)
			}
		}
	case "aria2c":
		if v, ok := c.Flag("-d", "--dir"); ok {
			dir = v
		}
		if v, ok := c.Flag("-o", "--out"); ok && v != "" {
			out = append(out, v)
		}
		named = len(out)
	default:
		if v, ok := c.Flag("-o", "--output"); ok && v != "-" && v != "" {
			out = append(out, v)
		}
		named = len(out)
	}
	if dir != "" {
		for i, f := range out {
			if !path.IsAbs(f) {
				out[i] = path.Join(dir, f)
			}
		}
	}
	return out, named
}

// urlFileName is the last path element of a URL (without query or
// fragment), the name curl -O and wget save it under.
func urlFileName(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
		j := strings.IndexByte(u, '/')
		if j < 0 {
			return ""
		}
		u = u[j:]
	}
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	if u == "" || strings.HasSuffix(u, "/") {
		return ""
	}
	n := path.Base(u)
	if oneOf(n, ".|/") {
		return ""
	}
	return n
}

// downloadedProgram: a program named by a path (`./f`, `/tmp/f`) that was
// downloaded earlier in the same command.
func (a *analyzer) downloadedProgram(c *Cmd, head shell.Word, sc *shell.Scope) {
	if head.Dyn || !strings.Contains(head.Text, "/") || !sc.Downloaded(head.Text) {
		return
	}
	a.fire(ruleRceDownloadExec, c, head.Text+" was just downloaded")
}
