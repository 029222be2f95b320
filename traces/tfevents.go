package traces

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/sgdplan/sgdplan/internal/limits"
	"github.com/sgdplan/sgdplan/internal/words"
)

// TFScalar is one scalar summary value of a TensorBoard event file.
type TFScalar struct {
	WallTime float64 // s since the Unix epoch, as the writer recorded it
	Step     int64   // the event's step (global step for tf.summary)
	Tag      string
	Value    float64
}

// Field numbers of tensorflow/core/util/event.proto, framework/summary.proto
// and framework/tensor.proto.
const (
	tfEventWallTime = 1 // double
	tfEventStep     = 2 // int64
	tfEventSummary  = 5 // Summary
	tfEventSession  = 7 // SessionLog (6 is log_message, a LogMessage)

	tfEventWhatFirst = 3 // file_version: the first field of the oneof what
	tfEventWhatLast  = 9 // meta_graph_def: its last

	tfSessionStatus = 1 // SessionLog.status, enum SessionStatus
	tfSessionStart  = 1 // SessionStatus START (0 unspecified, 2 STOP, 3 CHECKPOINT)

	tfSummaryValue = 1 // repeated Summary.Value

	tfValueTag      = 1 // string
	tfValueSimple   = 2 // float; oneof value, with 3 to 6 and 8
	tfValueOldHisto = 3 // obsolete_old_style_histogram, bytes
	tfValueImage    = 4 // Image
	tfValueHisto    = 5 // HistogramProto
	tfValueAudio    = 6 // Audio
	tfValueTensor   = 8 // TensorProto

	tfTensorDtype   = 1  // DataType enum
	tfTensorShape   = 2  // TensorShapeProto
	tfTensorContent = 4  // bytes, little-endian
	tfTensorFloat   = 5  // repeated float (packed)
	tfTensorDouble  = 6  // repeated double (packed)
	tfTensorInt     = 7  // repeated int32 (packed): int32, int16, int8, uint16, uint8
	tfTensorInt64   = 10 // repeated int64 (packed)
	tfTensorHalf    = 13 // repeated int32 (packed): half, bfloat16, each value's 16 bits
	tfTensorUint32  = 16 // repeated uint32 (packed)
	tfTensorUint64  = 17 // repeated uint64 (packed)

	tfShapeDim = 2 // repeated Dim
	tfDimSize  = 1 // int64

	// DataType (framework/types.proto), the numeric ones read
	dtFloat    = 1
	dtDouble   = 2
	dtInt32    = 3
	dtUint8    = 4
	dtInt16    = 5
	dtInt8     = 6
	dtInt64    = 9
	dtBfloat16 = 14
	dtUint16   = 17
	dtHalf     = 19
	dtUint32   = 22
	dtUint64   = 23
)

// tfDtypes are the dtypes read, by DataType: the *_val field TensorFlow's
// make_ndarray reads a value of it from, and the size in bytes of one
// value in tensor_content.
var tfDtypes = map[uint64]struct {
	field protowire.Number
	size  int
}{
	dtFloat:    {tfTensorFloat, 4},
	dtDouble:   {tfTensorDouble, 8},
	dtInt32:    {tfTensorInt, 4},
	dtUint8:    {tfTensorInt, 1},
	dtInt16:    {tfTensorInt, 2},
	dtInt8:     {tfTensorInt, 1},
	dtInt64:    {tfTensorInt64, 8},
	dtBfloat16: {tfTensorHalf, 2},
	dtUint16:   {tfTensorInt, 2},
	dtHalf:     {tfTensorHalf, 2},
	dtUint32:   {tfTensorUint32, 4},
	dtUint64:   {tfTensorUint64, 8},
}

// ReadTFEvents reads a TensorBoard event file (*.tfevents.*) and returns its
// scalar summaries in file order: Summary.Value entries with a simple_value,
// or a tensor of one element of a numeric dtype (float, double, half,
// bfloat16, int8 to int64, uint8 to uint64), read as TensorFlow's
// make_ndarray reads it (tfDecodeTensor): in tensor_content, else in the
// *_val field of its dtype, 0 when neither holds a value. Other values
// (images, histograms, text, bool and complex tensors, tensors of more
// than one element) are skipped. The TFRecord framing
// and its CRCs are checked (ReadTFRecords); a protobuf that does not decode,
// or a field it reads of another wire type than its own (a step sent
// length-delimited), is a *ParseError with the record number and byte
// offset. firstWall is the wall time of the first event in the file (the
// file_version event), NaN when there is none.
//
// An event whose SessionLog status is START (a session started, or a run
// restarted from a checkpoint at that step) drops, as TensorBoard does, the
// scalars read before it whose step is at or past the START's, of every
// tag; a warning (a *ParseError positioned at the START) counts them. Of a
// folder's files, Convert applies this across the files, in name order.
func ReadTFEvents(r io.Reader, file string) (scalars []TFScalar, firstWall float64, warnings []error, err error) {
	scalars, starts, firstWall, warnings, err := readTFEvents(r, file)
	if kept, w := tfPurge(scalars, starts); w != nil {
		scalars, warnings = kept, append(warnings, w)
	}
	return scalars, firstWall, warnings, err
}

// tfStart is a SessionLog START event: where it is, its step, and how many
// scalars were read before it (of its file, from readTFEvents; of all the
// files read, in convertTFEventsPath).
type tfStart struct {
	File    string
	Record  int
	Offset  int64
	Step    int64
	Scalars int
}

