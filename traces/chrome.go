package traces

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/sgdplan/sgdplan/internal/limits"
	"github.com/sgdplan/sgdplan/internal/words"
)

// Chrome trace-event JSON (TensorFlow timeline, PyTorch profiler, Horovod
// timeline), optionally gzipped, into steps.csv rows. docs/formats.md has the
// same rules with examples.
//
// # Input
//
// Either a JSON array of events or an object whose "traceEvents" member is
// that array (the closing "]" of a bare array may be missing, as the format
// allows). Intervals come from "X" events (ts and dur in microseconds) and
// from "B"/"E" pairs on the same (pid, tid), matched as a stack. Other
// phases (instant, counter, flow, metadata) are ignored. A PyTorch
// "distributedInfo" {"rank", "world_size"} gives the worker and the worker
// count.
//
// # Steps
//
// A step is an interval whose name is a step marker: "ProfilerStep#N"
// (PyTorch), or "step", "train_step", "iteration", "iter" optionally followed
// by a number ("step 12", "Iteration#3"), case-insensitive, unless its
// category names the GPU (PyTorch's gpu_user_annotation copy of the
// marker on the device's pid). N is the step
// number; markers without one are numbered 0, 1, ... per worker. Each step
// marker's pid is a worker: the rank when distributedInfo gives one,
// otherwise workers are numbered 0, 1, ... in the order their pids first
// mark a step. When no event marks a step, the whole trace is one step of
// worker 0 (a TensorFlow timeline records one session.run), with a warning.
//
// # Phases
//
// Inside a step, an interval counts toward a phase by its name
// (case-insensitive substring):
//
//	push:    allreduce, all_reduce, all-reduce, reduce_scatter, reducescatter,
//	         push, send, negotiate (Horovod's NEGOTIATE_ALLREDUCE waits for
//	         the other ranks before the all-reduce)
//	pull:    pull, recv, broadcast, allgather, all_gather
//	compute: forward, backward, optimizer
//
// push is tested first (so "ncclAllReduce" is push); local ops named like
// a phase (aten::broadcast_tensors, broadcast_to) are none. The phase time is the
// length of the union of its intervals clipped to the step, so nested or
// overlapping events count once; a phase with no interval is absent (NaN).
// When one worker marks steps, every interval of the file (GPU streams
// included, whatever their pid) is matched to the steps by time; when
// several do, only intervals on the step's own pid are.
//
// start and end are seconds from the earliest event of the file.

// chromeNestedMarkers are the indexes in ivs of the step markers that lie
// within another step marker of their pid (its start at or after the
// other's, its end at or before; of two equal intervals the later in ivs):
// a record_function("train_step") inside each ProfilerStep#N took the next
// step number and collided with the next ProfilerStep, and the rows were
// the inner intervals (a review). GPU intervals are no markers.
func chromeNestedMarkers(ivs []chromeInterval) map[int]bool {
	byPid := map[string][]int{}
	for i, iv := range ivs {
		if !iv.gpu && chromeStepName.MatchString(iv.name) {
			byPid[iv.pid] = append(byPid[iv.pid], i)
		}
	}
	nested := map[int]bool{}
	for _, idx := range byPid {
		// by start, the longer first at one start, then by position:
		// an outer marker comes before what it holds
		sort.SliceStable(idx, func(a, b int) bool {
			x, y := ivs[idx[a]], ivs[idx[b]]
			if x.start != y.start {
				return x.start < y.start
			}
			return x.end > y.end
		})
		end := math.Inf(-1) // the end of the last outer marker
		for _, i := range idx {
			if ivs[i].end <= end {
				nested[i] = true
				continue
			}
			end = ivs[i].end
		}
	}
	return nested
}

// chromeStepName matches step markers; group 2 is the step number.
var chromeStepName = regexp.MustCompile(`(?i)^(profilerstep|step|train_step|iteration|iter)\s*[#:_ ]?\s*(\d+)?$`)

var (
	chromePushWords    = []string{"allreduce", "all_reduce", "all-reduce", "reduce_scatter", "reducescatter", "push", "send", "negotiate"}
	chromePullWords    = []string{"pull", "recv", "broadcast", "allgather", "all_gather"}
	chromeComputeWords = []string{"forward", "backward", "optimizer"}
)

// processes is "1 process" or "n processes".
func processes(n int) string {
	if n == 1 {
		return "1 process"
	}
	return fmt.Sprintf("%d processes", n)
}

// chromeLocalOps are names that hold a phase word but move no data between
// nodes: aten::broadcast_tensors (shape broadcasting, a local op) counted
// as pull, 1 ms a step on an all-reduce job's trace.
var chromeLocalOps = []string{"broadcast_tensors", "broadcast_to", "broadcast_shapes"}

// chromePhase classifies an event name: 0 none, 1 pull, 2 compute, 3 push.
func chromePhase(name string) int {
	low := strings.ToLower(name)
	for _, w := range chromeLocalOps {
		if strings.Contains(low, w) {
			return 0
		}
	}
	for _, w := range chromePushWords {
		if strings.Contains(low, w) {
			return 3
		}
	}
	for _, w := range chromePullWords {
		if strings.Contains(low, w) {
			return 1
		}
	}
	for _, w := range chromeComputeWords {
		if strings.Contains(low, w) {
			return 2
		}
	}
	return 0
}

type chromeEvent struct {
	Name string          `json:"name"`
	Cat  string          `json:"cat"`
	Ph   string          `json:"ph"`
	Ts   *float64        `json:"ts"`
	Dur  *float64        `json:"dur"`
	Pid  json.RawMessage `json:"pid"`
	Tid  json.RawMessage `json:"tid"`
}

