package guard

import "strings"

// monitoringRules are registerMonitoring's rules, static data: loading the
// batch allocates none of them.
var monitoringRules = []*Rule{
	{ID: ruleMonitoringCliDelete, Category: "monitoring", Group: "monitoring", Verdict: Deny,
		Names: []string{"datadog-ci", "newrelic", "pd", "sentry-cli", "opsgenie"},
		When:  func(c *Cmd) bool { return hasVerb(c, 3, "delete|remove") }, Reason: "this deletes monitors, dashboards, schedules, services or entities; ask the user"},
	{ID: ruleMonitoringGrafanaPluginRemove, Category: "monitoring", Group: "monitoring", Verdict: Ask, Names: []string{"grafana-cli", "grafana"},
		When: func(c *Cmd) bool { return hasVerb(c, 3, "uninstall|remove") }, Reason: "this removes a Grafana plugin that dashboards may use; ask the user"},
	{ID: ruleMonitoringSplunkDelete, Category: "monitoring", Group: "monitoring", Verdict: Deny, Names: []string{"splunk"},
		When: whenMonitoringSplunkDelete, Reason: "this deletes Splunk indexes, indexed events or users; ask the user"},
	{ID: ruleMonitoringPromtoolDelete, Category: "monitoring", Group: "monitoring", Verdict: Deny, Names: []string{"promtool"},
		When: whenMonitoringPromtoolDelete, Reason: "this deletes Prometheus series; ask the user"},
}

// Opt-in group "monitoring": observability and alerting (Datadog, New
// Relic, PagerDuty, Grafana, Prometheus, Splunk, Opsgenie, Sentry).
// Deleting dashboards, monitors, schedules, services, series or indexes is
// denied: an outage then goes unnoticed or its history is lost.
func registerMonitoring() {
	register(monitoringRules...)
	register(httpRule(ruleMonitoringApiDelete, "monitoring", monitoringAPIs,
		"this deletes dashboards, monitors, alerting or stored metrics through the API; ask the user"))
}

// monitoringAPIs: hosted APIs, and self-hosted servers by default port,
// host name or API path.
var monitoringAPIs = []apiEndpoint{
	{host: "datadoghq."}, {host: "newrelic.com"}, {host: "pagerduty.com"}, {host: "opsgenie.com"}, {host: "sentry.io"},
	{host: "grafana"}, {path: "/api/dashboards"}, {path: "/api/datasources"}, {path: "/api/alert-notifications"},
	{port: "9090"}, {host: "prometheus"}, {path: "/api/v1/admin/tsdb"},
	{port: "8089"}, {host: "splunk"},
}

// whenMonitoringSplunkDelete is the condition of rule monitoring.splunk-delete.
func whenMonitoringSplunkDelete(c *Cmd) bool {
	return oneOf(posLower(c, 0), "remove|delete|clean")
}

// whenMonitoringPromtoolDelete is the condition of rule monitoring.promtool-delete.
func whenMonitoringPromtoolDelete(c *Cmd) bool {
	return posLower(c, 0) == "tsdb" && strings.HasPrefix(posLower(c, 1), "delete")
}
