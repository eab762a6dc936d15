package config

// FileStamp says which version of the file at path is there, as [Paths.Stamp]
// says it of the configuration files (size, time, mode, identity; a link
// and its target; a lasting error stays the same stamp), for a caller that
// keeps what it read from another file: a server's handler list and the
// intents file it read (internal/hook's servedHandlers).
func FileStamp(path string) string {
	s, _ := stampFiles(path)
	return s
}
