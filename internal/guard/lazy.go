package guard

import (
	"regexp"
	"sync"
)

// lazyOf is a value built from src on first use. It is declared as static
// data (&lazyCode{src: `\bopen\(`}, &lazy[T]{src: func() T {...}}): a
// package-level map, a compiled regexp or a sync.OnceValue would
// allocate in package init, which runs in every process that links the
// guard, hooks that check no command included.
type lazyOf[S source[T], T any] struct {
	src  S
	once sync.Once
	v    T
}

// A source is what a lazy value is built from.
type source[T any] interface{ build() T }

func (l *lazyOf[S, T]) get() T {
	l.once.Do(func() { l.v = l.src.build() })
	return l.v
}

// lazy is a table built on first use by a function.
type lazy[T any] = lazyOf[buildFunc[T], T]

type buildFunc[T any] func() T

func (f buildFunc[T]) build() T { return f() }

// lazyRegexp is a regexp compiled on first use.
type lazyRegexp = lazyOf[regexpExpr, *regexp.Regexp]

type regexpExpr string

func (e regexpExpr) build() *regexp.Regexp { return regexp.MustCompile(string(e)) }

// lazyCode is a pattern over inline program text (codePattern), compiled
// on first use.
type lazyCode = lazyOf[codeExpr, *codePattern]

type codeExpr string

func (e codeExpr) build() *codePattern { return compileCodePattern(string(e)) }