type chromeInterval struct {
	name       string
	pid        string
	start, end float64 // us
	gpu        bool    // a GPU-side copy of an annotation: never a step marker
	off        int64   // where its event (of a B/E pair, the B) starts in the file
	endOff     int64   // where the event that gives its end (the E of a pair) starts
}

// chromeDoc is a decoded trace with a way to turn byte offsets into
// positions.
type chromeDoc struct {
	file  string
	data  []byte
	lines []int // offsets of '\n'
}

func (d *chromeDoc) pos(off int64) (line, col int) {
	i := sort.SearchInts(d.lines, int(off))
	line = i + 1
	start := 0
	if i > 0 {
		start = d.lines[i-1] + 1
	}
	return line, int(off) - start + 1
}

func (d *chromeDoc) errAt(off int64, format string, args ...any) *ParseError {
	l, c := d.pos(off)
	return &ParseError{File: d.file, Line: l, Column: c, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// jsonErr positions an error of encoding/json.
func (d *chromeDoc) jsonErr(err error, fallback int64) *ParseError {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		// The offsets of json.Decoder are not absolute; a whole-document
		// scan gives the absolute offset of the first syntax error.
		var whole *json.SyntaxError
		if errors.As(json.Unmarshal(d.data, new(json.RawMessage)), &whole) {
			se = whole
		}
		return d.errAt(max(se.Offset-1, 0), "invalid JSON: %v", se)
	case errors.As(err, &te):
		return d.errAt(fallback, "invalid trace event: field %q: expected a %v, got JSON %s", te.Field, te.Type, te.Value)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return d.errAt(int64(len(d.data)), "invalid JSON: the file ends in the middle of a value (truncated?)")
	}
	return d.errAt(fallback, "invalid JSON: %v", err)
}

// skipSpace returns the offset of the first byte at or after off that is not
// JSON whitespace, a comma or a colon.
func (d *chromeDoc) skipSpace(off int64) int64 {
	for off < int64(len(d.data)) {
		switch d.data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
		default:
			return off
		}
	}
	return off
}

// ReadChromeTrace reads a Chrome trace-event JSON file (gzipped or not) and
// returns its steps as a canonical trace (steps.csv and a runs.csv row),
// following the rules above. Workers, PS, Batch, Mode and Run come from
// opts when set. Errors are *ParseError with line and column (byte) of the
// offending JSON.
func ReadChromeTrace(r io.Reader, file string, opts ConvertOptions) (*Trace, []error, error) {
	if opts.source == "" {
		opts.source = file
	}
	opts = opts.withDefaults()
	data, err := chromeReadAll(r, file)
	if err != nil {
		return nil, nil, err
	}
	// a UTF-8 byte-order mark (as the CSV readers and model.json allow) is
	// skipped: positions are then those an editor shows
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	doc := &chromeDoc{file: file, data: data}
	for i, b := range data {
		if b == '\n' {
			doc.lines = append(doc.lines, i)
		}
	}
	ivs, info, warns, err := doc.intervals()
	if err != nil {
		return nil, warns, err
	}
	if len(ivs) == 0 {
		return nil, warns, &ParseError{File: file, Msg: "no complete (X) or begin/end (B/E) events: nothing to convert"}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	var loAt, hiAt int64
	for _, iv := range ivs {
		if iv.start < lo {
			lo, loAt = iv.start, iv.off
		}
		if iv.end > hi {
			hi, hiAt = iv.end, iv.endOff
		}
	}
	if math.IsInf(hi-lo, 0) {
		// at the event that ends last, naming the one that starts first
		line, col := doc.pos(loAt)
		return nil, warns, doc.errAt(hiAt, "event ends at %v us, and the event at line %d, column %d starts at %v us: the span overflows (expected times within 1e12 s of each other)", hi, line, col, lo)
	}
	tr, w, err := chromeSteps(doc, ivs, info, opts)
	return tr, append(warns, w...), err
}

// chromeShortStep is the median step length (s) under which a Chrome
// trace's times are taken to be in other units than microseconds: a
// training step of 1 us is a million times shorter than a real one, and
// seconds written as microseconds give exactly that (only the upper bound,
// 1e12 s, was checked).
const chromeShortStep = 1e-6

// chromeSeg is the interval [a, b] of an event, in microseconds.
type chromeSeg struct{ a, b float64 }

// chromeMerge returns the union of segs (reordered in place and reusing
// its memory): disjoint intervals in increasing order, with gaps between
// them (segments that overlap or touch are one interval).
func chromeMerge(segs []chromeSeg) []chromeSeg {
	sort.Slice(segs, func(i, j int) bool { return segs[i].a < segs[j].a })
	out := segs[:0]
	for _, s := range segs {
		if n := len(out); n > 0 && s.a <= out[n-1].b {
			out[n-1].b = math.Max(out[n-1].b, s.b)
			continue
		}
		out = append(out, s)
	}
	return out
}

// chromeUnion is the length of the union of segments clipped to [a, b],
// from their union (chromeMerge): the intervals that end after a and start
// before b, clipped, in O(log n) plus those intervals. It was computed from
// the segments, the scan starting after those that start before a - the
// longest segment: one long segment made every step scan from the first
// (steps x segments: 20,000 steps with one event over all of them, 12 s).
// The sum is the same float64: each of its terms is a part of the union,
// from its first point in [a, b] to its last, in the same order.
func chromeUnion(merged []chromeSeg, a, b float64) float64 {
	total := 0.0
	i := sort.Search(len(merged), func(i int) bool { return merged[i].b > a })
	for ; i < len(merged) && merged[i].a < b; i++ {
		if x, y := math.Max(merged[i].a, a), math.Min(merged[i].b, b); y > x {
			total += y - x
		}
	}
	return total
}

// chromeMedianStep is the median end - start of steps; +Inf for none.
func chromeMedianStep(steps []Step) float64 {
	if len(steps) == 0 {
		return math.Inf(1)
	}
	d := make([]float64, len(steps))
	for i, st := range steps {
		d[i] = st.End - st.Start
	}
	slices.Sort(d)
	return d[len(d)/2]
}

// chromeMaxBytes is the most a Chrome trace may hold, decompressed: the
// reader holds it whole, and its events, a few times its size (a review's
// 1.5 MB .json.gz of 1.5 GiB of spaces took 7.7 GB; ten times that would
// end in the kernel's out-of-memory kill, not an error). A variable for
// the tests.
var chromeMaxBytes int64 = 2 << 30

// chromeReadAll reads r whole, gunzipping it when it starts with the gzip
// magic; more than chromeMaxBytes, read or decompressed, is an error.
func chromeReadAll(r io.Reader, file string) ([]byte, error) {
	tooBig := func(what string) error {
		return &ParseError{File: file, Msg: fmt.Sprintf("%s more than %s (the reader holds the trace whole, and its events, a few times its size): profile fewer steps, or split the file", what, byteSize(chromeMaxBytes))}
	}
	raw, err := io.ReadAll(io.LimitReader(r, chromeMaxBytes+1))
	if err != nil {
		return nil, &ParseError{File: file, Msg: err.Error()}
	}
	if int64(len(raw)) > chromeMaxBytes {
		return nil, tooBig("the file holds")
	}
	if !bytes.HasPrefix(raw, []byte{0x1f, 0x8b}) {
		return raw, nil
	}
	br := bufio.NewReader(bytes.NewReader(raw))
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, &ParseError{File: file, Msg: "bad gzip header: " + err.Error() + " (expected a gzip file, by its first two bytes 1f 8b, or plain text)"}
	}
	zr.Multistream(false)
	data, err := io.ReadAll(io.LimitReader(&gzipMembers{br: br, zr: zr}, chromeMaxBytes+1))
	if int64(len(data)) > chromeMaxBytes {
		return nil, tooBig("the gzip stream decompresses to")
	}
	switch {
	case errors.Is(err, errGzipTrailing):
		return nil, &ParseError{File: file, Msg: "bytes after the end of the gzip stream that are not gzip data (expected the end of the file or another gzip member)"}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, &ParseError{File: file, Offset: int64(len(raw)), Msg: fmt.Sprintf("truncated gzip stream (the compressed data ends early, after %d bytes decompressed)", len(data))}
	case err != nil:
		return nil, &ParseError{File: file, Msg: "corrupt gzip stream: " + err.Error() + " (expected a whole gzip file: cut short, or damaged?)"}
	}
	return data, nil
}

