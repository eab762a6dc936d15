package guard

import "strings"

// networkRules are registerNetwork's rules, static data: loading the
// batch allocates none of them.
var networkRules = []*Rule{
	{ID: ruleNetworkWranglerDelete, Category: "network", Group: "network", Verdict: Deny, Names: []string{"wrangler"},
		When: whenNetworkWranglerDelete, Reason: "this deletes or rolls back Cloudflare Workers, KV, R2, D1 or DNS resources; ask the user"},
	{ID: ruleNetworkFastlyDelete, Category: "network", Group: "network", Verdict: Deny, Names: []string{"fastly"},
		When: func(c *Cmd) bool { return hasVerb(c, 3, "delete|purge") }, Reason: "this deletes Fastly services, domains, backends or configuration (or purges the cache); ask the user"},
	{ID: ruleNetworkFastlyActivate, Category: "network", Group: "network", Verdict: Ask, Names: []string{"fastly"},
		When: func(c *Cmd) bool { return hasVerb(c, 3, "activate|deactivate") }, Reason: "this changes the configuration serving live traffic; ask the user"},
	{ID: ruleNetworkDeckReset, Category: "network", Group: "network", Verdict: Deny, Names: []string{"deck"},
		When: func(c *Cmd) bool { return hasVerb(c, 2, "reset") }, Reason: "decK reset deletes every entity on the Kong gateway; ask the user"},
	{ID: ruleNetworkDeckSync, Category: "network", Group: "network", Verdict: Ask, Names: []string{"deck"},
		When: func(c *Cmd) bool { return hasVerb(c, 2, "sync") }, Reason: "decK sync deletes gateway entities missing from the file; run `deck diff` and ask the user"},
}

// networkRules2 are the rules registerNetwork files after its HTTP rule,
// static data like networkRules.
var networkRules2 = []*Rule{
	{ID: ruleNetworkNsupdate, Category: "network", Group: "network", Verdict: Ask, Names: []string{"nsupdate"},
		Reason: "nsupdate changes live DNS records; ask the user"},
	{ID: ruleNetworkZoneTransfer, Category: "network", Group: "network", Verdict: Ask, Names: []string{"dig", "host", "drill"},
		When: whenNetworkZoneTransfer, Reason: "a zone transfer dumps a whole DNS zone; ask the user"},
	{ID: ruleNetworkProxyStop, Category: "network", Group: "network", Verdict: Ask, Names: []string{"nginx", "openresty"},
		When:   func(c *Cmd) bool { s, _ := c.Flag("-s"); return oneOf(s, "stop|quit") },
		Reason: "this stops the web server or proxy serving traffic; ask the user"},
	{ID: ruleNetworkProxyStop, Category: "network", Group: "network", Verdict: Ask, Names: []string{"haproxy"},
		When: func(c *Cmd) bool {
			// -sf/-st are single options taking the old PIDs, not a
			// cluster of -s and -f.
			for _, w := range c.Args {
				if oneOf(w.Text, "-sf|-st") {
					return true
				}
			}
			return false
		}, Reason: "this replaces or terminates the running HAProxy processes; ask the user"},
	{ID: ruleNetworkProxyStop, Category: "network", Group: "network", Verdict: Ask, Names: []string{"systemctl", "service", "rc-service"},
		When: serviceStopsProxy, Reason: "this stops the web server or proxy serving traffic; ask the user"},
	{ID: ruleNetworkProxyStop, Category: "network", Group: "network", Verdict: Ask, Names: []string{"docker", "podman", "nerdctl"},
		When: func(c *Cmd) bool {
			if !oneOf(posLower(c, 0), "stop|kill|rm|restart") {
				return false
			}
			for _, w := range c.posAfterSub(1) {
				if proxyName(strings.ToLower(w.Text)) {
					return true
				}
			}
			return false
		}, Reason: "this stops or removes the proxy container serving traffic; ask the user"},
}

// Opt-in group "network": the edge in front of applications: CDNs and edge
// platforms (Cloudflare Workers/R2/D1, Fastly), API gateways (Kong/decK),
// DNS (Cloudflare DNS, nsupdate), and load balancers and reverse proxies
// (nginx, HAProxy, Traefik, Envoy, Caddy). Deleting services, routes,
// buckets or records is denied; stopping or replacing a live proxy and
// pushing whole configurations ask.
func registerNetwork() {
	register(networkRules...)
	register(httpRule(ruleNetworkApiDelete, "network", networkAPIs,
		"this deletes gateway, CDN or DNS configuration through its API; ask the user"))
	register(networkRules2...)
	setValueOpts("nginx", "-s", "-c", "-g", "-p", "-e")
	setValueOpts("haproxy", "-f", "-p", "-L", "-C")
	setValueOpts("fastly", "-s", "--service-id", "--version", "-n", "--name", "--token")
	setValueOpts("wrangler", "--namespace-id", "--zone-id", "--record-id", "--env", "-e", "-c", "--config")
	setValueOpts("dig", "-t", "-p", "-b", "-f", "-k", "-y")
}

var proxyNames = []string{"nginx", "haproxy", "traefik", "envoy", "caddy", "apache2", "httpd", "varnish", "squid", "kong", "openresty"}

// proxyName: a service or container name of a known proxy (nginx,
// nginx.service, traefik-1).
func proxyName(s string) bool {
	s = strings.TrimSuffix(s, ".service")
	for _, p := range proxyNames {
		if s == p || strings.HasPrefix(s, p+"-") || strings.HasPrefix(s, p+"_") {
			return true
		}
	}
	return false
}

// serviceStopsProxy: `systemctl stop|disable|mask|kill NAME` and
// `service NAME stop` for a proxy.
func serviceStopsProxy(c *Cmd) bool {
	p := c.Pos()
	if len(p) < 2 {
		return false
	}
	verb, units := strings.ToLower(p[0].Text), p[1:]
	if c.Name != "systemctl" {
		verb, units = strings.ToLower(p[1].Text), p[:1]
	}
	if !oneOf(verb, "stop|disable|mask|kill") {
		return false
	}
	for _, u := range units {
		if proxyName(strings.ToLower(u.Text)) {
			return true
		}
	}
	return false
}

// networkAPIs: API gateway admin APIs and CDN/DNS provider APIs.
var networkAPIs = []apiEndpoint{
	{port: "8001"}, {port: "8444"}, {host: "kong"}, {host: "api.cloudflare.com"}, {host: "api.fastly.com"},
	{host: "api.netlify.com"}, {host: "api.vercel.com"}, {host: "api.digitalocean.com", path: "/domains"},
}

// whenNetworkWranglerDelete is the condition of rule network.wrangler-delete.
func whenNetworkWranglerDelete(c *Cmd) bool {
	return hasVerb(c, 3, "delete|rollback") || strings.HasSuffix(posLower(c, 0), ":bulk") && posLower(c, 1) == "delete"
}

// whenNetworkZoneTransfer is the condition of rule network.zone-transfer.
func whenNetworkZoneTransfer(c *Cmd) bool {
	for _, w := range c.Args {
		if s := strings.ToLower(w.Text); s == "axfr" || s == "-l" && c.Name == "host" || s == "ixfr" {
			return true
		}
	}
	t, _ := c.Flag("-t")
	return strings.EqualFold(t, "axfr")
}
