package prompt

import (
	"strings"
	"unicode"

	"github.com/atreides-dev/atreides/internal/lazy"
)

// maxContinuationWords bounds a continuation: "yes, go on please" is one,
// a sentence that names anything is a request.
const maxContinuationWords = 5

// goAhead are the words a go-ahead is made of, in the languages users
// most often type to an agent (one word each: "go on" is "go" and "on").
// A prompt made only of them says "carry on with what you were doing";
// one word outside the set ("ok, now the docs") makes it a request.
var goAhead = lazy.Value[map[string]bool]{New: func() map[string]bool {
	m := map[string]bool{}
	for _, list := range []string{
		// English
		"ok okay k kk yes y yep yeah yup sure continue cont go on ahead proceed next keep going carry resume please pls plz thanks thank you ty lgtm sounds good great fine do it right alright all sgtm",
		// German, French, Spanish, Italian, Portuguese
		"weiter ja mach weitermachen fortfahren gut oui continuez vas y allez d'accord daccord sí si sigue continúa continua dale vale adelante avanti prosegui va bene sim segue vai",
		// Russian, Japanese, Chinese, Korean
		"да продолжай продолжи продолжить дальше ок давай はい 続けて 続行 お願いします 继续 好 好的 是 行 可以 네 계속 계속해",
	} {
		for _, w := range strings.Fields(list) {
			m[w] = true
		}
	}
	return m
}}

// Continuation reports whether a prompt only tells the agent to go on
// ("ok", "continue", "go on", "yes", "proceed", "weiter", "继续", "👍"):
// it starts no new task, so it moves no workflow phase and earns no phase
// note. A prompt of nothing but punctuation or symbols is one too.
func Continuation(text string) bool {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r) && r != '\''
	})
	if len(words) > maxContinuationWords {
		return false
	}
	set := goAhead.Get()
	for _, w := range words {
		if !set[strings.Trim(w, "'")] {
			return false
		}
	}
	return true
}

// Resumes reports whether a prompt tells the agent to go on with the work
// it has, in more words than a go-ahead: "continue where you left off",
// "ok, keep going until the tests pass", "proceed with the plan", "go
// ahead and implement it". After any acknowledgements ("ok", "yes",
// "please") its first word says to carry on; what follows only steers
// the same task. "ok, now the docs" is a request: "now" says nothing of
// carrying on.
func Resumes(text string) bool {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r) && r != '\''
	})
	i := 0
	for i < len(words) && acks.Get()[words[i]] {
		i++
	}
	if i == len(words) {
		return false
	}
	next := ""
	if i+1 < len(words) {
		next = words[i+1]
	}
	switch words[i] {
	case "keep", "carry", "go":
		return next == "going" || next == "on" || next == "at" || next == "ahead"
	}
	return resumeVerbs.Get()[words[i]]
}

// acks are the words that only acknowledge, before what the user says.
var acks = lazy.Value[map[string]bool]{New: func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("ok okay k kk yes y yep yeah yup sure please pls plz thanks thank you ty lgtm great fine alright right good cool nice perfect so then ja oui sí si да ок") {
		m[w] = true
	}
	return m
}}

// resumeVerbs say "carry on", in the languages goAhead covers.
var resumeVerbs = lazy.Value[map[string]bool]{New: func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("continue cont resume proceed finish weiter weitermachen fortfahren continuez continuer continúa continua sigue prosegui продолжай продолжи продолжить дальше 继续 続けて 続行 계속 계속해") {
		m[w] = true
	}
	return m
}}
