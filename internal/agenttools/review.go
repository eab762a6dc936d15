package agenttools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/review"
	"github.com/atreides-dev/atreides/internal/state"
)

// Review is the multi-model review tool (package review).
func Review() []Tool {
	return []Tool{{Name: "review_models",
		Description: "Multi-model review: run the same review (focus; default the uncommitted changes) on every configured reviewer host and model in the background, then merge their findings by agreement (findings more reviewers found first, then by severity) into one report under the task's directory. Waits up to wait seconds; if the reviewers are not done, call again with review_id to collect the report. Reviewers that fail or time out are named.",
		Schema:      json.RawMessage(reviewSchema), Call: reviewModels}}
}

const reviewSchema = `{"type":"object","properties":{
"focus":{"type":"string","maxLength":16384,"description":"what to review: files, a change, a concern; omitted: the uncommitted changes, else the last commit"},
"hosts":{"type":"array","maxItems":16,"items":{"type":"string","maxLength":64},"description":"the reviewers' hosts; omitted: the configured reviewers (review.reviewers)"},
"task":{"type":"integer","minimum":0,"description":"the task (number) the review is for: its report goes to the task's directory"},
"review_id":{"type":"string","maxLength":64,"description":"an earlier review (review-N) to collect instead of starting one"},
"wait":{"type":"integer","minimum":0,"description":"seconds to wait for the report (bounded by background.wait_seconds)"}},
"additionalProperties":false}`

type reviewIn struct {
	Focus    string   `json:"focus"`
	Hosts    []string `json:"hosts"`
	Task     int      `json:"task"`
	ReviewID string   `json:"review_id"`
	Wait     *int     `json:"wait"`
}

func reviewModels(ctx context.Context, env *Env, args json.RawMessage) (string, error) {
	var in reviewIn
	if err := json.Unmarshal(args, &in); err != nil {
		return "", fmt.Errorf("invalid arguments: %w", err)
	}
	r := registry(env)
	o := review.LoadOptions(env.Root)
	// Without a wait the call waits as long as a tool call may.
	wait := r.Opts.WaitMax
	if in.Wait != nil {
		wait = min(time.Duration(max(*in.Wait, 0))*time.Second, r.Opts.WaitMax)
	}
	run, err := startOrLoad(ctx, env, r.Root, in, o)
	if err != nil {
		return "", err
	}
	if run.Parent != "" && run.Parent != "cli" && env.Session != "" && run.Parent != env.Session {
		return "", fmt.Errorf("review %s belongs to another session", run.ID)
	}
	rep, done, err := review.Collect(ctx, r, run, wait, 0)
	if err != nil {
		return "", err
	}
	if !done {
		return fmt.Sprintf("Review %s is running: %d of %d reviewers answered so far. Call review_models again with review_id %q (and a wait) to collect the report.", rep.ID, rep.Answered(), len(rep.Reviewers), rep.ID), nil
	}
	md, js := rep.Paths()
	return fmt.Sprintf("%s\nReport: %s (JSON: %s)", strings.TrimPrefix(rep.Markdown(), "# "), md, js), nil
}

// startOrLoad starts the review the arguments ask for, for the calling
// session, or loads the earlier one they name.
func startOrLoad(ctx context.Context, env *Env, root string, in reviewIn, o review.Options) (*review.Run, error) {
	if in.ReviewID != "" {
		return review.Load(root, in.ReviewID)
	}
	r := registry(env)
	var parent string
	if err := r.View(ctx, func(p *state.Project) error { parent = caller(env, p); return nil }); err != nil {
		return nil, err
	}
	if parent == "" {
		return nil, errors.New("atreides has not seen a session of this project yet; make any tool call first, then retry")
	}
	q := review.Request{Focus: in.Focus, Hosts: in.Hosts, Task: in.Task, Parent: parent, ParentAgent: env.Agent, Path: path(env), Facts: env.Hosts}
	if in.Task > 0 {
		dir, err := review.ReportDir(ctx, root, in.Task)
		if err != nil {
			return nil, err
		}
		q.Dir = dir
	}
	return review.Start(ctx, r, o, q)
}
