package guard

import "strings"

// Helpers shared by the opt-in group rules (rules_<group>.go). Most service
// CLIs are shaped `tool <noun>... <verb> <target>`, so a rule names the tool
// and the destructive verbs and looks for the verb among the first few
// positionals; the depth bound keeps a resource *named* "delete" further
// right from matching.

// hasVerb: one of the first n positionals is one of verbs ("a|b"). A
// rule's When is a function literal calling it, static data, where a
// closure made by a helper would be built when the batch loads.
func hasVerb(c *Cmd, n int, verbs string) bool {
	p := c.Pos()
	for i := 0; i < len(p) && i < n; i++ {
		if !p[i].Dyn && oneOf(strings.ToLower(p[i].Text), verbs) {
			return true
		}
	}
	return false
}

// posLower returns positional i lowercased, or "" when absent or computed.
func posLower(c *Cmd, i int) string {
	p := c.Pos()
	if i >= len(p) || p[i].Dyn {
		return ""
	}
	return strings.ToLower(p[i].Text)
}

// hasPrefixAny reports whether s starts with one of the prefixes.
func hasPrefixAny(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// hasSuffixAny reports whether s ends with one of the suffixes.
func hasSuffixAny(s string, suffixes ...string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

// httpClients are the command-line HTTP clients whose requests the groups
// judge by method and endpoint.
var httpClients = []string{"curl", "wget", "http", "https", "xh", "xhs"}

// httpCall is one request as the command line spells it.
type httpCall struct {
	method string // upper case
	host   string // lower case, without port
	port   string
	path   string // lower case, without query
	body   string // lower case request body given inline, if any
}

// httpOf reads the method, URL and inline body of a curl/wget/HTTPie call.
func httpOf(c *Cmd) (httpCall, bool) {
	var h httpCall
	var url string
	p := c.Pos()
	switch c.Name {
	case "curl":
		h.method, _ = c.Flag("-X", "--request")
		if u, ok := c.Flag("--url"); ok {
			url = u
		}
		for _, f := range []string{"-d", "--data", "--data-raw", "--data-binary", "--json"} {
			if v, ok := c.Flag(f); ok {
				h.body = v
				if h.method == "" {
					h.method = "POST"
				}
			}
		}
	case "wget":
		if m, ok := c.Flag("--method"); ok {
			h.method = m
		}
		for _, f := range []string{"--post-data", "--body-data"} {
			if v, ok := c.Flag(f); ok {
				h.body = v
				if h.method == "" {
					h.method = "POST"
				}
			}
		}
	default: // HTTPie and xh: [METHOD] URL [items]
		if len(p) > 1 && !p[0].Dyn && isHTTPMethod(p[0].Text) {
			h.method = p[0].Text
			p = p[1:]
		}
	}
	if url == "" {
		for _, w := range p {
			if !w.Dyn {
				url = w.Text
				break
			}
		}
	}
	if url == "" {
		return h, false
	}
	if h.method == "" {
		h.method = "GET"
	}
	h.method = strings.ToUpper(h.method)
	u := strings.ToLower(url)
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	} else if strings.HasPrefix(u, ":") {
		u = "localhost" + u // HTTPie's :port/path shorthand
	}
	hostport, path, _ := strings.Cut(u, "/")
	if i := strings.LastIndexByte(hostport, '@'); i >= 0 {
		hostport = hostport[i+1:]
	}
	h.host, h.port, _ = strings.Cut(hostport, ":")
	path, _, _ = strings.Cut(path, "?")
	h.path = "/" + path
	h.body = strings.ToLower(h.body)
	return h, true
}

func isHTTPMethod(s string) bool {
	return oneOf(s, "GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS")
}

// apiEndpoint recognises one service's HTTP API. A request matches when
// every non-empty field matches.
type apiEndpoint struct {
	host string // substring of the host name
	port string // exact port
	path string // substring of the path
}

func (e apiEndpoint) match(h httpCall) bool {
	return (e.host == "" || strings.Contains(h.host, e.host)) &&
		(e.port == "" || h.port == e.port) &&
		(e.path == "" || strings.Contains(h.path, e.path))
}

// destructiveEndpoints are non-DELETE requests that delete or disable data
// (Elasticsearch delete-by-query, Jenkins doDelete, Prometheus series
// deletion, ...), keyed by path substring, with the method they need ("" =
// any).
type destructiveEndpoint struct {
	method, path string
}

var destructiveEndpoints = []destructiveEndpoint{
	{"", "/_delete_by_query"},
	{"POST", "/_close"},
	{"PUT", "/_cluster/settings"},
	{"POST", "/documents/delete-batch"},
	{"POST", "/documents/delete"},
	{"", "/dodelete"},
	{"", "/admin/tsdb/delete_series"},
	{"", "/admin/tsdb/clean_tombstones"},
}

// httpDestroys reports whether c is an HTTP request that deletes something
// through one of the APIs: a DELETE request, a known destructive endpoint,
// or a GraphQL mutation named delete*/destroy*/remove*.
func httpDestroys(c *Cmd, apis []apiEndpoint) bool {
	h, ok := httpOf(c)
	if !ok {
		return false
	}
	known := false
	for _, e := range apis {
		if e.match(h) {
			known = true
			break
		}
	}
	if !known {
		return false
	}
	if h.method == "DELETE" {
		return true
	}
	for _, d := range destructiveEndpoints {
		if (d.method == "" || d.method == h.method) && strings.HasSuffix(strings.TrimSuffix(h.path, "/"), d.path) {
			return true
		}
	}
	if strings.Contains(h.path, "graphql") && strings.Contains(h.body, "mutation") {
		for _, v := range []string{"delete", "destroy", "remove"} {
			if strings.Contains(h.body, v) {
				return true
			}
		}
	}
	return false
}

// httpRule builds the rule judging HTTP calls to one group's APIs.
func httpRule(id ruleID, group string, apis []apiEndpoint, reason string) *Rule {
	return &Rule{ID: id, Category: group, Group: group, Verdict: Deny, Names: httpClients,
		When: func(c *Cmd) bool { return httpDestroys(c, apis) }, Reason: reason}
}
