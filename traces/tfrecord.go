package traces

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
)

// TFRecord framing, as TensorFlow writes event files and TFRecord datasets:
//
//	uint64 length (little-endian)
//	uint32 masked CRC-32C of the 8 length bytes
//	byte   data[length]
//	uint32 masked CRC-32C of data
//
// with mask(crc) = ((crc >> 15) | (crc << 17)) + 0xa282ead8 (Castagnoli
// polynomial).

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// tfrecordMaskedCRC is the masked CRC-32C of b.
func tfrecordMaskedCRC(b []byte) uint32 {
	c := crc32.Checksum(b, castagnoli)
	return ((c >> 15) | (c << 17)) + 0xa282ead8
}

// MaxTFRecordBytes is the largest record ReadTFRecords accepts; a larger
// length is read as corruption.
const MaxTFRecordBytes = 1 << 30

// tfrecordChunk is the least ReadTFRecords reads of a record's data at a
// time from a stream whose length it does not know.
const tfrecordChunk = 64 << 10

// ReadTFRecords reads the TFRecord stream r and calls fn with each record's
// data, its number n (from 1) and the byte offset of its header. Both CRCs
// are checked: a mismatch is a *ParseError with Record = record number and
// Offset = the record's byte offset. A final record cut short (a file still
// being written, or copied while it was) comes back as a warning and ends the
// stream without error. data is only valid during the call. Memory grows
// with the largest record, not with the file, and only with the bytes of a
// record actually there: when r is a regular file (an *os.File), a length
// beyond the bytes left in it is that warning before any of them is read,
// and a record that is there is read into one buffer of its size; of any
// other reader, a record's data is read in chunks that at most double what
// has come, so a header claiming 1 GiB followed by 100 bytes allocates
// about 64 KiB, not 1 GiB.
func ReadTFRecords(r io.Reader, file string, fn func(data []byte, n int, offset int64) error) (warnings []error, err error) {
	var (
		head [12]byte
		foot [4]byte
		buf  []byte // the record's data, its backing array kept across records
		off  int64
	)
	// of a regular file, the bytes from where r stands (size - base) are
	// known: a record claiming more is cut short, whatever its length
	f, _ := r.(*os.File)
	base, size := int64(0), int64(-1)
	if f != nil {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			if pos, err := f.Seek(0, io.SeekCurrent); err == nil {
				base, size = pos, st.Size()
			}
		}
	}
	for n := 1; ; n++ {
		perr := func(format string, args ...any) *ParseError {
			return &ParseError{File: file, Record: n, Offset: off, Msg: fmt.Sprintf(format, args...)}
		}
		k, err := io.ReadFull(r, head[:])
		if err == io.EOF {
			return warnings, nil
		}
		if err == io.ErrUnexpectedEOF {
			return append(warnings, perr("record %d at byte %d: truncated header (%d of 12 bytes); ignored", n, off, k)), nil
		}
		if err != nil {
			return warnings, perr("record %d at byte %d: %v", n, off, err)
		}
		length := binary.LittleEndian.Uint64(head[:8])
		if got, want := binary.LittleEndian.Uint32(head[8:]), tfrecordMaskedCRC(head[:8]); got != want {
			if n == 1 && head[0] == 0x1f && head[1] == 0x8b {
				// (a gzipped event file read as "not a TFRecord file,
				// or corrupt")
				return warnings, perr("record 1 at byte 0: a gzip file (it starts 1f 8b), not a TFRecord file: gunzip it first")
			}
			return warnings, perr("record %d at byte %d: length CRC mismatch (stored %#08x, computed %#08x): not a TFRecord file, or corrupt", n, off, got, want)
		}
		if length > MaxTFRecordBytes {
			return warnings, perr("record %d at byte %d: length %d exceeds %d bytes", n, off, length, MaxTFRecordBytes)
		}
		known := false // the data is in the file, as far as its size tells
		if size >= 0 {
			left := size - base - off - 12
			if int64(length) > left {
				// a file still being written may have grown since
				if st, err := f.Stat(); err == nil {
					size = st.Size()
					left = size - base - off - 12
				}
			}
			if int64(length) > left {
				return append(warnings, perr("record %d at byte %d: truncated data (%d of %d bytes: the file ends at byte %d); ignored", n, off, max(left, 0), length, size-base)), nil
			}
			known = true
		}
		var m int
		buf, m, err = tfrecordData(r, buf[:0], int(length), known)
		if err == io.ErrUnexpectedEOF {
			return append(warnings, perr("record %d at byte %d: truncated data (%d of %d bytes); ignored", n, off, m, length)), nil
		}
		if err != nil {
			return warnings, perr("record %d at byte %d: %v", n, off, err)
		}
		k, err = io.ReadFull(r, foot[:])
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return append(warnings, perr("record %d at byte %d: truncated data CRC (%d of 4 bytes); ignored", n, off, k)), nil
		}
		if err != nil {
			return warnings, perr("record %d at byte %d: %v", n, off, err)
		}
		data := buf[:length]
		if got, want := binary.LittleEndian.Uint32(foot[:]), tfrecordMaskedCRC(data); got != want {
			return warnings, perr("record %d at byte %d: data CRC mismatch (stored %#08x, computed %#08x)", n, off, got, want)
		}
		if err := fn(data, n, off); err != nil {
			return warnings, err
		}
		off += 16 + int64(length)
	}
}

// tfrecordData reads length bytes of r onto buf (empty, its array reused):
// at once when known (the file holds them), else in chunks of
// tfrecordChunk or more, each at most what has come so far, so that the
// array grows with the bytes that are there, not with the length claimed.
// m is the bytes read; err is io.ErrUnexpectedEOF when r ends before
// length, or another error of r.
func tfrecordData(r io.Reader, buf []byte, length int, known bool) (out []byte, m int, err error) {
	for len(buf) < length {
		chunk := length - len(buf)
		if !known {
			chunk = min(chunk, max(tfrecordChunk, len(buf)))
		}
		if cap(buf)-len(buf) < chunk {
			// make and copy, not slices.Grow: under the race detector
			// Grow's append(make) allocates the new bytes twice
			grown := make([]byte, len(buf), len(buf)+chunk)
			copy(grown, buf)
			buf = grown
		}
		k, err := io.ReadFull(r, buf[len(buf):len(buf)+chunk])
		buf = buf[:len(buf)+k]
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return buf, len(buf), err
		}
	}
	return buf, len(buf), nil
}

// AppendTFRecord appends data framed as one TFRecord to b: what a writer of
// event files does, here for tests and tools.
func AppendTFRecord(b, data []byte) []byte {
	var head [12]byte
	binary.LittleEndian.PutUint64(head[:8], uint64(len(data)))
	binary.LittleEndian.PutUint32(head[8:], tfrecordMaskedCRC(head[:8]))
	b = append(b, head[:]...)
	b = append(b, data...)
	return binary.LittleEndian.AppendUint32(b, tfrecordMaskedCRC(data))
}