// readTFEvents is ReadTFEvents without the purge: the scalars of the file,
// every one, and its SessionLog START events in file order.
func readTFEvents(r io.Reader, file string) (scalars []TFScalar, starts []tfStart, firstWall float64, warnings []error, err error) {
	firstWall = math.NaN()
	var empty *ParseError // at the first tensor holding no value, counting all
	emptyN := 0
	emptyTags := map[string]bool{}
	warnings, err = ReadTFRecords(r, file, func(data []byte, n int, off int64) error {
		// a decoding error of this record, at its number and byte offset
		at := func(err error) error {
			return &ParseError{File: file, Record: n, Offset: off, Msg: fmt.Sprintf("record %d at byte %d: %v", n, off, err)}
		}
		var ev TFScalar
		var summaries, sessions [][]byte
		// Event's fields 3 to 9 (file_version, graph_def, summary,
		// log_message, session_log, tagged_run_metadata, meta_graph_def)
		// are the oneof `what`: the member given last counts, as protobuf
		// reads it (a summary then a session_log is a session_log alone)
		var what protowire.Number
		// a known field of the wrong wire type is an error, as a session_log
		// that does not decode is: skipped, it read values at step 0 or
		// wall time 0 (see tfWire)
		if err := tfWalk("Event", data, func(num protowire.Number, typ protowire.Type, v uint64, b []byte) error {
			if num >= tfEventWhatFirst && num <= tfEventWhatLast && num != what {
				summaries, sessions, what = nil, nil, num
			}
			switch num {
			case tfEventWallTime:
				if err := tfWire("Event", num, "wall_time", "a double", typ, protowire.Fixed64Type); err != nil {
					return err
				}
				ev.WallTime = math.Float64frombits(v)
			case tfEventStep:
				if err := tfWire("Event", num, "step", "an int64", typ, protowire.VarintType); err != nil {
					return err
				}
				ev.Step = int64(v)
			case tfEventSummary:
				if err := tfWire("Event", num, "summary", "a Summary message", typ, protowire.BytesType); err != nil {
					return err
				}
				summaries = append(summaries, b)
			case tfEventSession:
				// a START read or not read decides which steps are kept
				if err := tfWire("Event", num, "session_log", "a SessionLog message", typ, protowire.BytesType); err != nil {
					return err
				}
				sessions = append(sessions, b)
			}
			return nil
		}); err != nil {
			return at(err)
		}
		if math.IsNaN(firstWall) {
			firstWall = ev.WallTime
		}
		// a message given more than once is merged: its last status counts
		status, set := uint64(0), false
		for _, s := range sessions {
			if err := tfWalk("SessionLog", s, func(num protowire.Number, typ protowire.Type, v uint64, _ []byte) error {
				if num != tfSessionStatus {
					return nil
				}
				if err := tfWire("SessionLog", num, "status", "an enum", typ, protowire.VarintType); err != nil {
					return err
				}
				status, set = v, true
				return nil
			}); err != nil {
				return at(err)
			}
		}
		if set && status == tfSessionStart {
			// before the event's own summaries: TensorBoard purges first
			starts = append(starts, tfStart{File: file, Record: n, Offset: off, Step: ev.Step, Scalars: len(scalars)})
		}
		for _, s := range summaries {
			if err := tfWalk("Summary", s, func(num protowire.Number, typ protowire.Type, _ uint64, b []byte) error {
				if num != tfSummaryValue {
					return nil
				}
				if err := tfWire("Summary", num, "value", "a Summary.Value message", typ, protowire.BytesType); err != nil {
					return err
				}
				tag, val, ok, none, err := tfDecodeValue(b)
				if err != nil {
					return err
				}
				if none {
					// read as 0, as TensorFlow does, but a loss of 0
					// from a logging fault looked like a perfect fit
					if emptyN++; empty == nil {
						empty = &ParseError{File: file, Record: n, Offset: off}
					}
					emptyTags[tag] = true
				}
				if ok {
					x := ev
					x.Tag, x.Value = tag, val
					scalars = append(scalars, x)
				}
				return nil
			}); err != nil {
				return at(err)
			}
		}
		return nil
	})
	if empty != nil {
		tags := slices.Sorted(maps.Keys(emptyTags))
		what, were := "tag", "was a tensor"
		if len(tags) > 1 {
			what = "tags"
		}
		if emptyN > 1 {
			were = "were tensors"
		}
		empty.Msg = fmt.Sprintf("record %d at byte %d: %s (%s %s) %s holding no value: read as 0, as TensorFlow's make_ndarray and TensorBoard read them (expected a value; a loss or accuracy of 0 there is likely a logging fault)", empty.Record, empty.Offset, words.Count(emptyN, "value"), what, strings.Join(quoteAll(tags), ", "), were)
		warnings = append(warnings, empty)
	}
	return scalars, starts, firstWall, warnings, err
}

// quoteAll is each of ss quoted, as Go writes a string.
func quoteAll(ss []string) []string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return q
}

