package guard

// saasRules are registerSaaS's rules, static data: loading the
// batch allocates none of them.
var saasRules = []*Rule{
	{ID: ruleSaasFlagsDelete, Category: "saas", Group: "saas", Verdict: Deny, Names: []string{"ldcli", "unleash", "flipt"},
		When: func(c *Cmd) bool { return hasVerb(c, 2, "delete|archive") }, Reason: "this deletes or archives feature flags, segments, environments or projects; ask the user"},
	// `split` is also coreutils split, so its nouns are listed.
	{ID: ruleSaasFlagsDelete, Category: "saas", Group: "saas", Verdict: Deny, Names: []string{"split"},
		Sub:    []string{"splits|environments|segments|traffic-types|workspaces|attributes|flags|flag-sets", "delete|kill|archive"},
		Reason: "this deletes or kills feature flags, segments, environments or workspaces; ask the user"},
	{ID: ruleSaasPaymentsDelete, Category: "saas", Group: "saas", Verdict: Deny, Names: []string{"stripe", "square"},
		When: func(c *Cmd) bool { return hasVerb(c, 2, "delete|cancel") }, Reason: "this deletes customers, products, prices or webhooks (or cancels subscriptions); ask the user"},
	{ID: ruleSaasStripeKeys, Category: "saas", Group: "saas", Verdict: Ask, Names: []string{"stripe"},
		Sub: []string{"api_keys|api-keys", "roll|expire"}, Reason: "rolling an API key breaks every client still using it; ask the user"},
}

// Opt-in group "saas": hosted business services driven from the shell:
// feature flags (LaunchDarkly, Split, Unleash, Flipt), email delivery
// (SendGrid, Mailgun, Postmark), and payments (Stripe, Square, Braintree).
// Deleting flags, templates, domains, customers or products is denied;
// rolling API keys asks.
func registerSaaS() {
	register(saasRules...)
	register(httpRule(ruleSaasApiDelete, "saas", saasAPIs,
		"this deletes feature flags, email or payment resources through the provider's API; ask the user"))
}

// saasAPIs: hosted providers' API hosts, and the self-hosted flag servers
// by host name or admin path.
var saasAPIs = []apiEndpoint{
	{host: "launchdarkly.com"}, {host: "split.io"}, {host: "unleash"}, {path: "/api/admin/projects"}, {host: "flipt"},
	{host: "configcat.com"}, {host: "flagsmith.com"}, {host: "optimizely.com"},
	{host: "sendgrid.com"}, {host: "mailgun.net"}, {host: "postmarkapp.com"}, {host: "mailchimp.com"}, {host: "api.resend.com"},
	{host: "sparkpost.com"}, {host: "twilio.com"},
	{host: "api.stripe.com"}, {host: "squareup.com"}, {host: "braintreegateway.com"}, {host: "paypal.com"}, {host: "adyen.com"},
}
