package prompt

import "github.com/atreides-dev/atreides/internal/lazy"

// Class is the kind of work a prompt asks for.
type Class string

// The classes. Unknown is a prompt with no signal: better no class
// guidance than a wrong one.
const (
	Unknown  Class = ""
	Question Class = "question"
	Bugfix   Class = "bugfix"
	Feature  Class = "feature"
	Refactor Class = "refactor"
	Review   Class = "review"
	Research Class = "research"
	Chore    Class = "chore"
)

// Classes lists the classes, Unknown left out.
func Classes() []Class {
	return []Class{Question, Bugfix, Feature, Refactor, Review, Research, Chore}
}

// tieOrder breaks equal scores: a fix is what a prompt with a failure in
// it most often wants, and a chore the least specific reading.
var tieOrder = []Class{Bugfix, Refactor, Feature, Review, Research, Chore}

// verbs are the verbs that open a request, by class. A clause that opens
// with one (after "please", "can you", "let's", ...) weighs most.
var verbs = lazy.Value[map[string]Class]{New: func() map[string]Class {
	return map[string]Class{
		"fix": Bugfix, "debug": Bugfix, "repair": Bugfix, "resolve": Bugfix, "patch": Bugfix,
		"correct": Bugfix, "troubleshoot": Bugfix, "diagnose": Bugfix, "reproduce": Bugfix, "unbreak": Bugfix,

		"add": Feature, "implement": Feature, "create": Feature, "build": Feature, "make": Feature,
		"write": Feature, "introduce": Feature, "support": Feature, "enable": Feature, "allow": Feature,
		"generate": Feature, "design": Feature, "scaffold": Feature, "extend": Feature, "wire": Feature,
		"integrate": Feature, "expose": Feature, "port": Feature,

		"refactor": Refactor, "rename": Refactor, "extract": Refactor, "simplify": Refactor,
		"restructure": Refactor, "reorganize": Refactor, "reorganise": Refactor, "clean": Refactor,
		"split": Refactor, "inline": Refactor, "move": Refactor, "dedupe": Refactor, "deduplicate": Refactor,
		"consolidate": Refactor, "modularize": Refactor, "tidy": Refactor, "rewrite": Refactor,
		"untangle": Refactor, "decouple": Refactor, "optimize": Refactor, "optimise": Refactor, "dry": Refactor,

		"review": Review, "audit": Review, "critique": Review, "proofread": Review, "check": Review,
		"assess": Review, "vet": Review,

		"investigate": Research, "research": Research, "explore": Research, "find": Research,
		"compare": Research, "evaluate": Research, "analyze": Research, "analyse": Research,
		"study": Research, "look": Research, "figure": Research, "tell": Research, "explain": Research,
		"describe": Research, "summarize": Research, "summarise": Research, "survey": Research,
		"trace": Research, "understand": Research, "show": Research, "list": Research, "measure": Research,

		"update": Chore, "bump": Chore, "upgrade": Chore, "release": Chore, "tag": Chore,
		"commit": Chore, "push": Chore, "merge": Chore, "rebase": Chore, "format": Chore,
		"lint": Chore, "install": Chore, "configure": Chore, "setup": Chore, "set": Chore,
		"delete": Chore, "remove": Chore, "translate": Chore, "regenerate": Chore, "document": Chore,
		"pin": Chore, "vendor": Chore, "cleanup": Chore,
	}
}}

// cues are words that hint at a class wherever they stand in a request or
// a statement; weight 1 unless heavy says more.
var cues = lazy.Value[map[string]Class]{New: func() map[string]Class {
	return map[string]Class{
		"bug": Bugfix, "bugs": Bugfix, "broken": Bugfix, "breaks": Bugfix, "crash": Bugfix, "crashes": Bugfix,
		"crashing": Bugfix, "error": Bugfix, "errors": Bugfix, "exception": Bugfix, "fails": Bugfix,
		"failing": Bugfix, "failure": Bugfix, "failed": Bugfix, "panic": Bugfix, "panics": Bugfix,
		"regression": Bugfix, "wrong": Bugfix, "incorrect": Bugfix, "segfault": Bugfix, "flaky": Bugfix,
		"leak": Bugfix, "leaks": Bugfix, "hangs": Bugfix, "stuck": Bugfix, "traceback": Bugfix,
		"doesn't": Bugfix, "isn't": Bugfix, "won't": Bugfix, "fixed": Bugfix,

		"feature": Feature, "flag": Feature, "option": Feature, "endpoint": Feature, "command": Feature,
		"new": Feature, "ability": Feature, "button": Feature, "subcommand": Feature, "integration": Feature,

		"refactor": Refactor, "refactoring": Refactor, "duplication": Refactor, "duplicated": Refactor, "readability": Refactor,
		"messy": Refactor, "debt": Refactor, "coupling": Refactor, "naming": Refactor, "cleaner": Refactor,

		"review": Review, "pr": Review, "diff": Review, "feedback": Review, "nitpicks": Review,

		"options": Research, "alternatives": Research, "tradeoffs": Research, "approaches": Research,
		"pros": Research, "cons": Research, "findings": Research,

		"dependency": Chore, "dependencies": Chore, "deps": Chore, "version": Chore, "changelog": Chore,
		"readme": Chore, "docs": Chore, "documentation": Chore, "typo": Chore, "typos": Chore,
		"ci": Chore, "pipeline": Chore, "license": Chore, "gitignore": Chore, "formatting": Chore,
	}
}}

