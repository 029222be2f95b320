package traces

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
)

// A Chrome trace is read whole: past chromeMaxBytes, read or decompressed
// (a small .json.gz of gigabytes of spaces took 7.7 GB), it is an error
// naming the file, not an out-of-memory kill. A trace within the limit
// reads as before.
func TestChromeTraceSizeLimit(t *testing.T) {
	defer func(n int64) { chromeMaxBytes = n }(chromeMaxBytes)
	chromeMaxBytes = 1000
	ev := `[{"name":"ProfilerStep#1","ph":"X","ts":0,"dur":10,"pid":1,"tid":1},{"name":"ProfilerStep#2","ph":"X","ts":10,"dur":10,"pid":1,"tid":1}]`
	opts := ConvertOptions{Batch: 8, Mode: "allreduce"}
	if _, _, err := ReadChromeTrace(strings.NewReader(ev), "ok.json", opts); err != nil {
		t.Fatalf("a small trace: %v", err)
	}
	big := ev + strings.Repeat(" ", 2000)
	_, _, err := ReadChromeTrace(strings.NewReader(big), "big.json", opts)
	if err == nil || !strings.Contains(err.Error(), "big.json") || !strings.Contains(err.Error(), "the file holds more than 1000 bytes") {
		t.Errorf("plain: %v", err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(big))
	zw.Close()
	if gz.Len() >= 1000 {
		t.Fatalf("the gzip is %d bytes: the test wants it under the limit", gz.Len())
	}
	_, _, err = ReadChromeTrace(&gz, "big.json.gz", opts)
	if err == nil || !strings.Contains(err.Error(), "big.json.gz") || !strings.Contains(err.Error(), "decompresses to more than 1000 bytes") {
		t.Errorf("gzip: %v", err)
	}
	if got := byteSize(2 << 30); got != "2 GiB" {
		t.Errorf("byteSize(2 GiB) = %q", got)
	}
}

// A gzipped event file is said to be one (it read as "length CRC
// mismatch ...: not a TFRecord file, or corrupt").
func TestTFRecordGzipped(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(AppendTFRecord(nil, []byte("event")))
	zw.Close()
	_, err := ReadTFRecords(&gz, "events.out.tfevents.1.gz", func([]byte, int, int64) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "a gzip file (it starts 1f 8b), not a TFRecord file: gunzip it first") {
		t.Errorf("error %v", err)
	}
}