// tfPurge drops what TensorBoard's EventAccumulator (purge_orphaned_data,
// its default) drops at a SessionLog START at step s: every scalar read
// before the START with step >= s, of every tag (it keeps step < s). A
// scalar is dropped by the first START after it whose step is at most its
// own. starts are in reading order, their Scalars indexes into scalars.
// kept is scalars itself when nothing is dropped; warning, then nil, is
// otherwise one *ParseError positioned at the first START that dropped
// values, counting all.
func tfPurge(scalars []TFScalar, starts []tfStart) (kept []TFScalar, warning error) {
	if len(starts) == 0 || len(scalars) == 0 || starts[len(starts)-1].Scalars == 0 {
		return scalars, nil
	}
	type purge struct{ n, lo, hi int64 } // values dropped, their smallest and largest step
	by := make([]purge, len(starts))
	drop := make([]bool, len(scalars))
	// Backwards, with a stack of the STARTs after the scalar that can
	// still be the first to drop one: pushing a START pops those (later)
	// of a step at or past its own, so from the bottom up the steps
	// increase and the STARTs come earlier; the first START with a step
	// at most x is the topmost of those below the first step above x.
	var stack []int
	k := len(starts) - 1
	total := 0
	for i := len(scalars) - 1; i >= 0; i-- {
		for k >= 0 && starts[k].Scalars > i {
			for len(stack) > 0 && starts[stack[len(stack)-1]].Step >= starts[k].Step {
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, k)
			k--
		}
		x := scalars[i].Step
		p := sort.Search(len(stack), func(j int) bool { return starts[stack[j]].Step > x })
		if p == 0 {
			continue
		}
		b := &by[stack[p-1]]
		if b.n == 0 {
			b.lo, b.hi = x, x
		}
		b.n++
		b.lo, b.hi = min(b.lo, x), max(b.hi, x)
		drop[i] = true
		total++
	}
	if total == 0 {
		return scalars, nil
	}
	kept = make([]TFScalar, 0, len(scalars)-total)
	for i, x := range scalars {
		if !drop[i] {
			kept = append(kept, x)
		}
	}
	first, last, purges := -1, -1, 0
	for j, b := range by {
		if b.n > 0 {
			if first < 0 {
				first = j
			}
			last = j
			purges++
		}
	}
	st, b := starts[first], by[first]
	steps := fmt.Sprintf("step %d", b.lo)
	if b.hi > b.lo {
		steps = fmt.Sprintf("steps %d to %d", b.lo, b.hi)
	}
	msg := fmt.Sprintf("record %d at byte %d: SessionLog START at step %d (a restart): dropped the %d values, of any tag, read before it at step %d or later (%s), as TensorBoard does",
		st.Record, st.Offset, st.Step, b.n, st.Step, steps)
	if purges > 1 {
		l := starts[last]
		msg += fmt.Sprintf("; %d later STARTs dropped %d more, the last at step %d (%s, record %d)", purges-1, int64(total)-b.n, l.Step, l.File, l.Record)
	}
	return kept, &ParseError{File: st.File, Record: st.Record, Offset: st.Offset, Msg: msg}
}

// tfWalk calls fn for each field of the protobuf message msg (its name, for
// errors), in b: the varint or fixed value in v, the bytes of a
// length-delimited field in b. An error of fn is returned as it is.
func tfWalk(msg string, b []byte, fn func(num protowire.Number, typ protowire.Type, v uint64, b []byte) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return fmt.Errorf("%s: %v", msg, protowire.ParseError(n))
		}
		b = b[n:]
		var v uint64
		var sub []byte
		switch typ {
		case protowire.VarintType:
			v, n = protowire.ConsumeVarint(b)
		case protowire.Fixed64Type:
			v, n = protowire.ConsumeFixed64(b)
		case protowire.Fixed32Type:
			var u uint32
			u, n = protowire.ConsumeFixed32(b)
			v = uint64(u)
		case protowire.BytesType:
			sub, n = protowire.ConsumeBytes(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return fmt.Errorf("%s: field %d: %v", msg, num, protowire.ParseError(n))
		}
		b = b[n:]
		if err := fn(num, typ, v, sub); err != nil {
			return err
		}
	}
	return nil
}

// tfWire checks the wire type of a field the reader reads (name, of message
// msg, holding kind: "a double"): of another wire type it is an error. No
// protobuf library writes one, and skipped it read what it holds as
// absent (step 0, wall time 0, a value without its tag); TensorBoard's Rust
// loader (prost) stops reading the file there, its Python one keeps it as an
// unknown field.
func tfWire(msg string, num protowire.Number, name, kind string, typ, want protowire.Type) error {
	if typ == want {
		return nil
	}
	return fmt.Errorf("%s: field %d (%s): wire type %d, not %s (expected wire type %d, %s)", msg, num, name, typ, kind, want, tfWireNames[want])
}

// tfWireNames names the wire types the reader expects.
var tfWireNames = map[protowire.Type]string{
	protowire.VarintType:  "varint",
	protowire.Fixed64Type: "64-bit",
	protowire.BytesType:   "length-delimited",
	protowire.Fixed32Type: "32-bit",
}

// tfDecodeValue decodes a Summary.Value; ok is false for values that are not
// a single number. Its value is a oneof (simple_value = 2,
// obsolete_old_style_histogram = 3, image = 4, histo = 5, audio = 6,
// tensor = 8): the last given counts, as protobuf reads it, and a tensor
// given more than once is merged (its encodings concatenated). simple_value
// counted whenever given, and a later tensor replaced an earlier one.
func tfDecodeValue(b []byte) (tag string, val float64, ok, none bool, err error) {
	var (
		tensor []byte
		last   protowire.Number // the oneof's member given last, 0 none
	)
	err = tfWalk("Summary.Value", b, func(num protowire.Number, typ protowire.Type, v uint64, sub []byte) error {
		switch num {
		case tfValueTag:
			if err := tfWire("Summary.Value", num, "tag", "a string", typ, protowire.BytesType); err != nil {
				return err
			}
			tag = string(sub)
		case tfValueSimple:
			if err := tfWire("Summary.Value", num, "simple_value", "a float", typ, protowire.Fixed32Type); err != nil {
				return err
			}
			val, last = float64(math.Float32frombits(uint32(v))), num
		case tfValueTensor:
			if err := tfWire("Summary.Value", num, "tensor", "a TensorProto message", typ, protowire.BytesType); err != nil {
				return err
			}
			if last == tfValueTensor {
				tensor = append(tensor[:len(tensor):len(tensor)], sub...) // a copy: sub is the record's
			} else {
				tensor = sub
			}
			last = num
		case tfValueOldHisto, tfValueImage, tfValueHisto, tfValueAudio:
			// not read; of another wire type, protobuf skips it
			if typ == protowire.BytesType {
				last = num
			}
		}
		return nil
	})
	switch {
	case err != nil:
		return tag, 0, false, false, err
	case last == tfValueSimple:
		return tag, val, true, false, nil
	case last == tfValueTensor:
		val, ok, none, err = tfDecodeTensor(tensor)
		return tag, val, ok, none, err
	}
	return tag, 0, false, false, nil
}

