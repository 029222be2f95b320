package traces

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// A small writer of event files, independent of the reader: it builds the
// protobufs field by field as tensorflow's summary writer lays them out.

type tfTestValue struct {
	tag    string
	simple *float32
	tensor []byte // an encoded TensorProto
}

func tfTestEvent(wall float64, step int64, fileVersion string, vals ...tfTestValue) []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.Fixed64Type)
	b = protowire.AppendFixed64(b, math.Float64bits(wall))
	if step != 0 {
		b = protowire.AppendTag(b, 2, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(step))
	}
	if fileVersion != "" {
		b = protowire.AppendTag(b, 3, protowire.BytesType)
		b = protowire.AppendString(b, fileVersion)
	}
	if len(vals) > 0 {
		var sum []byte
		for _, v := range vals {
			var vb []byte
			vb = protowire.AppendTag(vb, 1, protowire.BytesType)
			vb = protowire.AppendString(vb, v.tag)
			if v.simple != nil {
				vb = protowire.AppendTag(vb, 2, protowire.Fixed32Type)
				vb = protowire.AppendFixed32(vb, math.Float32bits(*v.simple))
			}
			if v.tensor != nil {
				vb = protowire.AppendTag(vb, 8, protowire.BytesType)
				vb = protowire.AppendBytes(vb, v.tensor)
			}
			sum = protowire.AppendTag(sum, 1, protowire.BytesType)
			sum = protowire.AppendBytes(sum, vb)
		}
		b = protowire.AppendTag(b, 5, protowire.BytesType)
		b = protowire.AppendBytes(b, sum)
	}
	return b
}

func f32(v float32) *float32 { return &v }

// tfTestSession is an Event holding a SessionLog of the status given (1
// START, 2 STOP, 3 CHECKPOINT), as TensorFlow's Supervisor and PyTorch's
// SummaryWriter(purge_step=...) write one.
func tfTestSession(wall float64, step int64, status int) []byte {
	var sl []byte
	sl = protowire.AppendTag(sl, 1, protowire.VarintType)
	sl = protowire.AppendVarint(sl, uint64(status))
	b := tfTestEvent(wall, step, "")
	b = protowire.AppendTag(b, 7, protowire.BytesType) // Event.session_log
	return protowire.AppendBytes(b, sl)
}

// tfTestTensor encodes a scalar TensorProto (empty shape) of dtype with the
// value either in a packed *_val field or in tensor_content.
func tfTestTensor(dtype int, v float64, content bool) []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(dtype))
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, nil) // shape {} = scalar
	var raw []byte
	switch dtype {
	case 1:
		raw = binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(v)))
	case 2:
		raw = binary.LittleEndian.AppendUint64(nil, math.Float64bits(v))
	case 9:
		raw = binary.LittleEndian.AppendUint64(nil, uint64(int64(v)))
	}
	if content {
		b = protowire.AppendTag(b, 4, protowire.BytesType)
		return protowire.AppendBytes(b, raw)
	}
	field := map[int]protowire.Number{1: 5, 2: 6, 9: 10}[dtype]
	var packed []byte
	if dtype == 9 {
		packed = protowire.AppendVarint(nil, uint64(int64(v)))
	} else {
		packed = raw
	}
	b = protowire.AppendTag(b, field, protowire.BytesType)
	return protowire.AppendBytes(b, packed)
}

// tfTestFile is an event file of a run: file_version at wall 1000, then
// steps 10..50 every 10 s of training loss (simple_value), an accuracy
// tensor (float in float_val) at steps 20 and 40, and global_step/sec
// (double in tensor_content).
func tfTestFile() []byte {
	var f []byte
	f = AppendTFRecord(f, tfTestEvent(1000, 0, "brain.Event:2"))
	rates := []float64{0.5, 2, 2.5, 2, 1} // steps/s at steps 10..50
	for i := 1; i <= 5; i++ {
		step := int64(10 * i)
		wall := 1000 + float64(10*i)
		vals := []tfTestValue{{tag: "loss", simple: f32(float32(1) / float32(i))}}
		if i%2 == 0 {
			vals = append(vals, tfTestValue{tag: "eval/accuracy", tensor: tfTestTensor(1, 0.25*float64(i), false)})
		}
		vals = append(vals, tfTestValue{tag: "global_step/sec", tensor: tfTestTensor(2, rates[i-1], true)})
		f = AppendTFRecord(f, tfTestEvent(wall, step, "", vals...))
	}
	return f
}

func TestTFRecordMaskedCRC(t *testing.T) {
	// CRC-32C("123456789") = 0xe3069283 (the standard check value);
	// masked: ((c >> 15) | (c << 17)) + 0xa282ead8 = 0xc78ab0e5 (mod 2^32).
	if got := tfrecordMaskedCRC([]byte("123456789")); got != 0xc78ab0e5 {
		t.Errorf("masked CRC of 123456789 = %#x, want 0xc78ab0e5", got)
	}
	// Every TensorFlow event file starts with the 24-byte file_version
	// record, whose header is 18 00 00 00 00 00 00 00 a3 7f 4b 22.
	rec := AppendTFRecord(nil, tfTestEvent(1, 0, "brain.Event:2"))
	want := []byte{0x18, 0, 0, 0, 0, 0, 0, 0, 0xa3, 0x7f, 0x4b, 0x22}
	if !bytes.Equal(rec[:12], want) {
		t.Errorf("header % x, want % x", rec[:12], want)
	}
}

func TestReadTFEventsKnownValues(t *testing.T) {
	s, first, warns, err := ReadTFEvents(bytes.NewReader(tfTestFile()), "run.tfevents")
	if err != nil || len(warns) != 0 {
		t.Fatalf("err %v warnings %v", err, warns)
	}
	if first != 1000 {
		t.Errorf("first wall time %v, want 1000", first)
	}
	// 5 loss + 2 accuracy + 5 rate values
	if len(s) != 12 {
		t.Fatalf("%d scalars, want 12: %+v", len(s), s)
	}
	// record 3 (step 20): loss 1/2, accuracy 0.25*2 = 0.5 (float_val),
	// global_step/sec 2 (double tensor_content).
	want := []TFScalar{{1020, 20, "loss", 0.5}, {1020, 20, "eval/accuracy", 0.5}, {1020, 20, "global_step/sec", 2}}
	for i, w := range want {
		if s[2+i] != w {
			t.Errorf("scalar %d = %+v, want %+v", 2+i, s[2+i], w)
		}
	}
}

func TestReadTFEventsTensorForms(t *testing.T) {
	cases := []struct {
		name   string
		tensor []byte
		want   float64
	}{
		{"float float_val", tfTestTensor(1, 1.5, false), 1.5},
		{"float tensor_content", tfTestTensor(1, -2.25, true), -2.25},
		{"double double_val", tfTestTensor(2, 0.1, false), 0.1},
		{"double tensor_content", tfTestTensor(2, 1e-300, true), 1e-300},
		{"int64 int64_val", tfTestTensor(9, 12345678901, false), 12345678901},
		{"int64 tensor_content", tfTestTensor(9, -7, true), -7},
	}
	for _, c := range cases {
		f := AppendTFRecord(nil, tfTestEvent(5, 3, "", tfTestValue{tag: "x", tensor: c.tensor}))
		s, _, _, err := ReadTFEvents(bytes.NewReader(f), "t")
		if err != nil || len(s) != 1 || s[0].Value != c.want || s[0].Step != 3 {
			t.Errorf("%s: %+v, %v; want value %v at step 3", c.name, s, err, c.want)
		}
	}
	// a 2-element tensor is not a scalar: skipped
	var shape []byte
	for range 2 {
		var dim []byte
		dim = protowire.AppendTag(dim, 1, protowire.VarintType)
		dim = protowire.AppendVarint(dim, 1)
		shape = protowire.AppendTag(shape, 2, protowire.BytesType)
		shape = protowire.AppendBytes(shape, dim)
	}
	var vec []byte
	vec = protowire.AppendTag(vec, 1, protowire.VarintType)
	vec = protowire.AppendVarint(vec, 1)
	vec = protowire.AppendTag(vec, 2, protowire.BytesType)
	vec = protowire.AppendBytes(vec, shape) // 1 x 1: still one element
	vec = protowire.AppendTag(vec, 5, protowire.BytesType)
	vec = protowire.AppendBytes(vec, binary.LittleEndian.AppendUint32(nil, math.Float32bits(4)))
	s, _, _, err := ReadTFEvents(bytes.NewReader(AppendTFRecord(nil, tfTestEvent(5, 1, "", tfTestValue{tag: "v", tensor: vec}))), "t")
	if err != nil || len(s) != 1 || s[0].Value != 4 {
		t.Errorf("1x1 tensor: %+v %v, want value 4", s, err)
	}
}