// byteSize is n bytes in binary units: "2 GiB", "1.5 MiB", "700 bytes".
func byteSize(n int64) string {
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if n >= u.size {
			return strconv.FormatFloat(float64(n)/float64(u.size), 'g', 4, 64) + " " + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// chromeInfo is what the file says about the run as a whole.
type chromeInfo struct {
	rank, worldSize   int   // -1 when absent
	rankOff, worldOff int64 // where the distributedInfo that gives each starts (its key)
	infoOff           int64 // where the distributedInfo starts; -1 when absent
}

// intervals decodes the events and pairs B/E into intervals.
func (d *chromeDoc) intervals() ([]chromeInterval, chromeInfo, []error, error) {
	info := chromeInfo{rank: -1, worldSize: -1, infoOff: -1}
	var warns []error
	data := d.data
	// A bare array cut off after an event's comma ("...},"), as a trace
	// written while the profiler ran leaves it: read up to the comma (the
	// format allows a missing "]"; trace viewers read this too), said in a
	// warning once the array reads. Offsets are unchanged: data is a
	// prefix of d.data.
	var cutComma error
	if t := bytes.TrimRight(data, " \t\r\n"); len(t) > 0 && t[len(t)-1] == ',' && bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n\ufeff"), []byte("[")) {
		data = t[:len(t)-1]
		cutComma = d.errAt(int64(len(t)-1), "the event array ends in a comma with no closing ] (a trace cut off while it was written?): read up to the comma")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, info, nil, &ParseError{File: d.file, Msg: "empty file: expected a JSON array of trace events or an object with traceEvents"}
		}
		return nil, info, nil, d.jsonErr(err, 0)
	}
	var ivs []chromeInterval
	readArray := func(bare bool) error {
		open := map[string][]int{} // (pid, tid) -> stack of indexes into pending
		type pend struct {
			name string
			pid  string
			ts   float64
			off  int64
			gpu  bool
		}
		var pending []pend
		for dec.More() {
			off := d.skipSpace(dec.InputOffset())
			var ev chromeEvent
			if err := dec.Decode(&ev); err != nil {
				return d.jsonErr(err, off)
			}
			if end := dec.InputOffset(); end > off && end <= int64(len(d.data)) {
				if k, at := chromeDupKey(d.data[off:end]); k != "" {
					return d.errAt(off+int64(at), "trace event: key %q repeats a key of the same event (which value counts is undefined; expected each key once)", k)
				}
			}
			switch ev.Ph {
			case "X", "B", "E":
			default:
				continue
			}
			if ev.Ts == nil {
				return d.errAt(off, "event %q (ph %s): missing ts (microseconds)", ev.Name, ev.Ph)
			}
			pid := string(ev.Pid)
			key := pid + "\x00" + string(ev.Tid)
			switch ev.Ph {
			case "X":
				if ev.Dur == nil {
					return d.errAt(off, "complete event %q: missing dur (microseconds)", ev.Name)
				}
				if *ev.Dur < 0 {
					return d.errAt(off, "complete event %q: negative dur %v (expected a duration >= 0 microseconds)", ev.Name, *ev.Dur)
				}
				if math.IsInf(*ev.Ts+*ev.Dur, 0) {
					return d.errAt(off, "complete event %q: ts %v + dur %v out of range (expected an end ts + dur below 1.8e308 microseconds)", ev.Name, *ev.Ts, *ev.Dur)
				}
				ivs = append(ivs, chromeInterval{ev.Name, pid, *ev.Ts, *ev.Ts + *ev.Dur, chromeGPUCat(ev.Cat), off, off})
			case "B":
				open[key] = append(open[key], len(pending))
				pending = append(pending, pend{ev.Name, pid, *ev.Ts, off, chromeGPUCat(ev.Cat)})
			case "E":
				st := open[key]
				if len(st) == 0 {
					warns = append(warns, d.errAt(off, "end event %q on pid %s tid %s has no begin; ignored", ev.Name, pid, ev.Tid))
					continue
				}
				b := pending[st[len(st)-1]]
				open[key] = st[:len(st)-1]
				if *ev.Ts < b.ts {
					bl, bc := d.pos(b.off)
					return d.errAt(off, "end event at ts %v is before its begin %q at ts %v (line %d, column %d)", *ev.Ts, b.name, b.ts, bl, bc)
				}
				ivs = append(ivs, chromeInterval{b.name, b.pid, b.ts, *ev.Ts, b.gpu, b.off, off})
			}
		}
		var left []int
		for _, st := range open {
			left = append(left, st...)
		}
		sort.Ints(left)
		for _, i := range left {
			warns = append(warns, d.errAt(pending[i].off, "begin event %q has no end; ignored", pending[i].name))
		}
		if _, err := dec.Token(); err != nil {
			if bare && (err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF)) {
				if cutComma == nil { // (which says so itself)
					warns = append(warns, d.errAt(int64(len(d.data)), "the event array has no closing ]: read to the end of the file (the trace-event format allows this)"))
				}
				return nil
			}
			return d.jsonErr(err, dec.InputOffset())
		}
		if bare {
			return d.trailing(dec.InputOffset())
		}
		return nil
	}
	switch tok {
	case json.Delim('['):
		if err := readArray(true); err != nil {
			return nil, info, warns, err
		}
		if cutComma != nil {
			warns = append(warns, cutComma)
		}
		return ivs, info, warns, nil
	case json.Delim('{'):
	default:
		return nil, info, nil, d.errAt(d.skipSpace(0), "expected a JSON array of trace events or an object with traceEvents, got %v", tok)
	}
	found := false
	for dec.More() {
		off := d.skipSpace(dec.InputOffset())
		k, err := dec.Token()
		if err != nil {
			return nil, info, warns, d.jsonErr(err, off)
		}
		key, _ := k.(string)
		switch key {
		case "traceEvents":
			if found { // (both arrays were read, as one)
				return nil, info, warns, d.errAt(off, "traceEvents given twice in the object: expected one array of events")
			}
			off := d.skipSpace(dec.InputOffset())
			if t, err := dec.Token(); err != nil {
				return nil, info, warns, d.jsonErr(err, off)
			} else if t != json.Delim('[') {
				return nil, info, warns, d.errAt(d.skipSpace(off), "traceEvents: expected an array of events")
			}
			if err := readArray(false); err != nil {
				return nil, info, warns, err
			}
			found = true
		case "distributedInfo":
			if info.infoOff >= 0 { // the second would override the first's fields
				l, c := d.pos(info.infoOff)
				return nil, info, warns, d.errAt(off, "distributedInfo given twice in the object, first at line %d, column %d: expected one", l, c)
			}
			info.infoOff = off
			var di struct {
				Rank      *int `json:"rank"`
				WorldSize *int `json:"world_size"`
			}
			if err := dec.Decode(&di); err != nil {
				// (jsonErr called it "invalid trace event: field
				// "rank": expected a int")
				var te *json.UnmarshalTypeError
				if errors.As(err, &te) {
					switch te.Field {
					case "rank":
						return nil, info, warns, d.errAt(off, "distributedInfo: rank: expected an integer (0 .. world_size-1), got JSON %s", te.Value)
					case "world_size":
						return nil, info, warns, d.errAt(off, "distributedInfo: world_size: expected an integer (the number of ranks, >= 1), got JSON %s", te.Value)
					case "":
						return nil, info, warns, d.errAt(off, "distributedInfo: expected an object {\"rank\": ..., \"world_size\": ...}, got JSON %s", te.Value)
					}
				}
				return nil, info, warns, d.jsonErr(err, off)
			}
			// world_size is the worker count without --workers, and a
			// rank one past it without world_size: above limits.MaxCount
			// steps.csv's writer refused them, at an output row of a file
			// never written, not here
			if di.WorldSize != nil {
				switch {
				case *di.WorldSize < 1:
					return nil, info, warns, d.errAt(off, "distributedInfo: world_size %d: expected the number of ranks, >= 1", *di.WorldSize)
				case *di.WorldSize > limits.MaxCount:
					return nil, info, warns, d.errAt(off, "distributedInfo: world_size %s", workersBound.aboveMsg(int64(*di.WorldSize)))
				}
				info.worldSize, info.worldOff = *di.WorldSize, off
			}
			if di.Rank != nil {
				switch {
				case *di.Rank < 0:
					return nil, info, warns, d.errAt(off, "distributedInfo: rank %d is negative (expected 0 .. world_size-1)", *di.Rank)
				case info.worldSize > 0 && *di.Rank >= info.worldSize:
					return nil, info, warns, d.errAt(off, "distributedInfo: rank %d is outside 0..%d for world_size %d", *di.Rank, info.worldSize-1, info.worldSize)
				case *di.Rank >= limits.MaxCount:
					return nil, info, warns, d.errAt(off, "distributedInfo: rank %d is above %d (expected 0 .. world_size-1, and at most %d workers: %s)", *di.Rank, limits.MaxCount-1, limits.MaxCount, maxCountWhy)
				}
				info.rank, info.rankOff = *di.Rank, off
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, info, warns, d.jsonErr(err, off)
			}
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, info, warns, d.jsonErr(err, dec.InputOffset())
	}
	if err := d.trailing(dec.InputOffset()); err != nil {
		return nil, info, warns, err
	}
	if !found {
		return nil, info, warns, &ParseError{File: d.file, Line: 1, Column: 1, Msg: "object has no traceEvents array"}
	}
	return ivs, info, warns, nil
}

// chromeEventKeys are the members of an event the reader uses.
var chromeEventKeys = [...]string{"name", "cat", "ph", "ts", "dur", "pid", "tid"}

// chromeDupKey scans the JSON object b (one event, already decoded) and
// returns the first top-level key that repeats one of chromeEventKeys
// (compared as encoding/json matches them, ignoring case), with its offset in
// b; "" when none does. encoding/json would keep the last value silently.
func chromeDupKey(b []byte) (string, int) {
	var seen uint
	depth, expectKey := 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '"':
			j, esc := i+1, false
			for j < len(b) && b[j] != '"' {
				if b[j] == '\\' {
					esc = true
					j++
				}
				j++
			}
			if depth == 1 && expectKey {
				key := b[i+1 : min(j, len(b))]
				if esc {
					var u string
					if json.Unmarshal(b[i:min(j+1, len(b))], &u) == nil {
						key = []byte(u)
					}
				}
				if len(key) <= 4 { // the longest of chromeEventKeys
					for k, name := range chromeEventKeys {
						if len(key) == len(name) && bytes.EqualFold(key, []byte(name)) {
							if seen&(1<<k) != 0 {
								return string(key), i
							}
							seen |= 1 << k
						}
					}
				}
				expectKey = false
			}
			i = j
		case '{', '[':
			depth++
			expectKey = depth == 1 && c == '{'
		case '}', ']':
			depth--
		case ',':
			expectKey = depth == 1
		}
	}
	return "", 0
}

