package review

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/consensus"
)

// Report is a review's result, as its JSON file holds it.
type Report struct {
	ID        string             `json:"id"`
	Task      int                `json:"task,omitempty"`
	Focus     string             `json:"focus"`
	Dir       string             `json:"dir"`
	Started   time.Time          `json:"started"`
	Ended     time.Time          `json:"ended"`
	Reviewers []Status           `json:"reviewers"`
	Findings  []consensus.Merged `json:"findings"`
}

// Status is one reviewer's outcome.
type Status struct {
	Reviewer
	TaskID   string `json:"task_id,omitempty"`
	Outcome  string `json:"outcome"`
	Findings int    `json:"findings"`
	Error    string `json:"error,omitempty"`
}

// Answered counts the reviewers whose findings were read.
func (r *Report) Answered() int {
	n := 0
	for _, s := range r.Reviewers {
		if s.Outcome == Answered {
			n++
		}
	}
	return n
}

// Paths are the report's files, relative to the project root.
func (r *Report) Paths() (md, js string) {
	base := filepath.Join(r.Dir, r.ID)
	return base + ".md", base + ".json"
}

// write puts the report's markdown and JSON in its directory.
func write(root string, r *Report) error {
	md, js := r.Paths()
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := writeFile(root, js, append(b, '\n')); err != nil {
		return fmt.Errorf("write the review report: %w", err)
	}
	if err := writeFile(root, md, []byte(r.Markdown())); err != nil {
		return fmt.Errorf("write the review report: %w", err)
	}
	return nil
}

// Markdown is the report for people: the reviewers and how each ended,
// then the findings, those more reviewers agree on first.
func (r *Report) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Multi-model review %s\n\n", r.ID)
	if r.Task > 0 {
		fmt.Fprintf(&b, "Task: %d  \n", r.Task)
	}
	fmt.Fprintf(&b, "Focus: %s  \n", orDefault(r.Focus))
	fmt.Fprintf(&b, "Reviewers: %d of %d answered; %d findings after merging.\n\n", r.Answered(), len(r.Reviewers), len(r.Findings))
	b.WriteString("| Reviewer | Task | Outcome | Findings |\n|---|---|---|---|\n")
	for _, s := range r.Reviewers {
		out := s.Outcome
		if s.Error != "" {
			out += ": " + oneLine(s.Error)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d |\n", cell(s.Label()), cell(s.TaskID), cell(out), s.Findings)
	}
	b.WriteString("\n## Findings\n\nRanked by how many reviewers found each, then by severity.\n\n")
	if len(r.Findings) == 0 {
		b.WriteString("None.\n")
	}
	for i, f := range r.Findings {
		fmt.Fprintf(&b, "%d. **[%s] %s** — `%s` — %d/%d: %s\n", i+1, f.Severity, f.Title, place(f.Finding), f.Agreement, r.Answered(), strings.Join(f.Reviewers, ", "))
		for _, d := range append([]string{f.Detail}, f.Details...) {
			if d = oneLine(d); d != "" {
				fmt.Fprintf(&b, "   - %s\n", d)
			}
		}
	}
	return b.String()
}

func orDefault(focus string) string {
	if focus == "" {
		return DefaultFocus
	}
	return focus
}

func place(f consensus.Finding) string {
	switch {
	case f.File == "":
		return "(whole change)"
	case f.Line == 0:
		return f.File
	case f.EndLine > f.Line:
		return fmt.Sprintf("%s:%d-%d", f.File, f.Line, f.EndLine)
	}
	return fmt.Sprintf("%s:%d", f.File, f.Line)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// cell keeps a table cell on one line and its pipes from ending it.
func cell(s string) string { return strings.ReplaceAll(oneLine(s), "|", `\|`) }