func TestReadTFEventsMalformed(t *testing.T) {
	good := tfTestFile()
	rec1 := 16 + 24 // the file_version record
	cases := []struct {
		name     string
		data     []byte
		wantErr  string // "" = no error
		wantWarn string
		scalars  int
	}{
		{"empty", nil, "", "", 0},
		{"truncated header", good[:rec1+5], "", "record 2 at byte 40: truncated header (5 of 12 bytes)", 0},
		{"truncated data", good[:len(good)-10], "", "record 6 at byte", 10},
		{"truncated data CRC", good[:len(good)-2], "", "truncated data CRC (2 of 4 bytes)", 10},
		{"data CRC mismatch", func() []byte {
			b := bytes.Clone(good)
			b[rec1+12+3] ^= 1 // a data byte of record 2
			return b
		}(), "traces: run.tfevents: record 2 at byte 40: data CRC mismatch", "", 0},
		{"length CRC mismatch", func() []byte {
			b := bytes.Clone(good)
			b[rec1] ^= 1
			return b
		}(), "traces: run.tfevents: record 2 at byte 40: length CRC mismatch", "", 0},
		{"not a TFRecord", []byte("this is a text file, not events\n"), "traces: run.tfevents: record 1 at byte 0: length CRC mismatch", "", 0},
		{"bad protobuf", AppendTFRecord(nil, []byte{0x0a, 0x05, 0x01}), "traces: run.tfevents: record 1 at byte 0: Event: field 1: unexpected EOF", "", 0},
		// a SessionLog that does not decode: whether it is a START decides
		// which steps are kept
		{"session_log not a message", append(bytes.Clone(good), AppendTFRecord(nil, []byte{0x38, 0x01})...),
			fmt.Sprintf("traces: run.tfevents: record 7 at byte %d: Event: field 7 (session_log): wire type 0, not a SessionLog message", len(good)), "", 0},
		{"session_log truncated", AppendTFRecord(nil, []byte{0x3a, 0x01, 0x08}),
			"traces: run.tfevents: record 1 at byte 0: SessionLog: field 1: unexpected EOF", "", 0},
		{"session_log cut short", AppendTFRecord(nil, []byte{0x3a, 0x03, 0x08}),
			"traces: run.tfevents: record 1 at byte 0: Event: field 7: unexpected EOF", "", 0},
		{"status not an enum", AppendTFRecord(nil, []byte{0x3a, 0x03, 0x0a, 0x01, 0x01}),
			"traces: run.tfevents: record 1 at byte 0: SessionLog: field 1 (status): wire type 2, not an enum", "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _, warns, err := ReadTFEvents(bytes.NewReader(c.data), "run.tfevents")
			if c.wantErr == "" && err != nil || c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)) {
				t.Fatalf("error %v, want %q", err, c.wantErr)
			}
			if err != nil {
				var pe *ParseError
				// a binary file has no lines: the record, not a line, is the position
				if !errors.As(err, &pe) || pe.Record == 0 || pe.Line != 0 {
					t.Errorf("error not positioned: %#v", err)
				}
				return
			}
			if c.wantWarn == "" && len(warns) != 0 || c.wantWarn != "" && (len(warns) != 1 || !strings.Contains(warns[0].Error(), c.wantWarn)) {
				t.Errorf("warnings %v, want %q", warns, c.wantWarn)
			}
			if len(s) != c.scalars {
				t.Errorf("%d scalars, want %d", len(s), c.scalars)
			}
		})
	}
}

func TestTFEventsTrace(t *testing.T) {
	s, first, _, err := ReadTFEvents(bytes.NewReader(tfTestFile()), "run.tfevents")
	if err != nil {
		t.Fatal(err)
	}
	tr, warns := TFEventsTrace(s, first, ConvertOptions{Run: "r1", Workers: 4, Batch: 32})
	if len(warns) != 0 {
		t.Errorf("warnings: %v", warns)
	}
	// evals: steps 10..50, time = wall - 1000 = 10..50 s, loss 1/i;
	// accuracy 0.5 at step 20 and 1.0 at step 40, absent elsewhere.
	if len(tr.Evals) != 5 {
		t.Fatalf("%d evals, want 5", len(tr.Evals))
	}
	for i, e := range tr.Evals {
		k := i + 1
		wantAcc := math.NaN()
		if k%2 == 0 {
			wantAcc = 0.25 * float64(k)
		}
		if e.Run != "r1" || e.Updates != int64(10*k) || e.Time != float64(10*k) || e.Loss != float64(float32(1)/float32(k)) ||
			math.IsNaN(wantAcc) != math.IsNaN(e.Accuracy) || !math.IsNaN(wantAcc) && e.Accuracy != wantAcc {
			t.Errorf("eval %d = %+v, want updates %d time %d loss 1/%d accuracy %v", i, e, 10*k, 10*k, k, wantAcc)
		}
	}
	// rate logged at walls 1010..1050: window drops the first 10% and last
	// 5% of 40 s: [1014, 1048] holds walls 1020, 1030, 1040 with 2, 2.5, 2:
	// mean 6.5/3 = 2.1667, sample std sqrt((1/36+4/36+1/36)/2) = sqrt(1/12).
	if len(tr.Throughput) != 1 {
		t.Fatalf("%d throughput rows, want 1", len(tr.Throughput))
	}
	th := tr.Throughput[0]
	if th.Workers != 4 || th.Batch != 32 || th.Repeats != 3 || math.Abs(th.StepsPerS-6.5/3) > 1e-12 ||
		math.Abs(th.Std-math.Sqrt(1.0/12)) > 1e-12 || !math.IsNaN(th.SamplesPerS) {
		t.Errorf("throughput %+v, want workers 4 batch 32 steps/s 2.1667 std 0.2887 repeats 3", th)
	}
	if len(tr.Runs) != 1 || tr.Runs[0].Run != "r1" {
		t.Errorf("runs %+v", tr.Runs)
	}
}

// TestTFEventsTagChoice: several loss tags, one used, the rest named in a
// warning; unknown tags listed; a diverged (NaN, Inf) loss skipped.
func TestTFEventsTagChoice(t *testing.T) {
	s := []TFScalar{
		{10, 1, "val_loss", 3}, {10, 1, "train/loss", 2}, {10, 1, "lr", 0.1},
		{11, 2, "val_loss", 2.5}, {11, 2, "train/loss", 1.5}, {11, 2, "accuracy", 80},
	}
	s = append(s, TFScalar{12, 3, "train/loss", math.NaN()}, TFScalar{12, 3, "train/loss", math.Inf(1)})
	tr, warns := TFEventsTrace(s, math.NaN(), ConvertOptions{Run: "r"})
	if len(tr.Evals) != 2 || tr.Evals[0].Loss != 2 || tr.Evals[1].Loss != 1.5 || tr.Evals[1].Accuracy != 0.8 || tr.Evals[1].Time != 1 {
		t.Errorf("evals %+v: want train/loss 2, 1.5 and accuracy 80%% = 0.8 at time 1", tr.Evals)
	}
	msg := ""
	for _, w := range warns {
		msg += w.Error() + "\n"
	}
	for _, want := range []string{`loss from tag "train/loss"; ignored val_loss`, "tags not converted: lr", `accuracy tag "accuracy" reads as percent (its largest value, 80, is above 1.5): all its values divided by 100`, "2 values with a non-finite value"} {
		if !strings.Contains(msg, want) {
			t.Errorf("warnings\n%s\nlack %q", msg, want)
		}
	}
	if len(tr.Throughput) != 0 {
		t.Errorf("throughput rows %+v without a rate tag", tr.Throughput)
	}
}