// trailing refuses anything but whitespace after the JSON document, which
// ends at off.
func (d *chromeDoc) trailing(off int64) error {
	for off < int64(len(d.data)) {
		switch d.data[off] {
		case ' ', '\t', '\r', '\n':
			off++
			continue
		}
		rest := string(d.data[off:min(off+32, int64(len(d.data)))])
		return d.errAt(off, "unexpected %q after the end of the JSON document (expected the end of the file)", rest)
	}
	return nil
}

// chromeGPUCat reports whether an event category is a GPU-side copy of an
// annotation (PyTorch's "gpu_user_annotation" repeats ProfilerStep#N on the
// GPU's pid).
func chromeGPUCat(cat string) bool { return strings.Contains(strings.ToLower(cat), "gpu") }

// chromeSteps turns intervals into steps.csv rows.
func chromeSteps(d *chromeDoc, ivs []chromeInterval, info chromeInfo, opts ConvertOptions) (*Trace, []error, error) {
	var warns []error
	t0, t0off := math.Inf(1), int64(0) // the earliest event, where times start
	for _, iv := range ivs {
		if iv.start < t0 {
			t0, t0off = iv.start, iv.off
		}
	}
	type step struct {
		worker     int
		pid        string
		num        int64
		start, end float64
		name       string
		off        int64 // its event (of a B/E pair, the B)
		endOff     int64 // the event of its end (of a B/E pair, the E)
	}
	var steps []step
	workerOf := map[string]int{}
	next := map[string]int64{}
	nested := chromeNestedMarkers(ivs)
	for i, iv := range ivs {
		m := chromeStepName.FindStringSubmatch(iv.name)
		if m == nil || iv.gpu || nested[i] {
			continue
		}
		w, ok := workerOf[iv.pid]
		if !ok {
			w = len(workerOf)
			workerOf[iv.pid] = w
		}
		n := next[iv.pid]
		if m[2] != "" {
			v, err := strconv.ParseInt(m[2], 10, 64)
			if err != nil {
				return nil, warns, d.errAt(iv.off, "step marker %q: step number %s is out of range (expected an integer 0..%d)", iv.name, m[2], int64(math.MaxInt64))
			}
			n = v
		}
		next[iv.pid] = n + 1
		steps = append(steps, step{worker: w, pid: iv.pid, num: n, start: iv.start, end: iv.end, name: iv.name, off: iv.off, endOff: iv.endOff})
	}
	if n := len(nested); n > 0 {
		// at the first inner marker in the file (the warnings of one
		// conversion name its file, as its errors do: they named the
		// run, by default the file's stem, which reads as a file and is
		// none)
		first := int64(math.MaxInt64)
		for i := range nested {
			first = min(first, ivs[i].off)
		}
		warns = append(warns, d.errAt(first, "%s inside another step marker of its process (a record_function(\"train_step\") within ProfilerStep#N?) ignored: the outer marker is the step; the first here", words.Count(n, "step marker")))
	}
	if len(steps) == 0 {
		hint := ""
		if slices.ContainsFunc(ivs, func(iv chromeInterval) bool { return strings.HasPrefix(strings.ToUpper(iv.name), "NEGOTIATE_") }) {
			// (a Horovod timeline gave one row over its whole span, its
			// phases right but no iteration to fit: a review)
			hint = " (a Horovod timeline marks none: its cycles are the background thread's, not training steps; mark each step in the training loop, e.g. with torch.profiler's ProfilerStep or a record_function(\"step N\"), to get one row a step)"
		}
		warns = append(warns, fmt.Errorf("traces: %s: no step markers (ProfilerStep#N, step N, ...): the whole trace is read as one step%s", d.file, hint))
		// the step is named, and placed, by the interval that ends last
		// (it starts at the earliest event, where times start)
		lo, hi, last := math.Inf(1), math.Inf(-1), chromeInterval{}
		for _, iv := range ivs {
			lo = math.Min(lo, iv.start)
			if iv.end > hi {
				hi, last = iv.end, iv
			}
		}
		steps = append(steps, step{worker: 0, num: 0, start: lo, end: hi, name: last.name, off: last.off, endOff: last.endOff})
		workerOf[""] = 0
	}
	if info.rank >= 0 {
		if len(workerOf) > 1 {
			warns = append(warns, d.errAt(info.rankOff, "distributedInfo gives rank %d but %d processes mark steps: workers numbered by process instead", info.rank, len(workerOf)))
		} else {
			for i := range steps {
				steps[i].worker = info.rank
			}
		}
	}
	workers := opts.Workers
	if workers == 0 {
		workers = len(workerOf)
		if info.worldSize > 0 && len(workerOf) == 1 {
			workers = info.worldSize
		}
	}
	for _, s := range steps {
		if s.worker < workers {
			continue
		}
		// a rank or a process beyond the worker count given
		switch {
		case opts.Workers > 0 && info.rank >= 0 && len(workerOf) == 1:
			return nil, warns, d.errAt(info.rankOff, "distributedInfo: rank %d is outside 0..%d for --workers %d", info.rank, workers-1, workers)
		case opts.Workers > 0:
			return nil, warns, fmt.Errorf("traces: %s: %d processes mark steps but --workers is %d (expected at most that many)", d.file, len(workerOf), workers)
		case info.worldSize > 0:
			return nil, warns, d.errAt(info.worldOff, "distributedInfo: rank %d is outside 0..%d for world_size %d", s.worker, workers-1, workers)
		}
		warns = append(warns, d.errAt(info.rankOff, "distributedInfo gives rank %d and no world_size: written as %d workers (give --workers)", s.worker, s.worker+1))
		workers = s.worker + 1
	}
	// world_size counts the job's ranks: more workers than that contradicts
	// it, as a rank or the processes marking steps beyond --workers do.
	// Fewer can be right (ranks that are parameter servers or model-parallel
	// shards of one worker), so that only warns, unless --ps makes up the
	// difference.
	switch {
	case opts.Workers > 0 && info.worldSize > 0 && opts.Workers > info.worldSize:
		return nil, warns, d.errAt(info.worldOff, "distributedInfo: world_size %d is less than --workers %d (expected at most world_size workers; leave --workers out to take world_size)", info.worldSize, opts.Workers)
	case opts.Workers > 0 && info.worldSize > 0 && opts.Workers < info.worldSize && opts.Workers+opts.PS != info.worldSize:
		warns = append(warns, d.errAt(info.worldOff, "distributedInfo: world_size %d is more than --workers %d (+ --ps %d): written as %d workers, as --workers says (the other ranks taken as not workers: give --ps if they are parameter servers)", info.worldSize, opts.Workers, opts.PS, opts.Workers))
	}
	if len(workerOf) < workers {
		warns = append(warns, fmt.Errorf("traces: %s: the trace holds the steps of %d of the %d workers: fit and inspect read the job's throughput from them scaled by %d/%d (exact for synchronous steps, an estimate for async; convert every worker's trace and give them all to measure it)", d.file, len(workerOf), workers, workers, len(workerOf)))
	}
	batch := opts.Batch
	if batch == 0 {
		batch = 1
		warns = append(warns, fmt.Errorf("traces: %s: batch size unknown: steps.csv gets batch 1 (give --batch)", d.file))
	}
	onePid := len(workerOf) == 1
	// phase intervals, per pid (or all under "" when one worker marks steps)
	phase := map[string]*[4][]chromeSeg{}
	for _, iv := range ivs {
		p := chromePhase(iv.name)
		if p == 0 || chromeStepName.MatchString(iv.name) {
			continue
		}
		k := iv.pid
		if onePid {
			k = ""
		}
		if phase[k] == nil {
			phase[k] = new([4][]chromeSeg)
		}
		phase[k][p] = append(phase[k][p], chromeSeg{iv.start, iv.end})
	}
	// each pid's and phase's segments as their union, which chromeUnion
	// clips to each step
	for _, ph := range phase {
		for p := range ph {
			ph[p] = chromeMerge(ph[p])
		}
	}
	sort.SliceStable(steps, func(i, j int) bool {
		if steps[i].worker != steps[j].worker {
			return steps[i].worker < steps[j].worker
		}
		return steps[i].start < steps[j].start
	})
	// with several workers a phase interval counts on its step's own pid
	// only: those on a pid that marks no step (a merged trace's GPU
	// streams) are lost, and were without a word
	if !onePid {
		marks := map[string]bool{}
		for _, s := range steps {
			marks[s.pid] = true
		}
		lost := 0
		var pids []string
		for pid, ph := range phase {
			if marks[pid] {
				continue
			}
			pids = append(pids, pid)
			for _, segs := range ph {
				lost += len(segs)
			}
		}
		if lost > 0 {
			sort.Strings(pids)
			warns = append(warns, fmt.Errorf("traces: %s: %s (after merging overlaps) on %s marking no step (pid %s: GPU streams?) not counted: with several workers' steps in one file only a step's own pid counts, since which worker a stream serves is not in the trace (convert each worker's trace alone: then every pid counts)",
				d.file, words.Count(lost, "phase interval"), processes(len(pids)), strings.Join(pids, ", ")))
		}
	}
	// a step marked twice (two threads of one process) makes one row, of
	// its first marker by start: the later ones are marked here, before
	// the phases are checked against the steps, so that a later marker's
	// end does not hide a tail past the last step the rows keep
	dup := make([]bool, len(steps))
	seen := map[[2]int64]bool{}
	for i, s := range steps {
		k := [2]int64{int64(s.worker), s.num}
		dup[i] = seen[k]
		seen[k] = true
	}
	// the intervals of the steps the rows keep under their phases' key, by
	// start (steps are sorted by worker, then start, and a key is one
	// worker's)
	stepSegs := map[string][]chromeSeg{}
	for i, s := range steps {
		if dup[i] {
			continue
		}
		k := s.pid
		if onePid {
			k = ""
		}
		stepSegs[k] = append(stepSegs[k], chromeSeg{s.start, s.end})
	}
	if w := chromePhasesOffSteps(d.file, stepSegs, phase, t0); w != nil {
		warns = append(warns, w)
	}
	tr := &Trace{}
	twice, twiceFirst := 0, [2]int64{}
	// the first event in the file of a step under chromeShortStep, and its
	// length (s), where a median step that short is told
	shortAt, short := int64(-1), 0.0
	for i, s := range steps {
		if dup[i] {
			// one warning for them all (40 lines for a trace whose two
			// threads both mark every step)
			if twice == 0 {
				twiceFirst = [2]int64{int64(s.worker), s.num}
			}
			twice++
			continue
		}
		row := Step{Run: opts.Run, Workers: workers, PS: opts.PS, Batch: batch, Worker: s.worker, Step: s.num,
			Start: (s.start - t0) / 1e6, End: (s.end - t0) / 1e6,
			Pull: math.NaN(), Compute: math.NaN(), Push: math.NaN(), Staleness: -1, Loss: math.NaN()}
		// steps.csv's reader refuses a time beyond ±limits.MaxTime (start
		// >= 0 and end >= start here): refuse it at the event, not in the
		// file written
		if !(row.End <= limits.MaxTime) {
			// at the event at fault: the one that starts the step when the
			// start is too late, else the one that ends it (of a B/E pair,
			// the E, naming its B)
			l, c := d.pos(t0off)
			at, what, v := s.endOff, fmt.Sprintf("event %q ends", s.name), row.End
			switch {
			case !(row.Start <= limits.MaxTime):
				at, what, v = s.off, fmt.Sprintf("event %q starts", s.name), row.Start
			case s.endOff != s.off:
				bl, bc := d.pos(s.off)
				what = fmt.Sprintf("end event of %q (begun at line %d, column %d) comes", s.name, bl, bc)
			}
			return nil, warns, d.errAt(at, "%s %s s after the earliest event (line %d, column %d): beyond %g s, steps.csv's limit (expected ts and dur in microseconds, on one clock)", what, fmtFloat(v), l, c, limits.MaxTime)
		}
		pk := s.pid
		if onePid {
			pk = ""
		}
		if ph := phase[pk]; ph != nil {
			for p, dst := range map[int]*float64{1: &row.Pull, 2: &row.Compute, 3: &row.Push} {
				if u := chromeUnion(ph[p], s.start, s.end); u > 0 {
					*dst = u / 1e6
				}
			}
		}
		if l := row.End - row.Start; l < chromeShortStep && (shortAt < 0 || s.off < shortAt) {
			shortAt, short = s.off, l
		}
		tr.Steps = append(tr.Steps, row)
	}
	if twice > 0 {
		warns = append(warns, fmt.Errorf("traces: %s: %s marked twice (the first, worker %d step %d); each later marker ignored: two threads of one process marking steps (their phases are merged into one worker's)?",
			d.file, words.Count(twice, "step"), twiceFirst[0], twiceFirst[1]))
	}
	if m := chromeMedianStep(tr.Steps); m < chromeShortStep {
		// at the first event in the file of a step that short (at least
		// half the steps are): the file alone was named
		warns = append(warns, d.errAt(shortAt, "the median step lasts %.3g s (%.3g us as written), and this step, the first in the file under 1 us, %.3g us: ts and dur are microseconds in the Chrome trace format; were they written in seconds? (then every time here is a million times too short)", m, m*1e6, short*1e6))
	}
	bw := math.NaN()
	if opts.Bandwidth > 0 {
		bw = opts.Bandwidth
	}
	tr.Runs = append(tr.Runs, RunInfo{Run: opts.Run, Mode: opts.Mode, ParamBytes: opts.ParamBytes, Bandwidth: bw, Epochs: math.NaN(),
		Framework: "Chrome trace-event JSON", Notes: "converted by sgdplan convert --from chrome" + opts.sourceNote()})
	return tr, warns, nil
}

