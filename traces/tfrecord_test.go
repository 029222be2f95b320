package traces

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// tfTestHeader is a TFRecord header claiming length bytes of data, its
// length CRC valid.
func tfTestHeader(length uint64) []byte {
	var head [12]byte
	binary.LittleEndian.PutUint64(head[:8], length)
	binary.LittleEndian.PutUint32(head[8:], tfrecordMaskedCRC(head[:8]))
	return head[:]
}

// tfTestAlloc is the bytes ReadTFRecords allocates reading r, its warnings
// and error.
func tfTestAlloc(t *testing.T, r io.Reader) (alloc uint64, warnings []error, err error) {
	t.Helper()
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	warnings, err = ReadTFRecords(r, "f", func([]byte, int, int64) error { return nil })
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc, warnings, err
}

// TestReadTFRecordsClaimBeyondFile: of a regular file, a header claiming
// more bytes than the file holds past it is a truncated final record, a
// warning naming the file, record, byte offset, the length claimed and
// where the file ends, before any of its data is read. The data was read
// (4 MiB here, allocated as it came) to find that out.
func TestReadTFRecordsClaimBeyondFile(t *testing.T) {
	good := AppendTFRecord(nil, tfTestEvent(5, 1, "brain.Event:2"))
	body := append(append(bytes.Clone(good), tfTestHeader(1<<30)...), bytes.Repeat([]byte{7}, 4<<20)...)
	f := tfTestOpen(t, body)
	alloc, warns, err := tfTestAlloc(t, f)
	if err != nil || len(warns) != 1 {
		t.Fatalf("%v %v, want one warning", err, warns)
	}
	var pe *ParseError
	want := fmt.Sprintf("record 2 at byte %d: truncated data (4194304 of 1073741824 bytes: the file ends at byte %d); ignored", len(good), len(body))
	if !errors.As(warns[0], &pe) || pe.Record != 2 || pe.Offset != int64(len(good)) || pe.File != "f" || !strings.Contains(warns[0].Error(), want) {
		t.Errorf("warning %v, want %q", warns[0], want)
	}
	if alloc > 1<<20 {
		t.Errorf("allocated %d bytes, want under 1 MiB (the 4 MiB of data are not read)", alloc)
	}

	// read from where the file stands, not from its start: the same
	// warning, the offsets counting from there
	if _, err := f.Seek(int64(len(good)), io.SeekStart); err != nil {
		t.Fatal(err)
	}
	_, warns, err = tfTestAlloc(t, f)
	want = fmt.Sprintf("record 1 at byte 0: truncated data (4194304 of 1073741824 bytes: the file ends at byte %d); ignored", len(body)-len(good))
	if err != nil || len(warns) != 1 || !strings.Contains(warns[0].Error(), want) {
		t.Errorf("from byte %d: %v %v, want %q", len(good), err, warns, want)
	}
}

// TestReadTFRecordsFileRecordOnce: a record that is in the file is read
// into one buffer of its size. It was read into a bytes.Buffer that
// doubled as the data came, allocating about twice the record.
func TestReadTFRecordsFileRecordOnce(t *testing.T) {
	data := bytes.Repeat([]byte{3}, 8<<20)
	f := tfTestOpen(t, AppendTFRecord(nil, data))
	alloc, warns, err := tfTestAlloc(t, f)
	if err != nil || len(warns) != 0 {
		t.Fatalf("%v %v", err, warns)
	}
	if alloc > 9<<20 {
		t.Errorf("allocated %d bytes for a record of %d, want at most 9 MiB", alloc, len(data))
	}
}

// TestReadTFRecordsStreamClaim: of a stream (not a file), a header
// claiming 1 GiB followed by 100 bytes allocates what came, in chunks,
// not 1 GiB; a record of 3 MiB that is all there is read whole, its CRC
// checked, in one chunk after another.
func TestReadTFRecordsStreamClaim(t *testing.T) {
	body := append(tfTestHeader(1<<30), bytes.Repeat([]byte{1}, 100)...)
	alloc, warns, err := tfTestAlloc(t, io.MultiReader(bytes.NewReader(body)))
	want := "record 1 at byte 0: truncated data (100 of 1073741824 bytes); ignored"
	if err != nil || len(warns) != 1 || !strings.Contains(warns[0].Error(), want) {
		t.Fatalf("%v %v, want %q", err, warns, want)
	}
	if alloc > 1<<20 {
		t.Errorf("allocated %d bytes, want under 1 MiB", alloc)
	}
	big := bytes.Repeat([]byte("abcdefg"), 3<<20/7)
	file := append(AppendTFRecord(nil, big), AppendTFRecord(nil, []byte("x"))...)
	var got [][]byte
	warns, err = ReadTFRecords(io.MultiReader(bytes.NewReader(file)), "f", func(d []byte, _ int, _ int64) error {
		got = append(got, bytes.Clone(d))
		return nil
	})
	if err != nil || len(warns) != 0 || len(got) != 2 || !bytes.Equal(got[0], big) || string(got[1]) != "x" {
		t.Fatalf("%v %v: %d records", err, warns, len(got))
	}
	// a byte changed in the middle of the big record: its CRC fails
	file[12+len(big)/2] ^= 1
	_, err = ReadTFRecords(io.MultiReader(bytes.NewReader(file)), "f", func([]byte, int, int64) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "record 1 at byte 0: data CRC mismatch") {
		t.Errorf("%v, want a data CRC mismatch", err)
	}
}

// tfTestOpen writes b to a file of its own and opens it, closed when the
// test ends: ReadTFRecords reads a regular file by its size.
func tfTestOpen(t *testing.T, b []byte) *os.File {
	t.Helper()
	p := filepath.Join(t.TempDir(), "events")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