// tfDecodeTensor returns the value of a one-element numeric TensorProto
// (a dtype of tfDtypes), as TensorFlow's make_ndarray reads it
// (python/framework/tensor_util.py, MakeNdarray; TensorBoard reads a
// scalar tensor through it): the one value of its tensor_content when
// that is not empty, else of the *_val field of its dtype; 0 when that
// field holds none either (make_ndarray's np.zeros(shape, dtype), for
// every dtype read). A tensor_content of another size than one value, a
// field of more than one value, and a value outside its dtype's range
// (an int_val of 300 for a uint8, a half_val that is no 16-bit pattern)
// are refused by make_ndarray (reshape, and NumPy 2's OverflowError): not
// a number here either.
func tfDecodeTensor(b []byte) (v float64, ok, none bool, err error) {
	var (
		dtype   uint64
		content []byte
		vals    [tfTensorUint64 + 1]struct { // of each *_val field, by number
			n     int    // values
			first uint64 // the first of them, as the wire holds it
		}
		one = true // every dimension of size 1 (none: a scalar)
	)
	err = tfWalk("TensorProto", b, func(num protowire.Number, typ protowire.Type, v uint64, sub []byte) error {
		switch num {
		case tfTensorDtype:
			if err := tfWire("TensorProto", num, "dtype", "an enum", typ, protowire.VarintType); err != nil {
				return err
			}
			dtype = v
		case tfTensorShape:
			if err := tfWire("TensorProto", num, "tensor_shape", "a TensorShapeProto message", typ, protowire.BytesType); err != nil {
				return err
			}
			return tfWalk("TensorShapeProto", sub, func(num protowire.Number, typ protowire.Type, _ uint64, dim []byte) error {
				if num != tfShapeDim {
					return nil
				}
				if err := tfWire("TensorShapeProto", num, "dim", "a Dim message", typ, protowire.BytesType); err != nil {
					return err
				}
				// a Dim without a size has size 0; of two sizes the last
				// counts. Sizes are compared with 1, not multiplied: a
				// product wraps (3 x 0xaaaaaaaaaaaaaaab and -1 x -1 are 1
				// in int64) and read a large tensor as one number.
				size := uint64(0)
				if err := tfWalk("TensorShapeProto.Dim", dim, func(num protowire.Number, typ protowire.Type, v uint64, _ []byte) error {
					if num != tfDimSize {
						return nil
					}
					if err := tfWire("TensorShapeProto.Dim", num, "size", "an int64", typ, protowire.VarintType); err != nil {
						return err
					}
					size = v
					return nil
				}); err != nil {
					return err
				}
				one = one && size == 1
				return nil
			})
		case tfTensorContent:
			if err := tfWire("TensorProto", num, "tensor_content", "bytes", typ, protowire.BytesType); err != nil {
				return err
			}
			content = sub
		case tfTensorFloat, tfTensorDouble, tfTensorInt, tfTensorInt64, tfTensorHalf, tfTensorUint32, tfTensorUint64:
			n, first, err := tfRepeated(num, typ, v, sub)
			if err != nil {
				return err
			}
			if vals[num].n == 0 {
				vals[num].first = first
			}
			vals[num].n += n
		}
		return nil
	})
	if err != nil || !one {
		return 0, false, false, err
	}
	// where make_ndarray reads the value: tensor_content when it is not
	// empty, else the *_val field of the dtype; taking the first *_val
	// value of any field read a double tensor's stray float_val and the
	// first of several values
	dt, known := tfDtypes[dtype]
	switch {
	case !known:
		return 0, false, false, nil
	case len(content) > 0:
		if len(content) != dt.size {
			return 0, false, false, nil
		}
		var bits uint64 // little-endian, zero-extended
		for i := dt.size - 1; i >= 0; i-- {
			bits = bits<<8 | uint64(content[i])
		}
		return tfValue(dtype, bits), true, false, nil
	}
	switch v := vals[dt.field]; v.n {
	case 0:
		return 0, true, true, nil
	case 1:
		bits, ok := tfFieldBits(dtype, dt.size, v.first)
		if !ok {
			return 0, false, false, nil
		}
		return tfValue(dtype, bits), true, false, nil
	}
	return 0, false, false, nil
}

// tfFieldBits turns a *_val value, as the wire holds it (a varint's 64
// bits, a fixed32's 32 zero-extended), into the size-byte pattern of a
// value of dtype, as make_ndarray does: protobuf reads an int32 or uint32
// field's varint as its low 32 bits, and NumPy (2) refuses an int_val or
// half_val outside the range of the type it is stored in (np.array(int_val,
// dtype=uint8), np.fromiter(half_val, dtype=uint16)); NumPy 1 wrapped it.
func tfFieldBits(dtype uint64, size int, v uint64) (bits uint64, ok bool) {
	mask := uint64(1)<<(8*size) - 1
	if size == 8 {
		mask = math.MaxUint64
	}
	switch dtype {
	case dtInt32, dtInt16, dtInt8:
		x := int64(int32(v))
		lo, hi := -int64(1)<<(8*size-1), int64(1)<<(8*size-1)-1
		return uint64(x) & mask, x >= lo && x <= hi
	case dtUint8, dtUint16, dtHalf, dtBfloat16:
		x := int64(int32(v))
		return uint64(x), x >= 0 && uint64(x) <= mask
	}
	return v & mask, true // float_val's 32 bits, double_val's, int64, uint32 (low 32 bits), uint64
}