// chromePhasesOffSteps says how many phase intervals (after merging
// overlaps) lie in no step of their process, which no row counts, how
// many hold a whole step and overlap another, which each of them counts
// in part (not one that merely runs on into the next step, as a GPU
// kernel after the CPU's step marker does), how many run past the end of
// their process's last step, and by how long in all, a tail no row
// counts, how many start before their process's first step and run into
// it, and by how long in all, a head no row counts, and how many run from
// a step into a gap between two of its process's steps, and by how long
// in all, time in the gaps no row counts: an event at ts 1e308 was
// dropped, a 5 s forward pass over 1 ms steps counted as compute in every
// one, a kernel still running when the last step ended lost its tail, one
// begun before the first step's marker its head, and one running on past
// a step's end into a pause before the next step its part in the pause,
// without a word. steps are each key's step intervals (of the markers the
// rows keep) in order of start, phase its phases' merged intervals; t0 the
// earliest event.
func chromePhasesOffSteps(file string, steps map[string][]chromeSeg, phase map[string]*[4][]chromeSeg, t0 float64) error {
	outside, across, past, before, inGap := 0, 0, 0, 0, 0
	firstOut, firstAcross := math.Inf(1), math.Inf(1)
	// the tails past the last step, the heads before the first and the
	// parts in gaps between steps, summed in the keys' order so that the
	// totals printed do not vary with the map's
	tail, head, gapped := 0.0, 0.0, 0.0
	for _, k := range slices.Sorted(maps.Keys(phase)) {
		ph := phase[k]
		ss := steps[k]
		if len(ss) == 0 {
			continue // (a pid marking no step: warned of above)
		}
		// the latest end of a step of the key, past which no row counts,
		// and the earliest start, before which none does
		last, first := math.Inf(-1), math.Inf(1)
		for _, s := range ss {
			last, first = math.Max(last, s.b), math.Min(first, s.a)
		}
		// the gaps between the steps (of their union, should two
		// overlap), in order: between first and last no row counts them
		var gaps []chromeSeg
		u := chromeMerge(slices.Clone(ss))
		for i := 1; i < len(u); i++ {
			gaps = append(gaps, chromeSeg{u[i-1].b, u[i].a})
		}
		for _, segs := range ph {
			for _, g := range segs {
				// in a step, the one ending last, and past its end
				if g.a < last && g.b > last {
					past++
					tail += g.b - last
				}
				// before the first step's start, and in it
				if g.a < first && g.b > first {
					before++
					head += first - g.a
				}
				// the steps that start before g ends, from the last back,
				// while they end after g starts (steps of one process
				// do not overlap, so their ends rise with their starts)
				n, whole := 0, false
				for j := sort.Search(len(ss), func(i int) bool { return ss[i].a >= g.b }) - 1; j >= 0 && ss[j].b > g.a; j-- {
					n++
					// a step it holds whole, and another it overlaps: a
					// GPU kernel that runs on into the next step (the
					// streams lag the CPU's markers) holds none
					if whole = whole || ss[j].a >= g.a && ss[j].b <= g.b; whole && n >= 2 {
						break
					}
				}
				switch {
				case n == 0:
					// (in a gap, or before the first step or after the
					// last, wholly)
					outside++
					firstOut = math.Min(firstOut, g.a)
					continue
				case n >= 2 && whole:
					across++
					firstAcross = math.Min(firstAcross, g.a)
				}
				// in a step and in the gaps it runs into (which lie
				// between the first step and the last: no double count
				// with the head or the tail)
				if d := chromeUnion(gaps, g.a, g.b); d > 0 {
					inGap++
					gapped += d
				}
			}
		}
	}
	var parts []string
	if outside > 0 {
		parts = append(parts, fmt.Sprintf("%d in no step of its process, not counted (the first at %s s after the earliest event)", outside, chromeSeconds(firstOut-t0)))
	}
	if across > 0 {
		parts = append(parts, fmt.Sprintf("%d holding a whole step and more, each step counting the part inside it (the first at %s s: a phase longer than a step, or steps marked around part of the work?)", across, chromeSeconds(firstAcross-t0)))
	}
	if past > 0 {
		parts = append(parts, fmt.Sprintf("%d running past the end of its process's last step, the part after it not counted (%s s in all: a GPU kernel still running when the last step's marker ended?)", past, chromeSeconds(tail)))
	}
	if before > 0 {
		parts = append(parts, fmt.Sprintf("%d starting before its process's first step, the part before it not counted (%s s in all: work begun before the first step's marker, as a kernel launched before the profiled steps?)", before, chromeSeconds(head)))
	}
	if inGap > 0 {
		parts = append(parts, fmt.Sprintf("%d running from a step into a gap between two of its process's steps, the part in the gap not counted (%s s in all: a kernel still running when its step's marker ended, with the next step not yet begun?)", inGap, chromeSeconds(gapped)))
	}
	if parts == nil {
		return nil
	}
	return fmt.Errorf("traces: %s: of its phase intervals (after merging overlaps), %s", file, strings.Join(parts, "; "))
}

// chromeSeconds writes a length in microseconds in seconds; one that
// overflowed float64 (a total of phases each near 1e308 us, or the span
// between events at -1e308 and 1e308 us) is written as more than 1e302 s,
// what any length past float64's largest, about 1.8e308 us, is, not as
// +Inf.
func chromeSeconds(us float64) string {
	if math.IsInf(us, 1) {
		return "more than 1e302"
	}
	return fmtFloat(us / 1e6)
}
