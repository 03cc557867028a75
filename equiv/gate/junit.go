package gate

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"time"
)

// The JUnit XML report, in the shape Jenkins and gotestsum read: one
// testsuite per pair/variant, one testcase per method, the counterexample
// in the failure's body, skipped methods as skipped, and methods that did
// not finish (-timeout, a signal, a hang before them) as errors, so that a
// run that did not finish is never green. A stopped run has one more
// testsuite, "equivcheck", whose one testcase, "stopped", is an error
// saying why and with which exit status.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Classname string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Error     *junitFailure `xml:"error,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"` // a proof method's sizes (bounds.go)
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

func seconds(ns int64) string { return strconv.FormatFloat(time.Duration(ns).Seconds(), 'f', 3, 64) }

// junit builds the JUnit document of the report's rows.
func (rep *report) junit() junitSuites {
	doc := junitSuites{Name: "equivcheck", Time: seconds(rep.DurationNS)}
	index := map[string]int{}
	for _, r := range rep.Rows {
		name := r.Pair + "/" + r.Variant
		i, ok := index[name]
		if !ok {
			i = len(doc.Suites)
			index[name] = i
			doc.Suites = append(doc.Suites, junitSuite{Name: name, Timestamp: rep.Start.Format(time.RFC3339),
				Properties: []junitProperty{{"level", rep.Level}, {"seed", rep.Seed}, {"goos", rep.GOOS}, {"goarch", rep.GOARCH}}})
		}
		s := &doc.Suites[i]
		c := junitCase{Classname: name, Name: r.Method, Time: seconds(r.ElapsedNS), SystemOut: boundsText(r)}
		switch r.Status {
		case statusFail:
			c.Failure = &junitFailure{Message: firstLine(orReason(r.Error, r.Reason)), Type: "mismatch", Body: failureBody(r)}
			s.Failures++
		case statusNotRun:
			c.Error = &junitFailure{Message: "not run: " + firstLine(r.Reason), Type: "notrun", Body: r.Reason}
			s.Errors++
		case statusSkip:
			c.Skipped = &junitSkipped{Message: r.Status + ": " + r.Reason}
			s.Skipped++
		}
		s.Tests++
		s.Cases = append(s.Cases, c)
	}
	if rep.Stopped != "" {
		doc.Suites = append(doc.Suites, rep.stoppedSuite())
	}
	for i := range doc.Suites {
		s := &doc.Suites[i]
		var ns int64
		for _, c := range s.Cases {
			t, _ := strconv.ParseFloat(c.Time, 64)
			ns += int64(t * 1e9)
		}
		s.Time = seconds(ns)
		doc.Tests, doc.Failures, doc.Skipped = doc.Tests+s.Tests, doc.Failures+s.Failures, doc.Skipped+s.Skipped
		doc.Errors += s.Errors
	}
	return doc
}

// stoppedSuite is the testsuite of a run that -timeout or a signal
// stopped: one error, which a run stopped after its last method (a signal
// during the summary) has too.
func (rep *report) stoppedSuite() junitSuite {
	msg := fmt.Sprintf("stopped by %s: exit status %d, %d checks not run", rep.Stopped, rep.ExitCode, rep.NotRun)
	return junitSuite{Name: "equivcheck", Tests: 1, Errors: 1, Timestamp: rep.Start.Format(time.RFC3339),
		Properties: []junitProperty{{"level", rep.Level}, {"seed", rep.Seed}, {"goos", rep.GOOS}, {"goarch", rep.GOARCH}},
		Cases: []junitCase{{Classname: "equivcheck", Name: "stopped", Time: "0.000",
			Error: &junitFailure{Message: msg, Type: "stopped", Body: msg}}}}
}

func failureBody(r row) string {
	body := orReason(r.Error, r.Reason)
	if ce := r.Counterexample; ce != nil {
		body += fmt.Sprintf("\n\nfunction: %s\ninput (hex): %s\nargs: %s\ngot: %s\nwant: %s\nseed: %s\n", ce.Func, ce.InputHex, ce.Args, ce.Got, ce.Want, ce.Seed)
		if ce.FuzzFile != "" {
			body += "fuzz input: " + ce.FuzzFile + "\n"
		}
	}
	return body
}

func firstLine(s string) string {
	for i, c := range s {
		if c == '\n' {
			return s[:i]
		}
	}
	return s
}

func (rep *report) writeJUnit(path string, stdout io.Writer) error {
	data, err := xml.MarshalIndent(rep.junit(), "", "  ")
	if err != nil {
		return err
	}
	return writeReport(path, append([]byte(xml.Header), append(data, '\n')...), stdout)
}