// tfValue is the value of dtype whose bit pattern (little-endian, its
// size in bytes, zero-extended) is bits.
func tfValue(dtype, bits uint64) float64 {
	switch dtype {
	case dtFloat:
		return float64(math.Float32frombits(uint32(bits)))
	case dtDouble:
		return math.Float64frombits(bits)
	case dtInt32:
		return float64(int32(bits))
	case dtInt16:
		return float64(int16(bits))
	case dtInt8:
		return float64(int8(bits))
	case dtInt64:
		return float64(int64(bits))
	case dtHalf:
		return tfHalf(uint16(bits))
	case dtBfloat16:
		// bfloat16 is the top half of a float32
		return float64(math.Float32frombits(uint32(bits) << 16))
	}
	return float64(bits) // uint8, uint16, uint32, uint64
}

// tfHalf is the IEEE 754 binary16 value of h: 1 sign bit, 5 exponent bits
// (bias 15), 10 fraction bits; exponent 0 is zero or subnormal, 31
// infinity or NaN. Every half is a float64 exactly.
func tfHalf(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp, frac := int(h>>10&0x1f), float64(h&0x3ff)
	switch exp {
	case 0:
		return math.Copysign(math.Ldexp(frac, -24), sign)
	case 0x1f:
		if frac != 0 {
			return math.NaN()
		}
		return math.Inf(int(sign))
	}
	return sign * math.Ldexp(1024+frac, exp-25)
}

// tfRepeated decodes a repeated numeric field of a TensorProto, packed
// (length-delimited) or not (the wire type of one value): how many values
// it holds, and the first as the wire holds it (a varint's 64 bits, a
// fixed value's bits). The values are counted, not kept: a tensor of a
// million packed int64s (1 MB, a byte each) made a slice of 8 MB to be
// thrown away, and a record may hold 1 GiB.
func tfRepeated(num protowire.Number, typ protowire.Type, v uint64, b []byte) (n int, first uint64, err error) {
	name, kind, wire := "int64_val", "an int64", protowire.VarintType
	switch num {
	case tfTensorFloat:
		name, kind, wire = "float_val", "a float", protowire.Fixed32Type
	case tfTensorDouble:
		name, kind, wire = "double_val", "a double", protowire.Fixed64Type
	case tfTensorInt:
		name, kind = "int_val", "an int32"
	case tfTensorHalf:
		name, kind = "half_val", "an int32"
	case tfTensorUint32:
		name, kind = "uint32_val", "a uint32"
	case tfTensorUint64:
		name, kind = "uint64_val", "a uint64"
	}
	if typ != protowire.BytesType {
		if typ != wire {
			return 0, 0, fmt.Errorf("TensorProto: field %d (%s): wire type %d, not %s (expected wire type %d, %s, or %d, packed)", num, name, typ, kind, wire, tfWireNames[wire], protowire.BytesType)
		}
		return 1, v, nil
	}
	for len(b) > 0 {
		var x uint64
		var k int
		switch wire {
		case protowire.Fixed32Type:
			var u uint32
			u, k = protowire.ConsumeFixed32(b)
			x = uint64(u)
		case protowire.Fixed64Type:
			x, k = protowire.ConsumeFixed64(b)
		default:
			x, k = protowire.ConsumeVarint(b)
		}
		if k < 0 {
			return 0, 0, fmt.Errorf("TensorProto: field %d (%s): packed values: %v", num, name, protowire.ParseError(k))
		}
		if n == 0 {
			first = x
		}
		n++
		b = b[k:]
	}
	return n, first, nil
}

