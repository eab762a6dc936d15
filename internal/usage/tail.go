package usage

// MaxTail bounds the bytes read from the end of a transcript: the last
// figure is normally within the last few kilobytes, but an entry that
// follows it (a long tool result, a request record) can be large.
const MaxTail = 4 << 20

// chunk is how much is read at a time, from the end backwards.
const chunk = 64 << 10
