package guard

import "strings"

// Opt-in group "cloud": destructive calls of the AWS, GCP and Azure CLIs.
func init() {
	register(
		&Rule{ID: "cloud.aws-destroy", Category: "cloud", Group: "cloud", Verdict: Deny, Names: []string{"aws"},
			When: func(c *Cmd) bool {
				p := c.Pos()
				if len(p) < 2 {
					return false
				}
				svc, op := strings.ToLower(p[0].s), strings.ToLower(p[1].s)
				if svc == "s3" {
					return op == "rb" || op == "rm" && c.Has("--recursive")
				}
				return cloudDestroyVerb(op)
			}, Reason: "this deletes or terminates cloud resources; ask the user"},
		&Rule{ID: "cloud.gcloud-destroy", Category: "cloud", Group: "cloud", Verdict: Deny, Names: []string{"gcloud", "gsutil"},
			When: func(c *Cmd) bool {
				if c.Name == "gsutil" {
					p := c.Pos()
					return len(p) > 0 && (p[0].s == "rb" || p[0].s == "rm" && c.Has("-r", "-R", "-a"))
				}
				for _, w := range c.Pos() {
					if cloudDestroyVerb(strings.ToLower(w.s)) {
						return true
					}
				}
				return false
			}, Reason: "this deletes cloud resources; ask the user"},
		&Rule{ID: "cloud.az-destroy", Category: "cloud", Group: "cloud", Verdict: Deny, Names: []string{"az"},
			When: func(c *Cmd) bool {
				for _, w := range c.Pos() {
					if cloudDestroyVerb(strings.ToLower(w.s)) {
						return true
					}
				}
				return false
			}, Reason: "this deletes Azure resources; ask the user"},
	)
	setValueOpts("aws", "--profile", "--region", "--output", "--endpoint-url", "--bucket", "--key", "--query")
	setValueOpts("gcloud", "--project", "--zone", "--region", "--format", "--account")
	setValueOpts("az", "-g", "--resource-group", "-n", "--name", "--subscription", "-o", "--output")
}

func cloudDestroyVerb(op string) bool {
	for _, p := range []string{"delete", "terminate", "destroy", "remove", "purge", "deregister", "rb"} {
		if strings.HasPrefix(op, p) {
			return true
		}
	}
	return false
}