// TFEventsTrace turns the scalars of one run's event files into a canonical
// trace:
//
//   - Loss: tags whose name contains "loss" (loss, train_loss, loss/train,
//     epoch_loss, ...), not a loss scale (loss_scale, loss-scale: mixed
//     precision's).
//     One tag is used per run, chosen in this order: the tag "loss"; a tag
//     naming train; a tag not naming val, eval or test; the
//     first in sorted order. The others are reported in a warning. Each
//     value becomes an evals.csv row with updates = step and time = wall
//     time - firstWall (the first event of the files; the first scalar's when
//     firstWall is NaN).
//   - Accuracy: tags containing "acc" (accuracy, acc, top1_acc, ...), not
//     "accum" (gradient accumulation's steps), chosen
//     the same way; values in [0, 1] fill the accuracy of the eval row of the
//     same step (a row of their own when no loss was logged at that step);
//     a tag whose largest value (at most 100) is above 1.5 is in percent:
//     all its values are divided by 100, with a warning. Values outside
//     [0, 1] once divided are dropped with a warning that states which
//     reading the tag got, and why.
//   - Rate: global_step/sec, steps_per_sec, steps/sec, iterations/sec
//     (steps/s) and examples/sec, examples_per_sec, samples/sec,
//     samples_per_sec, images/sec (samples/s) give one throughput.csv row per
//     run: the mean of the values logged inside the steady-state window of
//     the validation protocol (drop the first 10% and last 5% of the run's
//     logged wall time; all values when fewer than 3 fall inside), with their
//     standard deviation in std and their count in repeats. Workers, PS,
//     Batch and Mode come from opts (workers 1 and batch 1 when unknown,
//     the latter with a warning: throughput.csv requires a batch).
//   - Other tags are listed in one warning.
//   - A step the loss or accuracy tag logged more than once (a run restarted
//     from a checkpoint logs the steps since it again) keeps the value
//     logged last, by wall time (of equal ones the later in scalars), with
//     its time; one warning per tag counts the others, dropped. The steps a
//     run logged past the checkpoint it restarted from are not here when
//     the restart wrote a SessionLog START: ReadTFEvents and Convert drop
//     them, as TensorBoard does; without one they stay. Times are not
//     shifted: a restarted run's rows keep their wall time, so the time
//     lost to the restart is in them.
//
// A runs.csv row records where the run came from.
func TFEventsTrace(scalars []TFScalar, firstWall float64, opts ConvertOptions) (*Trace, []error) {
	opts = opts.withDefaults()
	// the warnings name the input converted, as its errors do (they named
	// the run, by default the file's stem, which reads as a file and is
	// none)
	src := opts.input()
	workersUnknown := opts.Workers == 0
	if workersUnknown {
		opts.Workers = 1
	}
	var warns []error
	tr := &Trace{}
	if len(scalars) == 0 {
		return tr, []error{fmt.Errorf("traces: %s: no scalar summaries in the event files", src)}
	}
	if !tfFinite(firstWall) || firstWall > scalars[0].WallTime {
		// the earliest finite wall time: one NaN or Inf must not hide the others
		firstWall = math.Inf(1)
		for _, s := range scalars {
			if tfFinite(s.WallTime) {
				firstWall = math.Min(firstWall, s.WallTime)
			}
		}
	}
	byTag := map[string][]TFScalar{}
	bad := 0
	for _, s := range scalars {
		// a diverged loss (NaN, Inf) or a broken clock; evals.csv's reader
		// refuses a time beyond limits.MaxTime (1e30 was written)
		if d := s.WallTime - firstWall; !tfFinite(s.Value) || !(math.Abs(d) <= limits.MaxTime) {
			bad++
			continue
		}
		byTag[s.Tag] = append(byTag[s.Tag], s)
	}
	if bad > 0 {
		warns = append(warns, fmt.Errorf("traces: %s: %d values with a non-finite value or wall time, or a wall time more than %g s from the first (before or after), skipped", src, bad, limits.MaxTime))
	}
	var lossTags, accTags, stepTags, sampleTags, other []string
	for tag := range byTag {
		low := strings.ToLower(tag)
		switch {
		case tfIsRate(low, tfStepRateTags):
			stepTags = append(stepTags, tag)
		case tfIsRate(low, tfSampleRateTags):
			sampleTags = append(sampleTags, tag)
		case strings.Contains(low, "loss") && !tfLossScale(low):
			// (loss_scale, loss-scale: mixed precision's scale, 65536,
			// not a loss; a DeepSpeed log's train_loss lost to it)
			lossTags = append(lossTags, tag)
		case strings.Contains(low, "acc") && !strings.Contains(low, "accum"):
			// (accumulated_steps, grad_accum: not an accuracy)
			accTags = append(accTags, tag)
		default:
			other = append(other, tag)
		}
	}
	pick := func(kind string, tags []string) string {
		if len(tags) == 0 {
			return ""
		}
		sort.Strings(tags)
		best, bestRank := "", 99
		for _, t := range tags {
			if r := tfTagRank(t); r < bestRank {
				best, bestRank = t, r
			}
		}
		if len(tags) > 1 {
			var rest []string
			for _, t := range tags {
				if t != best {
					rest = append(rest, t)
				}
			}
			warns = append(warns, fmt.Errorf("traces: %s: %s from tag %q; ignored %s", src, kind, best, strings.Join(rest, ", ")))
		}
		return best
	}
	lossTag, accTag := pick("loss", lossTags), pick("accuracy", accTags)
	stepTag, sampleTag := pick("steps/s", stepTags), pick("samples/s", sampleTags)
	if len(other) > 0 {
		sort.Strings(other)
		warns = append(warns, fmt.Errorf("traces: %s: tags not converted: %s", src, strings.Join(other, ", ")))
	}

	// evals: one row per step, loss and accuracy merged.
	rowAt := map[int64]int{}
	evalRow := func(s TFScalar) *Eval {
		i, ok := rowAt[s.Step]
		if !ok {
			i = len(tr.Evals)
			rowAt[s.Step] = i
			tr.Evals = append(tr.Evals, Eval{Run: opts.Run, Time: s.WallTime - firstWall, Updates: s.Step, Loss: math.NaN(), Accuracy: math.NaN()})
		}
		return &tr.Evals[i]
	}
	// a negative step is no update count: written as an empty updates, two
	// such rows at one wall time were one evaluation given twice, which
	// evals.csv's reader refuses
	negative := 0
	// a step logged more than once (a restart from a checkpoint re-logs the
	// steps since it) keeps one event, the latest-logged, with its time:
	// mixing the first event's time with the last one's value made a row no
	// event had
	latest := func(kind, tag string) []TFScalar {
		kept, steps, first := tfLatest(byTag[tag])
		if steps > 0 {
			warns = append(warns, fmt.Errorf("traces: %s: %s tag %q: %d steps logged more than once, the first step %d: kept at each the value logged last (the latest wall time; after a restart from a checkpoint, the restart's, as TensorBoard shows), with its time; %d earlier values dropped",
				src, kind, tag, steps, first, len(byTag[tag])-len(kept)))
		}
		return kept
	}
	for _, tag := range []string{lossTag, accTag} {
		// Keras logs epoch_loss, epoch_accuracy at the epoch number: the
		// step is no update count (a loss curve in epochs fitted as one in
		// updates, without a word)
		if low := strings.ToLower(tag); strings.HasPrefix(low, "epoch_") || strings.Contains(low, "/epoch_") {
			warns = append(warns, fmt.Errorf("traces: %s: tag %q is logged per epoch (Keras' epoch_ tags): its steps are epoch numbers, written as evals.csv's updates, so its values are placed at epochs, not updates (log per batch, or multiply the updates by the steps per epoch)", src, tag))
		}
	}
	if lossTag != "" {
		for _, s := range latest("loss", lossTag) {
			if s.Step < 0 {
				negative++
				continue
			}
			evalRow(s).Loss = s.Value
		}
	}
	if accTag != "" {
		// A tag whose largest value is clearly above 1 (above 1.5, at most
		// 100) is in percent, every value of it: deciding value by value
		// read an early 0.5 (%) as 50%. A fraction a rounding error puts
		// just above 1 (1.0000001) does not make a tag percent; that value
		// is dropped with the others outside [0, 1].
		vals := latest("accuracy", accTag)
		top := math.Inf(-1)
		for _, s := range vals {
			if s.Value <= 100 {
				top = max(top, s.Value)
			}
		}
		scaled := top > 1.5
		var out []TFScalar // values neither a fraction nor a percent
		for _, s := range vals {
			v := s.Value
			if scaled {
				v /= 100
			}
			if !(v >= 0 && v <= 1) {
				out = append(out, s)
				continue
			}
			if s.Step < 0 {
				negative++
				continue
			}
			evalRow(s).Accuracy = v
		}
		// the warning states which reading the tag got and why (it said a
		// fraction's 1.01 was dropped as outside (1, 100], where it lies)
		hi := math.Inf(-1)
		for _, s := range vals {
			hi = max(hi, s.Value)
		}
		not := "not "
		if scaled {
			not = ""
		}
		var why string
		switch {
		case math.IsInf(top, -1):
			why = "no value of it is in (1.5, 100]"
		case hi <= 100:
			why = fmt.Sprintf("its largest value, %s, is %sabove 1.5", tfNum(top), not)
		default:
			why = fmt.Sprintf("its largest value up to 100, %s, is %sabove 1.5", tfNum(top), not)
		}
		var drop string
		if len(out) > 0 {
			rng := "[0, 1]"
			if scaled {
				rng = "[0, 100]"
			}
			drop = fmt.Sprintf("%d values outside %s dropped, the first %s at step %d", len(out), rng, tfNum(out[0].Value), out[0].Step)
		}
		switch {
		case scaled && drop != "":
			warns = append(warns, fmt.Errorf("traces: %s: accuracy tag %q reads as percent (%s): all its values divided by 100; %s", src, accTag, why, drop))
		case scaled:
			warns = append(warns, fmt.Errorf("traces: %s: accuracy tag %q reads as percent (%s): all its values divided by 100", src, accTag, why))
		case drop != "":
			warns = append(warns, fmt.Errorf("traces: %s: accuracy tag %q reads as fractions (%s): %s", src, accTag, why, drop))
		}
	}
	if negative > 0 {
		warns = append(warns, fmt.Errorf("traces: %s: %d loss or accuracy values at a negative step skipped (evals.csv's updates count from 0)", src, negative))
	}
	sort.SliceStable(tr.Evals, func(i, j int) bool { return tr.Evals[i].Updates < tr.Evals[j].Updates })
	// a value logged before the files' first event (the clock stepped
	// back) gets a negative time: said, as it was not
	if early := slices.IndexFunc(tr.Evals, func(e Eval) bool { return e.Time < 0 }); early >= 0 {
		n := 0
		for _, e := range tr.Evals {
			if e.Time < 0 {
				n++
			}
		}
		warns = append(warns, fmt.Errorf("traces: %s: %d evaluations logged before the first event of the files (the first at step %d, %.4g s before it: did the clock step back?): their evals.csv times are negative", src, n, tr.Evals[early].Updates, -tr.Evals[early].Time))
	}

	if stepTag != "" || sampleTag != "" {
		if workersUnknown {
			// (a log of 8 workers was written as 1, its samples/s 8
			// times too low for a sync job, without a word)
			warns = append(warns, fmt.Errorf("traces: %s: worker count unknown: throughput.csv gets 1 worker (give --workers)", src))
		}
		if opts.Batch == 0 {
			opts.Batch = 1
			warns = append(warns, fmt.Errorf("traces: %s: batch size unknown: throughput.csv gets batch 1 (give --batch)", src))
		}
		t := Throughput{Workers: opts.Workers, PS: opts.PS, Batch: opts.Batch, Mode: opts.Mode, Run: opts.Run,
			StepsPerS: math.NaN(), SamplesPerS: math.NaN(), Std: math.NaN()}
		for _, tag := range []string{stepTag, sampleTag} {
			if tag == "" {
				continue
			}
			// (2 to 5 values, evenly logged, leave fewer than 3 inside
			// the window as a matter of course: not said)
			if in, whole := steadyValues(byTag[tag]); whole && len(in) >= 6 {
				warns = append(warns, fmt.Errorf("traces: %s: fewer than 3 of the %d values of %q lie in the steady window (10%% to 95%% of the wall time they span): all %d are averaged, warm-up included (a restart's gap, or the logs of several runs in one folder, leave the window nearly empty: convert each run's folder alone)",
					src, len(in), tag, len(in)))
			}
		}
		if stepTag != "" {
			t.StepsPerS, t.Std, t.Repeats = steadyMean(byTag[stepTag])
		}
		if sampleTag != "" {
			var std float64
			var n int
			t.SamplesPerS, std, n = steadyMean(byTag[sampleTag])
			if stepTag == "" {
				t.Std, t.Repeats = std, n
			}
		}
		if !(t.StepsPerS > 0) {
			t.StepsPerS = math.NaN()
		}
		if !(t.SamplesPerS > 0) {
			t.SamplesPerS = math.NaN()
		}
		if !math.IsNaN(t.StepsPerS) && !math.IsNaN(t.SamplesPerS) {
			// two tags averaged apart seldom agree to 1e-6, and ReadThroughput
			// refuses a row whose rates contradict its batch: keep steps/s
			// (checked by the mode the row is read with: ratesAgree)
			if per, what, ok := ratesAgree(&t); !ok {
				warns = append(warns, fmt.Errorf("traces: %s: samples/s %.4g is not steps/s %.4g x %g samples (%s): written as steps/s alone (the ratio is %.4g samples a step; give --batch, --workers and --mode as the job ran)",
					src, t.SamplesPerS, t.StepsPerS, per, what, t.SamplesPerS/t.StepsPerS))
				t.SamplesPerS = math.NaN()
			}
		}
		if math.IsNaN(t.StepsPerS) && math.IsNaN(t.SamplesPerS) {
			warns = append(warns, fmt.Errorf("traces: %s: the logged rates average to 0 or less: no throughput row", src))
		} else {
			tr.Throughput = append(tr.Throughput, t)
		}
	}
	tr.Runs = append(tr.Runs, RunInfo{Run: opts.Run, Mode: opts.Mode, Bandwidth: math.NaN(), Epochs: math.NaN(),
		Framework: "TensorBoard event file", Notes: "converted by sgdplan convert --from tfevents" + opts.sourceNote()})
	return tr, warns
}