// heavy cues decide more than a single hint: a typo fix is a chore, a
// "code review" is a review whatever the verb.
var heavy = lazy.Value[map[string]int]{New: func() map[string]int {
	return map[string]int{"typo": 3, "typos": 3, "review": 3, "refactor": 3, "bump": 2, "changelog": 2}
}}

// fillers open a clause without saying anything about it.
var fillers = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"please": true, "pls": true, "kindly": true, "now": true, "then": true, "so": true, "ok": true,
		"okay": true, "also": true, "and": true, "just": true, "hey": true, "hi": true, "quickly": true,
		"first": true, "next": true, "finally": true, "again": true, "but": true, "actually": true,
	}
}}

// interrogatives open a question.
var interrogatives = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"what": true, "what's": true, "why": true, "how": true, "when": true, "where": true, "which": true,
		"who": true, "whose": true,
	}
}}

// auxiliaries open a question when a subject follows ("is it safe", "do
// you know"); otherwise they may be a request's verb ("do a review").
var auxiliaries = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"is": true, "are": true, "does": true, "do": true, "did": true, "should": true, "was": true,
		"were": true, "has": true, "have": true, "isn't": true, "doesn't": true, "can": true, "could": true,
		"would": true, "will": true, "shall": true, "may": true, "might": true,
	}
}}

var subjects = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"i": true, "you": true, "we": true, "they": true, "it": true, "this": true, "that": true,
		"there": true, "he": true, "she": true, "these": true, "those": true,
	}
}}

// clauseBreaks start a new clause, whose first verb counts as a request:
// "investigate the crash and fix it".
var clauseBreaks = lazy.Value[map[string]bool]{New: func() map[string]bool { return map[string]bool{"and": true, "then": true, "also": true, "so": true} }}

// Classify says what kind of work a prompt asks for, from its prose (code
// and paths say nothing here). Requests weigh most: a clause that opens
// with a verb ("fix it", "can you add a flag", "look into X") gives its
// class 3 points, and cue words in requests and statements ("the build is
// broken") 1 each. Cues inside questions count for nothing: "why does the
// build fail?" asks for an answer, "why does the build fail? fix it" for a
// fix. A prompt with no points is a question when it asks one, else
// Unknown. words are the prompt's [Prose].
func Classify(words []Word) Class {
	score := map[Class]int{}
	asked := false
	for start := 0; start < len(words); {
		end := start
		for end < len(words) && !words[end].End {
			end++
		}
		if end == len(words) {
			end--
		}
		s := words[start : end+1]
		start = end + 1
		if isQuestion(s) {
			asked = true
			continue
		}
		scoreSentence(s, score)
	}
	best, top := Unknown, 0
	for _, c := range tieOrder {
		if score[c] > top {
			best, top = c, score[c]
		}
	}
	if best == Unknown && asked {
		return Question
	}
	return best
}

// isQuestion reports whether a sentence asks rather than requests: it ends
// in '?' or opens with an interrogative, and is not a polite request ("can
// you add a flag?").
func isQuestion(s []Word) bool {
	_, request := requestStart(s)
	if request {
		return false
	}
	first := 0
	for first < len(s)-1 && fillers.Get()[s[first].Text] {
		first++
	}
	if s[len(s)-1].Question || interrogatives.Get()[s[first].Text] {
		return true
	}
	return auxiliaries.Get()[s[first].Text] && first+1 < len(s) && subjects.Get()[s[first+1].Text]
}

// scoreSentence adds a request or statement's points.
func scoreSentence(s []Word, score map[Class]int) {
	i, _ := requestStart(s)
	if c, ok := verbs.Get()[s[min(i, len(s)-1)].Text]; ok {
		score[c] += 3
	}
	for j, w := range s {
		if j > 0 && clauseBreaks.Get()[s[j-1].Text] && j > i {
			if c, ok := verbs.Get()[w.Text]; ok {
				score[c] += 3
				continue
			}
		}
		if c, ok := cues.Get()[w.Text]; ok {
			score[c] += max(heavy.Get()[w.Text], 1)
		}
	}
}

// requestPrefixes open a polite or indirect request; what follows is the
// request's verb.
var requestPrefixes = [][]string{
	{"would", "you", "mind"}, {"can", "you"}, {"could", "you"}, {"would", "you"}, {"will", "you"}, {"can", "we"}, {"could", "we"},
	{"could", "u"}, {"can", "u"}, {"let"}, {"lets"}, {"go", "ahead", "and"},
	{"help", "me"}, {"try", "to"}, {"i", "want", "you", "to"}, {"i", "need", "you", "to"},
	{"i'd", "like", "you", "to"}, {"i", "would", "like", "you", "to"}, {"we", "need", "to"},
	{"i", "need", "to"}, {"we", "should"}, {"you", "should"}, {"make", "sure", "to"},
	{"i", "want", "to"},
}

// requestStart is the index of a sentence's first word after fillers and a
// request prefix, and whether there was a request prefix.
func requestStart(s []Word) (int, bool) {
	i := 0
	for i < len(s)-1 && fillers.Get()[s[i].Text] {
		i++
	}
	for _, p := range requestPrefixes {
		if hasPrefix(s[i:], p) {
			j := i + len(p)
			for j < len(s)-1 && fillers.Get()[s[j].Text] {
				j++
			}
			if j < len(s) {
				return j, true
			}
		}
	}
	return i, false
}

func hasPrefix(s []Word, p []string) bool {
	if len(s) < len(p) {
		return false
	}
	for i, w := range p {
		if s[i].Text != w {
			return false
		}
	}
	return true
}
