package guard

import "strings"

// cloudRules are registerCloud's rules, static data: loading the
// batch allocates none of them.
var cloudRules = []*Rule{
	{ID: ruleCloudAwsDestroy, Category: "cloud", Group: "cloud", Verdict: Deny, Names: []string{"aws"},
		When: whenCloudAwsDestroy, Reason: "this deletes or terminates cloud resources; ask the user"},
	{ID: ruleCloudAwsDisrupt, Category: "cloud", Group: "cloud", Verdict: Ask, Names: []string{"aws"},
		When: whenCloudAwsDisrupt, Reason: "this stops, disables or invalidates a live cloud resource; ask the user"},
	{ID: ruleCloudGcloudDestroy, Category: "cloud", Group: "cloud", Verdict: Deny, Names: []string{"gcloud"},
		When:   func(c *Cmd) bool { return cliVerb(c, 5, gcloudDeleteVerbs) },
		Reason: "this deletes Google Cloud resources; ask the user"},
	{ID: ruleCloudAzDestroy, Category: "cloud", Group: "cloud", Verdict: Deny, Names: []string{"az"},
		When:   func(c *Cmd) bool { return cliVerb(c, 5, azDeleteVerbs) },
		Reason: "this deletes Azure resources; ask the user"},
	{ID: ruleCloudAzDisrupt, Category: "cloud", Group: "cloud", Verdict: Ask, Names: []string{"az"},
		When:   func(c *Cmd) bool { return cliVerb(c, 5, []string{"untag", "stop", "deallocate", "restart"}) },
		Reason: "this stops or changes a live Azure resource; ask the user"},
	{ID: ruleCloudApigeeDelete, Category: "cloud", Group: "cloud", Verdict: Deny, Names: []string{"apigeecli"},
		When: func(c *Cmd) bool { return hasVerb(c, 3, "delete|undeploy") }, Reason: "this deletes Apigee API proxies, products, environments or organisations; ask the user"},
}

// Opt-in group "cloud": the AWS, Google Cloud and Azure CLIs (every
// service, so API Gateway, CloudFront, ELB, Route 53, SES ... included) and
// Apigee. Deleting or terminating a resource is denied; disruptive but
// recoverable operations (stopping, cache invalidation, untagging) ask.
// Storage, secrets and messaging services of these clouds also have rules
// in their own groups so that enabling only that group covers them.
func registerCloud() {
	register(cloudRules...)
	setValueOpts("aws", "--profile", "--region", "--output", "--endpoint-url", "--bucket", "--key", "--query",
		"--color", "--ca-bundle", "--cli-read-timeout", "--cli-connect-timeout", "--change-batch")
	setValueOpts("gcloud", "--project", "--zone", "--region", "--format", "--account", "--location", "--configuration")
	setValueOpts("az", "-g", "--resource-group", "-n", "--name", "--subscription", "-o", "--output")
}

// awsDeleteOp: the aws CLI names every operation verb-first
// (delete-bucket, terminate-instances, batch-delete-image).
func awsDeleteOp(op string) bool {
	return hasPrefixAny(op, "delete-", "batch-delete", "terminate-", "deregister-", "remove-", "purge-",
		"destroy-", "unsubscribe", "schedule-key-deletion", "revoke-")
}

// s3Deletes: `aws s3 rm|rb`, and sync/mv with --delete (a --dryrun
// never gets here: effect_preview.go).
func s3Deletes(c *Cmd, op string) bool {
	switch op {
	case "rm", "rb":
		return true
	case "sync":
		return c.Has("--delete")
	}
	return false
}

// changeBatchDeletes: a Route 53 change batch containing a DELETE action
// (or read from a file, which cannot be checked).
func changeBatchDeletes(c *Cmd) bool {
	v, ok := c.Flag("--change-batch")
	return ok && (strings.Contains(strings.ToUpper(v), "DELETE") || strings.HasPrefix(v, "file://"))
}

var (
	gcloudDeleteVerbs = []string{"delete", "remove", "destroy", "undeploy", "purge", "terminate"}
	azDeleteVerbs     = []string{"delete", "purge", "remove", "destroy"}
)

// cliVerb: one of the first n positionals is a command word (lower case
// letters and dashes) equal to a verb or starting with verb+"-"
// (delete-batch, remove-iam-policy-binding). Values such as gs:// URLs or
// paths are not command words.
func cliVerb(c *Cmd, n int, verbs []string) bool {
	p := c.Pos()
	for i := 0; i < len(p) && i < n; i++ {
		w := p[i].Text
		if p[i].Dyn || !commandWord(w) {
			continue
		}
		for _, v := range verbs {
			if w == v || strings.HasPrefix(w, v) && w[len(v)] == '-' {
				return true
			}
		}
	}
	return false
}

func commandWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if b := s[i]; !(b >= 'a' && b <= 'z' || b == '-' || b == '_' || b >= '0' && b <= '9' && i > 0) {
			return false
		}
	}
	return true
}

// whenCloudAwsDestroy is the condition of rule cloud.aws-destroy.
func whenCloudAwsDestroy(c *Cmd) bool {
	svc, op := posLower(c, 0), posLower(c, 1)
	return awsDeleteOp(op) || svc == "s3" && s3Deletes(c, op) ||
		svc == "route53" && op == "change-resource-record-sets" && changeBatchDeletes(c)
}

// whenCloudAwsDisrupt is the condition of rule cloud.aws-disrupt.
func whenCloudAwsDisrupt(c *Cmd) bool {
	op := posLower(c, 1)
	return hasPrefixAny(op, "stop-", "reboot-", "create-invalidation", "disable-")
}
