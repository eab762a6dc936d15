package audit

import (
	"cmp"
	"slices"
	"time"
)

// Stats summarizes the records a filter selects: how many there are, and
// what was stopped, by rule and by day. A record counts once, under its
// strongest outcome: deny, else ask, else block (a Stop kept going, a
// prompt refused); "stopped" is deny plus block, the actions that did not
// happen, while an ask left the choice to the user.
type Stats struct {
	Records int         `json:"records"`
	First   string      `json:"first"` // the oldest record's time ("" when none)
	Last    string      `json:"last"`
	Damaged int         `json:"damaged"` // lines skipped because they are not records
	Rules   []RuleStats `json:"rules"`   // most stopped first
	Days    []DayStats  `json:"days"`    // oldest first, in the reader's time zone
}

// Outcomes counts records by outcome.
type Outcomes struct {
	Stopped int `json:"stopped"` // deny + block
	Deny    int `json:"deny"`
	Ask     int `json:"ask"`
	Block   int `json:"block"`
}

func (o *Outcomes) add(oc outcome) {
	switch oc {
	case outDeny:
		o.Deny++
		o.Stopped++
	case outAsk:
		o.Ask++
	case outBlock:
		o.Block++
		o.Stopped++
	}
}

// RuleStats is one rule's outcomes; Rule is "" for a block no rule named.
type RuleStats struct {
	Rule string `json:"rule"`
	Outcomes
}

// DayStats is one day's records and outcomes; Day is YYYY-MM-DD.
type DayStats struct {
	Day     string `json:"day"`
	Records int    `json:"records"`
	Outcomes
}

type outcome int

const (
	outNone outcome = iota
	outDeny
	outAsk
	outBlock
)

func outcomeOf(v *fields) outcome {
	switch {
	case eq(v.verdict, "deny"):
		return outDeny
	case eq(v.verdict, "ask"):
		return outAsk
	case v.block:
		return outBlock
	}
	return outNone
}

// Stats summarizes the records matching f, with days in loc.
func (t *Trail) Stats(f Filter, loc *time.Location) (*Stats, error) { return stats(t, f, loc) }

// stats is Stats of either trail.
func stats(t trail, f Filter, loc *time.Location) (*Stats, error) {
	st := &Stats{Rules: []RuleStats{}, Days: []DayStats{}}
	rules := map[string]*Outcomes{}
	days := map[string]*DayStats{}
	var lastKey, lastD string // the day of the last minute seen: records come in order
	res, err := t.each(f, false, func(_ []byte, v *fields) error {
		st.Records++
		stamp := str(v.time)
		if st.First == "" {
			st.First = stamp
		}
		st.Last = stamp
		if len(stamp) < 16 || stamp[:16] != lastKey {
			lastD = dayOf(stamp, loc)
			if len(stamp) >= 16 {
				lastKey = stamp[:16]
			}
		}
		d := days[lastD]
		if d == nil {
			d = &DayStats{Day: lastD}
			days[lastD] = d
		}
		d.Records++
		oc := outcomeOf(v)
		if oc == outNone {
			return nil
		}
		d.add(oc)
		rule := str(v.rule)
		r := rules[rule]
		if r == nil {
			r = &Outcomes{}
			rules[rule] = r
		}
		r.add(oc)
		return nil
	})
	st.Damaged = res.Damaged
	if err != nil {
		return nil, err
	}
	for rule, o := range rules {
		st.Rules = append(st.Rules, RuleStats{Rule: rule, Outcomes: *o})
	}
	slices.SortFunc(st.Rules, func(a, b RuleStats) int {
		return cmp.Or(b.Stopped-a.Stopped, b.Ask-a.Ask, cmp.Compare(a.Rule, b.Rule))
	})
	for _, d := range days {
		st.Days = append(st.Days, *d)
	}
	slices.SortFunc(st.Days, func(a, b DayStats) int { return cmp.Compare(a.Day, b.Day) })
	return st, nil
}

// dayOf is the day of a record's time in loc; "unknown" if unreadable.
func dayOf(stamp string, loc *time.Location) string {
	t, err := time.Parse(time.RFC3339Nano, stamp)
	if err != nil {
		return "unknown"
	}
	return t.In(loc).Format(time.DateOnly)
}