// TestTFEventsSample checks the committed sample (also a fuzz seed) is what
// tfTestFile writes, so the reader and the sample cannot drift apart.
func TestTFEventsSample(t *testing.T) {
	p := filepath.Join("testdata", "tfevents", "events.out.tfevents.1000.sample")
	if os.Getenv("SGDPLAN_UPDATE_SAMPLES") != "" {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, tfTestFile(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, tfTestFile()) {
		t.Errorf("%s differs from tfTestFile(); regenerate with SGDPLAN_UPDATE_SAMPLES=1", p)
	}
}

// FuzzTFEvents reads arbitrary bytes as an event file; with frame set the
// bytes are one record's payload, framed with valid CRCs, so that the
// protobuf decoding is reached past the checksums.
func FuzzTFEvents(f *testing.F) {
	f.Add(tfTestFile(), false)
	f.Add(tfTestFile()[:50], false)
	f.Add(tfTestEvent(5, 1, "", tfTestValue{tag: "x", tensor: tfTestTensor(2, 1, true)}), true)
	f.Add(tfTestEvent(5, 2, "", tfTestValue{tag: "loss", simple: f32(0.5)}, tfTestValue{tag: "acc", tensor: tfTestTensor(9, 3, false)}), true)
	f.Add(tfTestSession(5, 3, 1), true)
	// a half (1.0 in half_val) and a uint64 with no value (0)
	f.Add(tfTestEvent(5, 4, "", tfTestValue{tag: "loss", tensor: append(tfTestField(1, protowire.VarintType, protowire.AppendVarint(nil, 19)), tfTestField(13, protowire.BytesType, protowire.AppendVarint(nil, 0x3C00))...)},
		tfTestValue{tag: "acc", tensor: tfTestField(1, protowire.VarintType, protowire.AppendVarint(nil, 23))}), true)
	f.Add(append(tfTestFile(), AppendTFRecord(nil, tfTestSession(2000, 20, 1))...), false) // a restart at step 20
	if b, err := os.ReadFile(filepath.Join("testdata", "tfevents", "events.out.tfevents.1000.sample")); err == nil {
		f.Add(b, false)
	}
	f.Fuzz(func(t *testing.T, data []byte, frame bool) {
		if frame {
			data = AppendTFRecord(nil, data)
		}
		s, first, warns, err := ReadTFEvents(bytes.NewReader(data), "fuzz")
		for _, e := range append(warns, err) {
			if e == nil {
				continue
			}
			var pe *ParseError
			if !errors.As(e, &pe) || pe.Record < 1 || pe.Line != 0 || pe.Offset < 0 || pe.Offset > int64(len(data)) {
				t.Fatalf("error not positioned: %v", e)
			}
		}
		if err == nil && len(s) > 0 {
			o, _, _ := ConvertOptions{}.psMode() // as Convert does: allreduce, ps 0
			tr, _ := TFEventsTrace(s, first, o)
			if tr == nil {
				t.Fatal("nil trace")
			}
			// what the converter makes, the canonical readers accept
			var buf bytes.Buffer
			if err := WriteEvals(&buf, tr.Evals); err != nil {
				t.Fatal(err)
			}
			if len(tr.Evals) > 0 {
				if _, err := ReadEvals(&buf, "evals.csv", func(Eval) error { return nil }); err != nil {
					t.Fatalf("evals do not read back: %v\n%+v", err, tr.Evals)
				}
			}
			buf.Reset()
			if err := WriteThroughput(&buf, tr.Throughput); err != nil {
				t.Fatal(err)
			}
			if len(tr.Throughput) > 0 {
				if _, err := ReadThroughput(&buf, "throughput.csv", func(Throughput) error { return nil }); err != nil {
					t.Fatalf("throughput does not read back: %v\n%+v", err, tr.Throughput)
				}
			}
		}
	})
}

// An accuracy tag in percent whose early values are at most 1 is read in
// percent throughout: 0.5 (%) at step 10 was read as 50% beside 40.5% later.
func TestTFEventsPercentPerTag(t *testing.T) {
	s := []TFScalar{{10, 1, "loss", 2}, {10, 1, "accuracy", 0.5}, {11, 2, "loss", 1.5}, {11, 2, "accuracy", 40.5}}
	tr, _ := TFEventsTrace(s, math.NaN(), ConvertOptions{Run: "r"})
	if len(tr.Evals) != 2 || tr.Evals[0].Accuracy != 0.005 || tr.Evals[1].Accuracy != 0.405 {
		t.Errorf("evals %+v: want accuracy 0.005 then 0.405", tr.Evals)
	}
	// a tag of fractions stays as it is
	s[1].Value, s[3].Value = 0.2, 0.6
	if tr, _ := TFEventsTrace(s, math.NaN(), ConvertOptions{Run: "r"}); tr.Evals[0].Accuracy != 0.2 || tr.Evals[1].Accuracy != 0.6 {
		t.Errorf("fractions: %+v", tr.Evals)
	}
}

// A fraction-valued tag with one value a rounding error puts above 1 stays
// in fractions (that value is dropped with a warning): any value above 1
// made the whole tag percent, 0.5 read as 0.005.
func TestTFEventsFractionGlitch(t *testing.T) {
	s := []TFScalar{{10, 1, "loss", 2}, {10, 1, "accuracy", 0.5}, {11, 2, "loss", 1.5}, {11, 2, "accuracy", 1.0000001}, {12, 3, "loss", 1.2}, {12, 3, "accuracy", 0.9}}
	tr, warns := TFEventsTrace(s, math.NaN(), ConvertOptions{Run: "r"})
	if len(tr.Evals) != 3 || tr.Evals[0].Accuracy != 0.5 || tr.Evals[2].Accuracy != 0.9 || !math.IsNaN(tr.Evals[1].Accuracy) {
		t.Errorf("evals %+v: want 0.5, none, 0.9", tr.Evals)
	}
	msg := fmt.Sprint(warns)
	if strings.Contains(msg, "reads as percent") || !strings.Contains(msg, "reads as fractions (its largest value, 1.0000001, is not above 1.5): 1 values outside [0, 1] dropped") {
		t.Errorf("warnings %s", msg)
	}
}

// tfTestField is one protobuf field: its tag, then value, the bytes of its
// value as the wire type lays them out (a varint, 4 or 8 bytes, or the
// length-prefixed bytes).
func tfTestField(num protowire.Number, typ protowire.Type, value []byte) []byte {
	b := protowire.AppendTag(nil, num, typ)
	if typ == protowire.BytesType {
		return protowire.AppendBytes(b, value)
	}
	return append(b, value...)
}

// TestReadTFEventsWireTypes: a field the reader reads, of a wire type other
// than its own, is an error naming the record, its byte offset, the message
// and the field, as a session_log that does not decode is. Before, it was
// skipped: a step sent length-delimited read the event's values at step 0,
// a wall_time sent as a varint moved the run's time origin to 0, a
// simple_value sent as a double (fixed64) dropped the value silently.
func TestReadTFEventsWireTypes(t *testing.T) {
	varint := protowire.AppendVarint(nil, 5)
	f32 := binary.LittleEndian.AppendUint32(nil, math.Float32bits(0.5))
	f64 := binary.LittleEndian.AppendUint64(nil, math.Float64bits(0.5))
	wall := tfTestField(1, protowire.Fixed64Type, f64)
	// an Event at wall time 0.5 and step 5 whose summary holds one value
	value := func(fields ...[]byte) []byte {
		summary := tfTestField(1, protowire.BytesType, bytes.Join(fields, nil))
		return bytes.Join([][]byte{wall, tfTestField(2, protowire.VarintType, varint), tfTestField(5, protowire.BytesType, summary)}, nil)
	}
	tag := tfTestField(1, protowire.BytesType, []byte("loss"))
	// a Value tagged loss whose tensor has these fields
	tensor := func(fields ...[]byte) []byte {
		return value(tag, tfTestField(8, protowire.BytesType, bytes.Join(fields, nil)))
	}
	dtype := tfTestField(1, protowire.VarintType, protowire.AppendVarint(nil, 1))
	// a shape of one dimension holding these fields
	shape := func(dim ...[]byte) []byte {
		return tfTestField(2, protowire.BytesType, tfTestField(2, protowire.BytesType, bytes.Join(dim, nil)))
	}
	size1 := tfTestField(1, protowire.VarintType, protowire.AppendVarint(nil, 1))
	minus7 := int64(-7) // an int32 varint is sign-extended to 64 bits
	good := tfTestFile()
	at := fmt.Sprintf("traces: run.tfevents: record 7 at byte %d: ", len(good)) // the record after tfTestFile's 6
	cases := []struct {
		name  string
		event []byte
		want  string
	}{
		{"wall_time varint", tfTestField(1, protowire.VarintType, varint),
			"Event: field 1 (wall_time): wire type 0, not a double (expected wire type 1, 64-bit)"},
		{"wall_time 32-bit", tfTestField(1, protowire.Fixed32Type, f32),
			"Event: field 1 (wall_time): wire type 5, not a double (expected wire type 1, 64-bit)"},
		{"step length-delimited", append(bytes.Clone(wall), tfTestField(2, protowire.BytesType, varint)...),
			"Event: field 2 (step): wire type 2, not an int64 (expected wire type 0, varint)"},
		{"step 64-bit", append(bytes.Clone(wall), tfTestField(2, protowire.Fixed64Type, f64)...),
			"Event: field 2 (step): wire type 1, not an int64 (expected wire type 0, varint)"},
		{"summary varint", append(bytes.Clone(wall), tfTestField(5, protowire.VarintType, varint)...),
			"Event: field 5 (summary): wire type 0, not a Summary message (expected wire type 2, length-delimited)"},
		{"session_log varint", append(bytes.Clone(wall), tfTestField(7, protowire.VarintType, varint)...),
			"Event: field 7 (session_log): wire type 0, not a SessionLog message (expected wire type 2, length-delimited)"},
		{"Summary.value varint", append(bytes.Clone(wall), tfTestField(5, protowire.BytesType, tfTestField(1, protowire.VarintType, varint))...),
			"Summary: field 1 (value): wire type 0, not a Summary.Value message (expected wire type 2, length-delimited)"},
		{"tag varint", value(tfTestField(1, protowire.VarintType, varint), tfTestField(2, protowire.Fixed32Type, f32)),
			"Summary.Value: field 1 (tag): wire type 0, not a string (expected wire type 2, length-delimited)"},
		// a writer that wrote the value as a double
		{"simple_value 64-bit", value(tag, tfTestField(2, protowire.Fixed64Type, f64)),
			"Summary.Value: field 2 (simple_value): wire type 1, not a float (expected wire type 5, 32-bit)"},
		{"simple_value varint", value(tag, tfTestField(2, protowire.VarintType, varint)),
			"Summary.Value: field 2 (simple_value): wire type 0, not a float (expected wire type 5, 32-bit)"},
		{"tensor varint", value(tag, tfTestField(8, protowire.VarintType, varint)),
			"Summary.Value: field 8 (tensor): wire type 0, not a TensorProto message (expected wire type 2, length-delimited)"},
		{"dtype length-delimited", tensor(tfTestField(1, protowire.BytesType, varint), tfTestField(5, protowire.Fixed32Type, f32)),
			"TensorProto: field 1 (dtype): wire type 2, not an enum (expected wire type 0, varint)"},
		{"tensor_shape varint", tensor(dtype, tfTestField(2, protowire.VarintType, varint), tfTestField(5, protowire.Fixed32Type, f32)),
			"TensorProto: field 2 (tensor_shape): wire type 0, not a TensorShapeProto message (expected wire type 2, length-delimited)"},
		{"dim varint", tensor(dtype, tfTestField(2, protowire.BytesType, tfTestField(2, protowire.VarintType, varint)), tfTestField(5, protowire.Fixed32Type, f32)),
			"TensorShapeProto: field 2 (dim): wire type 0, not a Dim message (expected wire type 2, length-delimited)"},
		{"dim size 64-bit", tensor(dtype, shape(tfTestField(1, protowire.Fixed64Type, f64)), tfTestField(5, protowire.Fixed32Type, f32)),
			"TensorShapeProto.Dim: field 1 (size): wire type 1, not an int64 (expected wire type 0, varint)"},
		{"tensor_content varint", tensor(dtype, tfTestField(4, protowire.VarintType, varint)),
			"TensorProto: field 4 (tensor_content): wire type 0, not bytes (expected wire type 2, length-delimited)"},
		{"float_val 64-bit", tensor(dtype, tfTestField(5, protowire.Fixed64Type, f64)),
			"TensorProto: field 5 (float_val): wire type 1, not a float (expected wire type 5, 32-bit, or 2, packed)"},
		{"double_val 32-bit", tensor(tfTestField(1, protowire.VarintType, protowire.AppendVarint(nil, 2)), tfTestField(6, protowire.Fixed32Type, f32)),
			"TensorProto: field 6 (double_val): wire type 5, not a double (expected wire type 1, 64-bit, or 2, packed)"},
		{"int_val 32-bit", tensor(tfTestField(1, protowire.VarintType, protowire.AppendVarint(nil, 3)), tfTestField(7, protowire.Fixed32Type, f32)),
			"TensorProto: field 7 (int_val): wire type 5, not an int32 (expected wire type 0, varint, or 2, packed)"},
		{"int64_val 64-bit", tensor(tfTestField(1, protowire.VarintType, protowire.AppendVarint(nil, 9)), tfTestField(10, protowire.Fixed64Type, f64)),
			"TensorProto: field 10 (int64_val): wire type 1, not an int64 (expected wire type 0, varint, or 2, packed)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := AppendTFRecord(bytes.Clone(good), c.event)
			_, _, _, err := ReadTFEvents(bytes.NewReader(data), "run.tfevents")
			if err == nil || err.Error() != at+c.want {
				t.Fatalf("error\n%v\nwant\n%s", err, at+c.want)
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Record != 7 || pe.Offset != int64(len(good)) || pe.Line != 0 {
				t.Errorf("position %#v, want record 7 at byte %d", err, len(good))
			}
		})
	}

	// the same fields of their own wire types read: a tensor's values
	// unpacked (one value of the field's own wire type) or packed, a shape
	// [1] beside the empty one; nothing here changed
	valid := []struct {
		name  string
		event []byte
		want  float64
	}{
		{"simple_value", value(tag, tfTestField(2, protowire.Fixed32Type, f32)), 0.5},
		{"float_val unpacked, shape [1]", tensor(dtype, shape(size1), tfTestField(5, protowire.Fixed32Type, f32)), 0.5},
		{"float_val packed", tensor(dtype, tfTestField(5, protowire.BytesType, f32)), 0.5},
		{"double_val unpacked", tensor(tfTestField(1, protowire.VarintType, protowire.AppendVarint(nil, 2)), tfTestField(6, protowire.Fixed64Type, f64)), 0.5},
		{"int_val unpacked, negative", tensor(tfTestField(1, protowire.VarintType, protowire.AppendVarint(nil, 3)), tfTestField(7, protowire.VarintType, protowire.AppendVarint(nil, uint64(minus7)))), -7},
		{"int64_val unpacked", tensor(tfTestField(1, protowire.VarintType, protowire.AppendVarint(nil, 9)), tfTestField(10, protowire.VarintType, varint)), 5},
		{"tensor_content", tensor(dtype, tfTestField(4, protowire.BytesType, f32)), 0.5},
	}
	for _, c := range valid {
		s, first, warns, err := ReadTFEvents(bytes.NewReader(AppendTFRecord(nil, c.event)), "run.tfevents")
		if err != nil || len(warns) != 0 || first != 0.5 || len(s) != 1 || s[0] != (TFScalar{WallTime: 0.5, Step: 5, Tag: "loss", Value: c.want}) {
			t.Errorf("%s: %+v first wall %v, %v %v; want loss %v at step 5, wall 0.5", c.name, s, first, warns, err, c.want)
		}
	}
}

// TestReadTFEventsTensorShapes: a tensor is one number when every dimension
// has size 1. The sizes were multiplied in int64, which wraps: 3 x
// 0xaaaaaaaaaaaaaaab = 2^65 + 1 and -1 x -1 are 1, so those tensors read as
// their first value. A Dim without a size has size 0 (proto3's default; it
// was left out of the product, as 1), and of two sizes the last counts (they
// were multiplied).
func TestReadTFEventsTensorShapes(t *testing.T) {
	dim := func(sizes ...uint64) []byte {
		var d []byte
		for _, s := range sizes {
			d = append(d, tfTestField(1, protowire.VarintType, protowire.AppendVarint(nil, s))...)
		}
		return tfTestField(2, protowire.BytesType, d)
	}
	minus1 := int64(-1) // an unknown size, sign-extended to 64 bits
	cases := []struct {
		name string
		dims [][]byte
		want bool // the value 1.5 is read
	}{
		{"scalar", nil, true},
		{"[1, 1]", [][]byte{dim(1), dim(1)}, true},
		{"[3, 0xaaaaaaaaaaaaaaab]", [][]byte{dim(3), dim(0xaaaaaaaaaaaaaaab)}, false},
		{"[-1, -1]", [][]byte{dim(uint64(minus1)), dim(uint64(minus1))}, false},
		{"[0], the size left out", [][]byte{dim()}, false},
		{"[2] then [1] in one Dim: 1", [][]byte{dim(2, 1)}, true},
	}
	for _, c := range cases {
		var tb []byte
		tb = append(tb, tfTestField(1, protowire.VarintType, protowire.AppendVarint(nil, 1))...) // DT_FLOAT
		tb = append(tb, tfTestField(2, protowire.BytesType, bytes.Join(c.dims, nil))...)
		vals := binary.LittleEndian.AppendUint32(nil, math.Float32bits(1.5))
		tb = append(tb, tfTestField(5, protowire.BytesType, vals)...) // float_val, packed
		f := AppendTFRecord(nil, tfTestEvent(5, 1, "", tfTestValue{tag: "x", tensor: tb}))
		s, _, warns, err := ReadTFEvents(bytes.NewReader(f), "t")
		if err != nil || len(warns) != 0 {
			t.Fatalf("%s: %v %v", c.name, err, warns)
		}
		switch {
		case c.want && (len(s) != 1 || s[0].Value != 1.5):
			t.Errorf("%s: %+v, want the value 1.5", c.name, s)
		case !c.want && len(s) != 0:
			t.Errorf("%s: %+v, want no value (not one element)", c.name, s)
		}
	}
}

// TestReadTFEventsTensorValues: a one-element tensor's value is read where
// TensorFlow's make_ndarray reads it: tensor_content when not empty, else
// the *_val field of its dtype, which must hold one value, or none (0).
// The reader took the first value of whichever *_val field came first,
// whatever the dtype, and skipped a tensor with no value.
func TestReadTFEventsTensorValues(t *testing.T) {
	dtype := func(d uint64) []byte { return tfTestField(1, protowire.VarintType, protowire.AppendVarint(nil, d)) }
	floats := func(v ...float32) []byte {
		var b []byte
		for _, x := range v {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
		return tfTestField(5, protowire.BytesType, b)
	}
	doubles := tfTestField(6, protowire.BytesType, binary.LittleEndian.AppendUint64(nil, math.Float64bits(0.75)))
	int64s := tfTestField(10, protowire.BytesType, protowire.AppendVarint(nil, 4))
	content := tfTestField(4, protowire.BytesType, binary.LittleEndian.AppendUint32(nil, math.Float32bits(2.5)))
	none := math.NaN() // no value read
	cases := []struct {
		name   string
		fields [][]byte
		want   float64
	}{
		{"float, float_val", [][]byte{dtype(1), floats(1.5)}, 1.5},
		{"double, double_val", [][]byte{dtype(2), doubles}, 0.75},
		// int64_val first on the wire, then float_val: the float's
		{"float, int64_val then float_val", [][]byte{dtype(1), int64s, floats(1.5)}, 1.5},
		// a double tensor with a float_val only: no double_val, so
		// make_ndarray's zeros (it was skipped)
		{"double, float_val only", [][]byte{dtype(2), floats(1.5)}, 0},
		{"float, two values", [][]byte{dtype(1), floats(1.5, 3.5)}, none},
		{"float, none", [][]byte{dtype(1)}, 0},
		{"no dtype", [][]byte{floats(1.5)}, none},
		// tensor_content before the *_val fields
		{"float, float_val and tensor_content", [][]byte{dtype(1), floats(1.5), content}, 2.5},
	}
	for _, c := range cases {
		f := AppendTFRecord(nil, tfTestEvent(5, 1, "", tfTestValue{tag: "x", tensor: bytes.Join(c.fields, nil)}))
		s, _, warns, err := ReadTFEvents(bytes.NewReader(f), "t")
		// a value read as 0 from a tensor holding none is warned of
		noValue := c.name == "double, float_val only" || c.name == "float, none"
		if err != nil || len(warns) != btoi(noValue) || noValue && !strings.Contains(warns[0].Error(), "holding no value: read as 0") {
			t.Fatalf("%s: %v %v, want %d warnings of no value", c.name, err, warns, btoi(noValue))
		}
		switch {
		case math.IsNaN(c.want) && len(s) != 0:
			t.Errorf("%s: %+v, want no value", c.name, s)
		case !math.IsNaN(c.want) && (len(s) != 1 || s[0].Value != c.want):
			t.Errorf("%s: %+v, want the value %v", c.name, s, c.want)
		}
	}
}

// TestTFDecodeTensorCountsValues: the values of a packed *_val field are
// counted, not kept: a tensor of a million int64s (a byte each) allocates
// what a tensor of one does. They were appended to a slice, 8 bytes a
// value, 8 MB here, for a record of 1 MB (and a record may hold 1 GiB).
func TestTFDecodeTensorCountsValues(t *testing.T) {
	tensor := func(n int) []byte {
		b := tfTestField(1, protowire.VarintType, protowire.AppendVarint(nil, 9)) // DT_INT64
		return append(b, tfTestField(10, protowire.BytesType, bytes.Repeat([]byte{5}, n))...)
	}
	one, many := tensor(1), tensor(1_000_000)
	if v, ok, _, err := tfDecodeTensor(one); v != 5 || !ok || err != nil {
		t.Fatalf("one value: %v %v %v, want 5", v, ok, err)
	}
	if _, ok, _, err := tfDecodeTensor(many); ok || err != nil {
		t.Fatalf("a million values: %v %v, want not one number", ok, err)
	}
	a1 := testing.AllocsPerRun(5, func() { tfDecodeTensor(one) })
	am := testing.AllocsPerRun(5, func() { tfDecodeTensor(many) })
	if am != a1 {
		t.Errorf("a million values: %v allocations, one value %v; want the same", am, a1)
	}
}

// TestReadTFEventsValueOneof: a Summary.Value's value is a oneof, the
// member given last counting, as protobuf (and so TensorBoard) reads it;
// a tensor given twice is merged. simple_value counted whenever given, an
// image after it included, and a second tensor replaced the first.
func TestReadTFEventsValueOneof(t *testing.T) {
	simple := tfTestField(2, protowire.Fixed32Type, binary.LittleEndian.AppendUint32(nil, math.Float32bits(1.5)))
	tensor := tfTestField(8, protowire.BytesType, tfTestTensor(2, 0.25, false)) // a double 0.25
	// one tensor in two parts: its dtype and shape, then its double_val
	head := tfTestField(8, protowire.BytesType, append(tfTestField(1, protowire.VarintType, protowire.AppendVarint(nil, 2)), tfTestField(2, protowire.BytesType, nil)...))
	tail := tfTestField(8, protowire.BytesType, tfTestField(6, protowire.BytesType, binary.LittleEndian.AppendUint64(nil, math.Float64bits(0.75))))
	image := tfTestField(4, protowire.BytesType, nil)
	imageVarint := tfTestField(4, protowire.VarintType, protowire.AppendVarint(nil, 1)) // an unknown field to protobuf
	none := math.NaN()
	cases := []struct {
		name   string
		fields [][]byte
		want   float64
	}{
		{"simple_value", [][]byte{simple}, 1.5},
		{"tensor", [][]byte{tensor}, 0.25},
		{"simple_value, then tensor", [][]byte{simple, tensor}, 0.25},
		{"tensor, then simple_value", [][]byte{tensor, simple}, 1.5},
		{"simple_value, then image", [][]byte{simple, image}, none},
		{"simple_value, then image of the wrong wire type", [][]byte{simple, imageVarint}, 1.5},
		{"tensor in two parts", [][]byte{head, tail}, 0.75},
		// simple_value between the parts ends the first tensor
		{"tensor parts around simple_value", [][]byte{head, simple, tail}, none},
	}
	tag := tfTestField(1, protowire.BytesType, []byte("x"))
	for _, c := range cases {
		value := append(bytes.Clone(tag), bytes.Join(c.fields, nil)...)
		event := append(tfTestField(1, protowire.Fixed64Type, binary.LittleEndian.AppendUint64(nil, math.Float64bits(5))),
			tfTestField(5, protowire.BytesType, tfTestField(1, protowire.BytesType, value))...)
		s, _, warns, err := ReadTFEvents(bytes.NewReader(AppendTFRecord(nil, event)), "t")
		if err != nil || len(warns) != 0 {
			t.Fatalf("%s: %v %v", c.name, err, warns)
		}
		switch {
		case math.IsNaN(c.want) && len(s) != 0:
			t.Errorf("%s: %+v, want no value", c.name, s)
		case !math.IsNaN(c.want) && (len(s) != 1 || s[0].Value != c.want || s[0].Tag != "x"):
			t.Errorf("%s: %+v, want x = %v", c.name, s, c.want)
		}
	}
}

// TestTFEventsSessionLogField: Event.session_log is field 7 of event.proto
// (6 is log_message, a LogMessage{level = 1, message = 2}). The reader read
// field 6 as the SessionLog: a real START (field 7) was never seen, and a
// log message of level 1 was a START. The bytes are written out here, not
// by tfTestSession, so that the numbers are checked against the proto.
func TestTFEventsSessionLogField(t *testing.T) {
	var events []byte
	for step := range int64(10) {
		events = AppendTFRecord(events, tfTestEvent(1000+float64(step), step, "", tfTestValue{tag: "loss", simple: f32(float32(step))}))
	}
	// wall_time 1100 (fixed64 0x4091300000000000), step 5
	head := []byte{0x09, 0, 0, 0, 0, 0, 0x30, 0x91, 0x40, 0x10, 0x05}
	cases := []struct {
		name string
		what []byte // the Event's field after wall_time and step
		kept int
	}{
		// session_log {status: START}: steps 5..9 dropped
		{"session_log START", []byte{0x3a, 0x02, 0x08, 0x01}, 5},
		// log_message {level: 1, message: "restart"}: nothing dropped
		{"log_message level 1", append([]byte{0x32, 0x0b, 0x08, 0x01, 0x12, 0x07}, "restart"...), 10},
		// log_message {level: INFO (20), message: "hello"}
		{"log_message INFO", append([]byte{0x32, 0x09, 0x08, 0x14, 0x12, 0x05}, "hello"...), 10},
	}
	for _, c := range cases {
		data := AppendTFRecord(bytes.Clone(events), append(bytes.Clone(head), c.what...))
		s, _, warns, err := ReadTFEvents(bytes.NewReader(data), "run.tfevents")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(s) != c.kept {
			t.Errorf("%s: %d values kept, want %d", c.name, len(s), c.kept)
		}
		want := ""
		if c.kept < 10 {
			want = fmt.Sprintf("traces: run.tfevents: record 11 at byte %d: SessionLog START at step 5 (a restart): dropped the 5 values", len(events))
		}
		if got := errorsText(warns); want == "" && got != "" || want != "" && !strings.HasPrefix(got, want) {
			t.Errorf("%s: warnings %q, want %q", c.name, got, want)
		}
	}
}

// TestReadTFEventsEventOneof: an Event's summary, session_log and the other
// members of its oneof `what` (fields 3 to 9) replace each other, the last
// given counting, as protobuf reads them; the same member given twice in a
// row is merged. Both a summary and a session_log used to be read.
func TestReadTFEventsEventOneof(t *testing.T) {
	var events []byte
	for step := range int64(10) {
		events = AppendTFRecord(events, tfTestEvent(1000+float64(step), step, "", tfTestValue{tag: "loss", simple: f32(float32(step))}))
	}
	head := []byte{0x09, 0, 0, 0, 0, 0, 0x30, 0x91, 0x40, 0x10, 0x05}                                                                        // wall_time 1100, step 5
	value := append(tfTestField(1, protowire.BytesType, []byte("loss")), tfTestField(2, protowire.Fixed32Type, []byte{0, 0, 0xc6, 0x42})...) // simple_value 99
	summary := tfTestField(tfEventSummary, protowire.BytesType, tfTestField(tfSummaryValue, protowire.BytesType, value))
	start := tfTestField(tfEventSession, protowire.BytesType, []byte{0x08, 0x01})
	version := tfTestField(3, protowire.BytesType, []byte("brain.Event:2"))
	cases := []struct {
		name   string
		what   []byte
		kept   int  // values read
		has99  bool // the event's own value among them
		purged bool // a START applied
	}{
		{"summary then session_log", append(bytes.Clone(summary), start...), 5, false, true},
		{"session_log then summary", append(bytes.Clone(start), summary...), 11, true, false},
		{"summary then file_version", append(bytes.Clone(summary), version...), 10, false, false},
		{"summary twice", append(bytes.Clone(summary), summary...), 12, true, false},
		{"summary, file_version, summary", append(append(bytes.Clone(summary), version...), summary...), 11, true, false},
	}
	for _, c := range cases {
		data := AppendTFRecord(bytes.Clone(events), append(bytes.Clone(head), c.what...))
		s, _, warns, err := ReadTFEvents(bytes.NewReader(data), "run.tfevents")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		has99 := slices.ContainsFunc(s, func(x TFScalar) bool { return x.Value == 99 })
		if len(s) != c.kept || has99 != c.has99 || (len(warns) > 0) != c.purged {
			t.Errorf("%s: %d values (99 among them: %v), warnings %q; want %d values (99: %v), a START applied: %v", c.name, len(s), has99, errorsText(warns), c.kept, c.has99, c.purged)
		}
	}
}

// TestReadTFEventsTensorDtypes: a one-element tensor of each numeric dtype
// TensorFlow's make_ndarray reads is read, from its *_val field (half and
// bfloat16: half_val = 13, the 16 bits in an int32; uint8, uint16, int8,
// int16: int_val = 7; uint32_val = 16; uint64_val = 17) or from
// tensor_content (little-endian, the dtype's size), and a tensor of shape
// [] or [1] with no value at all is 0, as make_ndarray's np.zeros. These
// were all skipped: only float, double, int32 and int64 holding a value
// were read.
func TestReadTFEventsTensorDtypes(t *testing.T) {
	dtype := func(d uint64) []byte { return tfTestField(1, protowire.VarintType, protowire.AppendVarint(nil, d)) }
	vec1 := tfTestField(2, protowire.BytesType, tfTestField(2, protowire.BytesType, tfTestField(1, protowire.VarintType, protowire.AppendVarint(nil, 1)))) // shape [1]
	packed := func(field protowire.Number, v ...uint64) []byte {
		var b []byte
		for _, x := range v {
			b = protowire.AppendVarint(b, x)
		}
		return tfTestField(field, protowire.BytesType, b)
	}
	content := func(b ...byte) []byte { return tfTestField(4, protowire.BytesType, b) }
	neg := func(x int64) uint64 { return uint64(x) } // an int32 field's negative value, sign-extended
	const (
		half, bf16, u8, u16, u32, u64, i8, i16 = 19, 14, 4, 17, 22, 23, 6, 5
		halfVal, intVal, u32Val, u64Val        = 13, 7, 16, 17
	)
	cases := []struct {
		name   string
		fields [][]byte
		want   float64
		skip   bool // refused by make_ndarray: no value read
	}{
		// half: 1 sign, 5 exponent (bias 15), 10 fraction bits
		{"half 0x3C00", [][]byte{dtype(half), packed(halfVal, 0x3C00)}, 1, false},
		{"half 0xC000", [][]byte{dtype(half), packed(halfVal, 0xC000)}, -2, false},
		{"half 0x3555", [][]byte{dtype(half), packed(halfVal, 0x3555)}, 0.333251953125, false},
		{"half 0x7BFF, the largest", [][]byte{dtype(half), packed(halfVal, 0x7BFF)}, 65504, false},
		{"half 0x0400, the smallest normal", [][]byte{dtype(half), packed(halfVal, 0x0400)}, math.Ldexp(1, -14), false},
		{"half 0x0001, the smallest subnormal", [][]byte{dtype(half), packed(halfVal, 0x0001)}, math.Ldexp(1, -24), false},
		{"half 0x03FF, the largest subnormal", [][]byte{dtype(half), packed(halfVal, 0x03FF)}, math.Ldexp(1023, -24), false},
		{"half 0x7C00", [][]byte{dtype(half), packed(halfVal, 0x7C00)}, math.Inf(1), false},
		{"half 0xFC00", [][]byte{dtype(half), packed(halfVal, 0xFC00)}, math.Inf(-1), false},
		{"half 0x7E00", [][]byte{dtype(half), packed(halfVal, 0x7E00)}, math.NaN(), false},
		{"half tensor_content", [][]byte{dtype(half), content(0x00, 0x3C)}, 1, false},
		{"half_val unpacked", [][]byte{dtype(half), tfTestField(halfVal, protowire.VarintType, protowire.AppendVarint(nil, 0x3800))}, 0.5, false},
		// bfloat16: the top 16 bits of a float32
		{"bfloat16 0x3F80", [][]byte{dtype(bf16), packed(halfVal, 0x3F80)}, 1, false},
		{"bfloat16 0xC0A0", [][]byte{dtype(bf16), packed(halfVal, 0xC0A0)}, -5, false},
		{"bfloat16 0x3EAB", [][]byte{dtype(bf16), packed(halfVal, 0x3EAB)}, 0.333984375, false},
		{"bfloat16 0x0001, subnormal", [][]byte{dtype(bf16), packed(halfVal, 0x0001)}, math.Ldexp(1, -133), false},
		{"bfloat16 0x7F80", [][]byte{dtype(bf16), packed(halfVal, 0x7F80)}, math.Inf(1), false},
		{"bfloat16 0x7FC0", [][]byte{dtype(bf16), packed(halfVal, 0x7FC0)}, math.NaN(), false},
		{"bfloat16 tensor_content", [][]byte{dtype(bf16), content(0x80, 0x3F)}, 1, false},
		// unsigned and small signed integers
		{"uint8 int_val", [][]byte{dtype(u8), packed(intVal, 255)}, 255, false},
		{"uint8 tensor_content", [][]byte{dtype(u8), content(200)}, 200, false},
		{"uint16 int_val", [][]byte{dtype(u16), packed(intVal, 65535)}, 65535, false},
		{"uint16 tensor_content", [][]byte{dtype(u16), content(0x34, 0x12)}, 0x1234, false},
		{"uint32 uint32_val", [][]byte{dtype(u32), packed(u32Val, math.MaxUint32)}, math.MaxUint32, false},
		{"uint32 tensor_content", [][]byte{dtype(u32), content(0xff, 0xff, 0xff, 0xff)}, math.MaxUint32, false},
		{"uint64 uint64_val", [][]byte{dtype(u64), packed(u64Val, 1<<63)}, 1 << 63, false},
		{"uint64 tensor_content", [][]byte{dtype(u64), content(0, 0, 0, 0, 0, 0, 0, 0x80)}, 1 << 63, false},
		{"int8 int_val", [][]byte{dtype(i8), packed(intVal, neg(-128))}, -128, false},
		{"int8 tensor_content", [][]byte{dtype(i8), content(0xff)}, -1, false},
		{"int16 int_val", [][]byte{dtype(i16), packed(intVal, neg(-300))}, -300, false},
		{"int16 tensor_content", [][]byte{dtype(i16), content(0x00, 0x80)}, -32768, false},
		// shape [1] as well as []
		{"half [1]", [][]byte{dtype(half), vec1, packed(halfVal, 0x3C00)}, 1, false},
		{"uint64 [1]", [][]byte{dtype(u64), vec1, packed(u64Val, 7)}, 7, false},
		// no value at all: np.zeros(shape, dtype)
		{"float [], no value", [][]byte{dtype(1)}, 0, false},
		{"float [1], no value", [][]byte{dtype(1), vec1}, 0, false},
		{"double [1], no value", [][]byte{dtype(2), vec1}, 0, false},
		{"int32 [], no value", [][]byte{dtype(3)}, 0, false},
		{"int64 [1], no value", [][]byte{dtype(9), vec1}, 0, false},
		{"half [], no value", [][]byte{dtype(half)}, 0, false},
		{"bfloat16 [1], no value", [][]byte{dtype(bf16), vec1}, 0, false},
		{"uint8 [], no value", [][]byte{dtype(u8)}, 0, false},
		{"uint32 [1], no value", [][]byte{dtype(u32), vec1}, 0, false},
		{"uint64 [], no value", [][]byte{dtype(u64)}, 0, false},
		// a value in another dtype's field: the dtype's own is empty, so 0
		{"half, int_val only", [][]byte{dtype(half), packed(intVal, 0x3C00)}, 0, false},
		{"uint32, int_val only", [][]byte{dtype(u32), packed(intVal, 5)}, 0, false},
		// refused by make_ndarray: not read
		{"half_val of 0x10000", [][]byte{dtype(half), packed(halfVal, 0x10000)}, 0, true},
		{"half_val of -1", [][]byte{dtype(half), packed(halfVal, neg(-1))}, 0, true},
		{"uint8 int_val of 256", [][]byte{dtype(u8), packed(intVal, 256)}, 0, true},
		{"uint8 int_val of -1", [][]byte{dtype(u8), packed(intVal, neg(-1))}, 0, true},
		{"uint16 int_val of 65536", [][]byte{dtype(u16), packed(intVal, 65536)}, 0, true},
		{"int8 int_val of 128", [][]byte{dtype(i8), packed(intVal, 128)}, 0, true},
		{"int16 int_val of -32769", [][]byte{dtype(i16), packed(intVal, neg(-32769))}, 0, true},
		{"half, two values", [][]byte{dtype(half), packed(halfVal, 0x3C00, 0x3C00)}, 0, true},
		{"half tensor_content of 4 bytes", [][]byte{dtype(half), content(0, 0x3C, 0, 0x3C)}, 0, true},
		{"uint8 tensor_content of 2 bytes", [][]byte{dtype(u8), content(1, 2)}, 0, true},
		{"bool, no value", [][]byte{dtype(10)}, 0, true},
		{"no dtype, no value", nil, 0, true},
	}
	for _, c := range cases {
		f := AppendTFRecord(nil, tfTestEvent(5, 1, "", tfTestValue{tag: "x", tensor: bytes.Join(c.fields, nil)}))
		s, _, warns, err := ReadTFEvents(bytes.NewReader(f), "t")
		// a value read as 0 from a tensor holding none is warned of
		noValue := !c.skip && (strings.Contains(c.name, "no value") || strings.Contains(c.name, "only"))
		if err != nil || len(warns) != btoi(noValue) || noValue && !strings.Contains(warns[0].Error(), "holding no value: read as 0") {
			t.Fatalf("%s: %v %v, want %d warnings of no value", c.name, err, warns, btoi(noValue))
		}
		switch {
		case c.skip && len(s) != 0:
			t.Errorf("%s: %+v, want no value", c.name, s)
		case c.skip:
		case len(s) != 1:
			t.Errorf("%s: %+v, want one value, %v", c.name, s, c.want)
		case !(s[0].Value == c.want && math.Signbit(s[0].Value) == math.Signbit(c.want) || math.IsNaN(c.want) && math.IsNaN(s[0].Value)):
			t.Errorf("%s: %v, want %v", c.name, s[0].Value, c.want)
		}
	}
}

// TestTFHalf: every one of the 65536 half bit patterns decodes to the
// value of its IEEE 754 binary16 fields; the same bits shifted into a
// float32 (exponent rebiased) give it too, which checks the two ways
// against each other.
func TestTFHalf(t *testing.T) {
	for h := range 1 << 16 {
		got := tfHalf(uint16(h))
		sign, exp, frac := uint32(h>>15), uint32(h>>10&0x1f), uint32(h&0x3ff)
		var want float64
		switch exp {
		case 0: // zero or subnormal: frac x 2^-24
			want = float64(math.Float32frombits(sign<<31)) + float64(frac)*math.Ldexp(1, -24)*(1-2*float64(sign))
		case 0x1f:
			want = float64(math.Float32frombits(sign<<31 | 0xff<<23 | frac<<13))
		default:
			want = float64(math.Float32frombits(sign<<31 | (exp-15+127)<<23 | frac<<13))
		}
		if !(got == want && math.Signbit(got) == math.Signbit(want) || math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("tfHalf(%#04x) = %v, want %v", h, got, want)
		}
	}
	if v := tfHalf(0x8000); v != 0 || !math.Signbit(v) {
		t.Errorf("tfHalf(0x8000) = %v, want -0", v)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Values read as 0 from tensors that hold none (TensorFlow's reading) are
// counted in one warning at the first of them, naming their tags: a loss
// logged so read 0 without a word, a perfect fit.
func TestReadTFEventsNoValueWarning(t *testing.T) {
	empty := tfTestField(1, protowire.VarintType, protowire.AppendVarint(nil, 1)) // DT_FLOAT, no value
	half := float32(0.5)
	var f []byte
	f = AppendTFRecord(f, tfTestEvent(5, 1, "", tfTestValue{tag: "acc", simple: &half}))
	first := len(f)
	f = AppendTFRecord(f, tfTestEvent(5, 2, "", tfTestValue{tag: "loss", tensor: empty}))
	f = AppendTFRecord(f, tfTestEvent(5, 3, "", tfTestValue{tag: "loss", tensor: empty}))
	f = AppendTFRecord(f, tfTestEvent(5, 4, "", tfTestValue{tag: "acc", tensor: empty}))
	s, _, warns, err := ReadTFEvents(bytes.NewReader(f), "ev")
	if err != nil || len(s) != 4 || s[1].Value != 0 {
		t.Fatalf("%v %+v", err, s)
	}
	want := fmt.Sprintf(`traces: ev: record 2 at byte %d: 3 values (tags "acc", "loss") were tensors holding no value: read as 0, as TensorFlow's make_ndarray and TensorBoard read them (expected a value; a loss or accuracy of 0 there is likely a logging fault)`, first)
	if len(warns) != 1 || warns[0].Error() != want {
		t.Errorf("warnings %q, want\n%s", warns, want)
	}
	one := AppendTFRecord(nil, tfTestEvent(5, 2, "", tfTestValue{tag: "loss", tensor: empty}))
	if _, _, warns, _ := ReadTFEvents(bytes.NewReader(one), "ev"); len(warns) != 1 || !strings.Contains(warns[0].Error(), `1 value (tag "loss") was a tensor holding no value`) {
		t.Errorf("one value: warnings %q", warns)
	}
}

// TestSteadyMeanWindow: the throughput of an event file is the mean of the
// rate logged inside the steady-state window, the logged wall time less its
// first 10% and last 5% (docs/validation-protocol.md, as Summarize's).
// Values equal to their wall times 0, 1, ..., 20 s: the window is
// [0 + 0.10*20, 20 - 0.05*20] = [2, 19], 18 values 2..19, mean
// (2+19)/2 = 10.5 and sample standard deviation sqrt(18*19/12) =
// sqrt(28.5) (consecutive integers: variance n(n+1)/12). With under 3
// values inside, all of them: 4, 7, 13 at 0, 10, 20 s (only 10 s inside)
// give mean 24/3 = 8 and deviation sqrt((16+1+25)/2) = sqrt(21).
func TestSteadyMeanWindow(t *testing.T) {
	var s []TFScalar
	for i := 0; i <= 20; i++ {
		s = append(s, TFScalar{WallTime: 1.7e9 + float64(i), Step: int64(i), Tag: "global_step/sec", Value: float64(i)})
	}
	// out of order: the window is over wall times, not the file's order
	s[3], s[17] = s[17], s[3]
	mean, std, n := steadyMean(s)
	if n != 18 || math.Abs(mean-10.5) > 1e-12 || math.Abs(std-math.Sqrt(28.5)) > 1e-12 {
		t.Errorf("0..20 s: mean %v, std %v over %d values; want 10.5, %v over 18 (window [2, 19] s)", mean, std, n, math.Sqrt(28.5))
	}
	few := []TFScalar{{1.7e9, 0, "x", 4}, {1.7e9 + 10, 1, "x", 7}, {1.7e9 + 20, 2, "x", 13}}
	mean, std, n = steadyMean(few)
	if n != 3 || math.Abs(mean-8) > 1e-12 || math.Abs(std-math.Sqrt(21)) > 1e-12 {
		t.Errorf("one value in the window: mean %v, std %v over %d; want all 3: 8, %v", mean, std, n, math.Sqrt(21))
	}
}