// steadyValues are the values of s that steadyMean averages: those logged
// from 10% to 95% of the wall time s spans, or all of them when fewer than
// 3 lie there; whole says the second (with more values than the window
// held: a restart's hour-long gap, or two runs' logs in one folder, leave
// few values inside it, and the warm-up is then averaged in).
func steadyValues(s []TFScalar) (in []float64, whole bool) {
	lo, hi := s[0].WallTime, s[0].WallTime
	for _, x := range s {
		lo, hi = math.Min(lo, x.WallTime), math.Max(hi, x.WallTime)
	}
	a, b := lo+0.10*(hi-lo), hi-0.05*(hi-lo)
	for _, x := range s {
		if x.WallTime >= a && x.WallTime <= b {
			in = append(in, x.Value)
		}
	}
	if len(in) < 3 {
		whole = len(s) > len(in)
		in = in[:0]
		for _, x := range s {
			in = append(in, x.Value)
		}
	}
	return in, whole
}

// tfLatest keeps, of the values s holds at one step, the one logged last:
// the latest wall time, of equal ones the later in s (files are read in name
// order). Values at a negative step are kept as they are. s is not
// modified; kept keeps the order of s. steps is how many steps were logged
// more than once, first the smallest of them.
func tfLatest(s []TFScalar) (kept []TFScalar, steps int, first int64) {
	// the common case, no step repeated: steps (of the values with one)
	// strictly increasing, checked without a map
	last, increasing := int64(-1), true
	for _, x := range s {
		if x.Step < 0 {
			continue
		}
		if x.Step <= last {
			increasing = false
			break
		}
		last = x.Step
	}
	if increasing {
		return s, 0, 0
	}
	type choice struct{ i, n int } // the index in s of the value kept; the values at the step
	at := make(map[int64]choice, len(s))
	for i, x := range s {
		if x.Step < 0 {
			continue
		}
		c, seen := at[x.Step]
		c.n++
		if !seen || x.WallTime >= s[c.i].WallTime {
			c.i = i
		}
		at[x.Step] = c
	}
	for step, c := range at {
		if c.n > 1 {
			if steps == 0 || step < first {
				first = step
			}
			steps++
		}
	}
	if steps == 0 {
		return s, 0, 0
	}
	for i, x := range s {
		if x.Step < 0 || at[x.Step].i == i {
			kept = append(kept, x)
		}
	}
	return kept, steps, first
}

