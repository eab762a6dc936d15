package review

import (
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
)

// Reviewer is one reviewer: a host, and the model it is asked to use
// ("" for the host's default).
type Reviewer struct {
	Host  string `json:"host"`
	Model string `json:"model,omitempty"`
}

// Label is how the report names the reviewer: host, or host/model.
func (r Reviewer) Label() string {
	if r.Model == "" {
		return r.Host
	}
	return r.Host + "/" + r.Model
}

// Options are the review section of the configuration, with what the
// background section says of the hosts.
type Options struct {
	Reviewers []Reviewer
	Agent     string
	Timeout   time.Duration
	// Commands are the hosts' headless commands (background.commands):
	// with no reviewers configured, every host whose command is on PATH
	// reviews.
	Commands map[string][]string
	// LookPath finds a program (exec.LookPath; tests replace it).
	LookPath func(string) (string, error)
	// Poll is how often Collect looks at the tasks.
	Poll time.Duration
}

// FromConfig maps the configuration.
func FromConfig(c *config.Config) Options {
	o := Options{
		Agent:    strings.TrimSpace(c.Review.Agent),
		Timeout:  time.Duration(c.Review.TimeoutMinutes) * time.Minute,
		Commands: c.Background.Commands,
		LookPath: exec.LookPath,
		Poll:     500 * time.Millisecond,
	}
	for _, r := range c.Review.Reviewers {
		if h := strings.TrimSpace(r.Host); h != "" {
			o.Reviewers = append(o.Reviewers, Reviewer{Host: h, Model: strings.TrimSpace(r.Model)})
		}
	}
	if o.Agent == "" {
		o.Agent = "explore"
	}
	if o.Timeout <= 0 {
		o.Timeout = 20 * time.Minute
	}
	return o
}

// LoadOptions reads the project's configuration; a broken file leaves
// the defaults.
func LoadOptions(root string) Options {
	c, _ := config.LoadOrBuiltin(config.DefaultPaths(root))
	return FromConfig(c)
}

// Resolve is who reviews: the hosts named (each with the model the
// configuration gives it, if any), else the configured reviewers, else
// every host whose headless command is on PATH, by name. Installed means
// runnable here: a host whose CLI is not on PATH could not review.
func (o Options) Resolve(hosts []string) []Reviewer {
	if len(hosts) > 0 {
		var out []Reviewer
		for _, h := range hosts {
			r := Reviewer{Host: h}
			if i := slices.IndexFunc(o.Reviewers, func(c Reviewer) bool { return c.Host == h }); i >= 0 {
				r.Model = o.Reviewers[i].Model
			}
			out = append(out, r)
		}
		return out
	}
	if len(o.Reviewers) > 0 {
		return slices.Clone(o.Reviewers)
	}
	var out []Reviewer
	for h, argv := range o.Commands {
		if len(argv) == 0 || o.LookPath == nil {
			continue
		}
		if _, err := o.LookPath(argv[0]); err == nil {
			out = append(out, Reviewer{Host: h})
		}
	}
	slices.SortFunc(out, func(a, b Reviewer) int { return strings.Compare(a.Host, b.Host) })
	return out
}
