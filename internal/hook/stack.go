package hook

// hookStack is the stack a hook's work grows to: parsing and walking a
// shell command recurses deeply, and a goroutine that starts with a few
// kilobytes of stack and doubles it on demand copies (and rewrites the
// pointers of) a deeper stack at every doubling.
const hookStack = 64 << 10

// stackSink is never set: it keeps growStack's frame from being compiled
// away.
var stackSink bool

// growStack grows the calling goroutine's stack to hookStack in one step
// while the stack is still shallow, so copying it is cheap. The frame is
// reserved by the function's prologue but only zeroed on the branch that
// never runs, so its pages are not touched here.
//
//go:noinline
func growStack() {
	if stackSink {
		var frame [hookStack / 2]byte
		consume(frame[:])
	}
}

//go:noinline
func consume([]byte) {}