// tfNum formats a logged value: a float32 (simple_value, a float tensor)
// as its shortest float32 form, 1.01 rather than 1.0099999904632568.
func tfNum(v float64) string {
	if float64(float32(v)) == v {
		return strconv.FormatFloat(v, 'g', -1, 32)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func tfFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

var (
	tfStepRateTags   = []string{"global_step/sec", "steps_per_sec", "steps/sec", "global_steps_per_sec", "iterations/sec", "iterations_per_sec"}
	tfSampleRateTags = []string{"examples/sec", "examples_per_sec", "samples/sec", "samples_per_sec", "images/sec", "images_per_sec"}
)

// tfIsRate reports whether the lower-case tag is one of names or ends with
// "/" + one of them.
func tfIsRate(low string, names []string) bool {
	for _, n := range names {
		if low == n || strings.HasSuffix(low, "/"+n) {
			return true
		}
	}
	return false
}

// tfLossScale says whether the lower-case tag names mixed precision's loss
// scale (loss_scale, loss-scale, lossscale, "loss scale"), not a loss: an
// unscaled_loss is a loss.
func tfLossScale(low string) bool {
	for _, w := range []string{"loss_scale", "loss-scale", "lossscale", "loss scale", "loss/scale"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// tfTagRank orders candidate tags: 0 a bare "loss"/"accuracy", 1 a train
// tag, 2 a tag not naming validation, 3 the rest.
func tfTagRank(tag string) int {
	low := strings.ToLower(tag)
	switch {
	case low == "loss" || low == "accuracy":
		return 0
	case strings.Contains(low, "train"):
		return 1
	case !strings.Contains(low, "val") && !strings.Contains(low, "test"):
		return 2
	}
	return 3
}

// steadyMean is the mean and standard deviation of the values logged inside
// the steady-state window (first 10% and last 5% of the logged wall time
// dropped), or of all values when fewer than 3 fall inside.
func steadyMean(s []TFScalar) (mean, std float64, n int) {
	in, _ := steadyValues(s)
	for _, v := range in {
		mean += v
	}
	mean /= float64(len(in))
	if len(in) < 2 {
		return mean, math.NaN(), len(in)
	}
	for _, v := range in {
		std += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(std / float64(len(in)-1)), len(in)
}
