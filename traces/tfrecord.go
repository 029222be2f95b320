package traces

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
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

// ReadTFRecords reads the TFRecord stream r and calls fn with each record's
// data, its number n (from 1) and the byte offset of its header. Both CRCs
// are checked: a mismatch is a *ParseError with Record = record number and
// Offset = the record's byte offset. A final record cut short (a file still
// being written, or copied while it was) comes back as a warning and ends the
// stream without error. data is only valid during the call. Memory grows
// with the largest record, not with the file.
func ReadTFRecords(r io.Reader, file string, fn func(data []byte, n int, offset int64) error) (warnings []error, err error) {
	var (
		head [12]byte
		foot [4]byte
		buf  bytes.Buffer
		off  int64
	)
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
			return warnings, perr("record %d at byte %d: length CRC mismatch (stored %#08x, computed %#08x): not a TFRecord file, or corrupt", n, off, got, want)
		}
		if length > MaxTFRecordBytes {
			return warnings, perr("record %d at byte %d: length %d exceeds %d bytes", n, off, length, MaxTFRecordBytes)
		}
		buf.Reset()
		m, err := io.CopyN(&buf, r, int64(length))
		if err == io.EOF {
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
		data := buf.Bytes()
		if got, want := binary.LittleEndian.Uint32(foot[:]), tfrecordMaskedCRC(data); got != want {
			return warnings, perr("record %d at byte %d: data CRC mismatch (stored %#08x, computed %#08x)", n, off, got, want)
		}
		if err := fn(data, n, off); err != nil {
			return warnings, err
		}
		off += 16 + int64(length)
	}
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
