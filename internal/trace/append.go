package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"time"
)

// Head is the end of the chain: the last record's sequence number and hash.
type Head struct {
	Seq  uint64
	Hash string
}

// Writer appends records to one ledger. Appends must be serialized by the
// caller: the hook appends only inside the state store's transaction,
// whose lock every other writer takes too.
type Writer struct {
	Path string
	// Anchor signs a checkpoint of the new head after every append; nil
	// signs none.
	Anchor *Anchor

	open func(path string) (ledgerFile, error) // tests: a disk that fills up
}

// Appended is what an append did besides adding the record.
type Appended struct {
	Head Head
	// Notes are repairs and findings the caller should log: a torn tail
	// kept aside, queued records appended, a checkpoint the ledger no
	// longer matches.
	Notes []string
}

// Append adds the records queued by [Queue] and then r to the ledger, each
// chained to the one before, and signs the new head. A record of a tool
// use (and files) the ledger's end holds already is not added again
// (recorded): a replayed PostToolUse makes one record, not two. A write that fails
// is cut back so that the ledger holds whole lines only; r is then not
// in the ledger and the error says why (the caller queues it).
func (w *Writer) Append(r *Record) (Appended, error) {
	var out Appended
	open := w.open
	if open == nil {
		open = openLedger
	}
	f, err := open(w.Path)
	if err != nil {
		return out, fmt.Errorf("open ledger: %w", err)
	}
	defer f.Close()
	t := &tail{f: f, path: w.Path}
	if err := t.load(&out.Notes); err != nil {
		return out, fmt.Errorf("read ledger %s: %w", w.Path, err)
	}
	var an *anchoring
	if w.Anchor != nil {
		an = w.Anchor.begin(t.head, t.hashAt, &out.Notes)
	}
	start := t.head.Seq
	err = t.drain(&out.Notes)
	switch {
	case err != nil:
	case t.recorded(r):
		out.Notes = append(out.Notes, skipNote(r))
	default:
		err = t.add(r)
	}
	out.Head = t.head
	if an != nil && t.head.Seq > start {
		if serr := an.finish(t.head); serr != nil {
			out.Notes = append(out.Notes, fmt.Sprintf("trace checkpoint not signed: %v", serr))
		}
	}
	if err != nil {
		return out, fmt.Errorf("append to ledger %s: %w", w.Path, err)
	}
	return out, nil
}

// tail is the end of the ledger file during one append.
type tail struct {
	f    ledgerFile
	path string
	size int64
	head Head // what the next record chains to
}

// load finds the last record. A last line without a newline is a write
// that was cut short (the process was killed inside write(2)): if it is a
// whole, valid record only its newline is missing and is added; anything
// else is moved into a file beside the ledger and cut off, so that the
// chain goes on from the last whole record instead of breaking for good.
func (t *tail) load(notes *[]string) error {
	fi, err := t.f.Stat()
	if err != nil {
		return err
	}
	t.size = fi.Size()
	last, start, complete, err := lastLine(t.f, t.size)
	if err != nil {
		return err
	}
	if !complete {
		if _, cerr := check(last); cerr == nil {
			if err := t.write([]byte{'\n'}); err != nil {
				return fmt.Errorf("add the missing newline after the last record: %w", err)
			}
			*notes = append(*notes, "the ledger's last record had lost its newline; added it")
		} else {
			aside, err := keepAside(t.path, last)
			if err != nil {
				return fmt.Errorf("keep the incomplete last line aside: %w", err)
			}
			if err := t.f.Truncate(start); err != nil {
				return fmt.Errorf("cut the incomplete last line off (it is kept in %s): %w", aside, err)
			}
			*notes = append(*notes, fmt.Sprintf("the ledger ended in an incomplete record (%d bytes, a write cut short); moved it to %s", len(last), aside))
			t.size = start
			if last, _, _, err = lastLine(t.f, t.size); err != nil {
				return err
			}
		}
	}
	if last == nil {
		return nil
	}
	var prev Record
	if json.Unmarshal(last, &prev) == nil && prev.Metadata.Atreides != nil && prev.Metadata.Atreides.Hash != "" {
		t.head = Head{Seq: prev.Metadata.Atreides.Seq, Hash: prev.Metadata.Atreides.Hash}
		return nil
	}
	// An unreadable last line: chain to its bytes; verify reports it.
	all, err := t.all()
	if err != nil {
		return err
	}
	t.head = Head{Seq: uint64(bytes.Count(all, []byte{'\n'})), Hash: Sum(last)}
	return nil
}

// add chains r to the head and writes it as one line.
func (t *tail) add(r *Record) error {
	line, head, err := Seal(r, t.head)
	if err != nil {
		return err
	}
	if err := t.write(append(line, '\n')); err != nil {
		return err
	}
	t.head = head
	return nil
}

