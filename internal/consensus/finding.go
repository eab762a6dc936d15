package consensus

import "strings"

// Severity is how much a finding matters, as the review prompt asks a
// reviewer to grade it.
type Severity string

// The severities, most severe first.
const (
	Critical Severity = "critical"
	High     Severity = "high"
	Medium   Severity = "medium"
	Low      Severity = "low"
	Info     Severity = "info"
)

// Severities are the grades in order, most severe first.
func Severities() []Severity { return []Severity{Critical, High, Medium, Low, Info} }

// Rank orders severities: higher is more severe; an unknown one ranks
// with info.
func (s Severity) Rank() int {
	switch s {
	case Critical:
		return 4
	case High:
		return 3
	case Medium:
		return 2
	case Low:
		return 1
	}
	return 0
}

// ParseSeverity reads a reviewer's grade leniently (case, "major",
// "minor", "warning", "error" are the words models reach for); anything
// else is info, so a finding is never dropped for its grade.
func ParseSeverity(s string) Severity {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "critical", "blocker", "fatal":
		return Critical
	case "high", "major", "error", "severe":
		return High
	case "medium", "moderate", "warning", "warn":
		return Medium
	case "low", "minor", "nit", "style":
		return Low
	}
	return Info
}

// Finding is one problem a reviewer reports. Line and EndLine are
// 1-based and inclusive; Line 0 means the reviewer named no line (the
// whole file).
type Finding struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`
	EndLine  int      `json:"end_line,omitempty"`
	Severity Severity `json:"severity"`
	Title    string   `json:"title"`
	Detail   string   `json:"detail,omitempty"`
}

// Report is one reviewer's findings.
type Report struct {
	Reviewer string
	Findings []Finding
}

// Merged is one finding after merging: the most severe grade any
// reviewer gave it, the first reviewer's wording, and who found it.
type Merged struct {
	Finding
	// Reviewers are those who reported it, in the order of the reports.
	Reviewers []string `json:"reviewers"`
	// Agreement is len(Reviewers): how many reviewers found it.
	Agreement int `json:"agreement"`
	// Details are the other reviewers' details, when they differ.
	Details []string `json:"other_details,omitempty"`
}