// write appends b with one write(2) on the O_APPEND descriptor, so a
// reader never sees part of it from a live writer; if the write fails or
// is short (a full disk, a file size limit) the file is cut back to its
// length before, so a failed append leaves no partial line behind.
func (t *tail) write(b []byte) error {
	n, err := t.f.Write(b)
	if err == nil && n < len(b) {
		err = io.ErrShortWrite
	}
	if err != nil {
		if terr := t.f.Truncate(t.size); terr != nil {
			return fmt.Errorf("%w; cutting the partial line back failed too (%v): the next append moves it aside", err, terr)
		}
		return err
	}
	t.size += int64(n)
	return nil
}

// prepare fills what a record needs before it is chained.
func prepare(r *Record) {
	if r.Metadata.Atreides == nil {
		r.Metadata.Atreides = &Meta{}
	}
	if r.Version == "" {
		r.Version = SpecVersion
	}
	if r.ID == "" {
		r.ID = NewID()
	}
	if r.Timestamp == "" {
		r.Timestamp = time.Now().UTC().Format(time.RFC3339Nano)
	}
	if r.Files == nil {
		r.Files = []File{}
	}
}

// hashAt is the hash of the record with sequence number seq, "" when the
// ledger has none that checks out. It reads the whole ledger: the writer
// needs it only when records were appended behind its back.
func (t *tail) hashAt(seq uint64) string {
	all, err := t.all()
	if err != nil {
		return ""
	}
	for _, e := range Parse(all) {
		if r, err := check(e.Raw); err == nil && r.Metadata.Atreides.Seq == seq {
			return r.Metadata.Atreides.Hash
		}
	}
	return ""
}

// all reads the ledger as far as it is known to reach.
func (t *tail) all() ([]byte, error) {
	if t.size > maxLedger {
		return nil, fmt.Errorf("the ledger is larger than %d bytes", maxLedger)
	}
	all := make([]byte, t.size)
	if _, err := t.f.ReadAt(all, 0); err != nil && err != io.EOF {
		return nil, err
	}
	return all, nil
}

// PendingDir is where [Queue] keeps records for the ledger at path.
func PendingDir(path string) string { return path + ".pending" }

// Queue keeps a record that cannot be appended now: when the caller does
// not hold the lock appends need, or an append failed. Each record is one
// file, published whole (written, then linked into place), so queueing
// needs no lock and a reader never sees half a record; the next
// [Writer.Append] appends them in the order queued. Until then [Verify]
// counts them as missing.
func Queue(path string, r *Record) error {
	prepare(r)
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	d, err := openQueue(path, true)
	if err != nil {
		return fmt.Errorf("queue trace record: %w", err)
	}
	defer d.Close()
	name := time.Now().UTC().Format("20060102T150405.000000000Z") + "-" + r.ID + ".json"
	if err := publish(d, name, b, 0o644, false); err != nil {
		return fmt.Errorf("queue trace record: %w", err)
	}
	return nil
}

// drain appends the queued records. One that cannot be read is kept in
// the queue directory under a .corrupt- name, which takes it out of the
// queue; one that was appended is removed (if that fails it is appended
// again next time: a duplicate with the same id, never a loss). The
// directory itself stays: removing it would need a path-based rmdir, and
// git does not see an empty directory.
func (t *tail) drain(notes *[]string) error {
	d, err := openQueue(t.path, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var names []string
	if err == nil {
		defer d.Close()
		names, err = queuedNames(d)
	}
	if err != nil {
		*notes = append(*notes, fmt.Sprintf("queued trace records not read: %v", err))
		return nil
	}
	for _, n := range names {
		var r Record
		b, err := d.ReadFile(n, maxQueued)
		if err == nil {
			err = json.Unmarshal(b, &r)
		}
		if err != nil {
			aside := n + asideSuffix()
			if merr := d.Rename(n, aside); merr != nil {
				return fmt.Errorf("queued record %s unreadable (%v) and not moved aside: %w", n, err, merr)
			}
			*notes = append(*notes, fmt.Sprintf("queued trace record unreadable (%v); kept as %s", err, filepath.Join(filepath.Base(d.Path("")), aside)))
			continue
		}
		if t.recorded(&r) {
			*notes = append(*notes, skipNote(&r))
		} else if err := t.add(&r); err != nil {
			return err
		}
		if err := d.Remove(n); err != nil {
			*notes = append(*notes, fmt.Sprintf("queued trace record #%d appended but not removed (it will be appended again): %v", t.head.Seq, err))
		}
	}
	if len(names) > 0 {
		*notes = append(*notes, fmt.Sprintf("appended %d queued trace record(s)", len(names)))
	}
	return nil
}

// Missing is the number of records queued for the ledger at path and not
// yet appended. A queue that cannot be read (refused: a link) counts none;
// the next append reports it.
func Missing(path string) int {
	d, err := openQueue(path, false)
	if err != nil {
		return 0
	}
	defer d.Close()
	names, _ := queuedNames(d)
	return len(names)
}
