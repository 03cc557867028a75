package gate

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// tableWidth is the most columns a row of the table, or a line of the
// notes under it, takes: the details go to -v and the reports.
const tableWidth = 100

// resultCell is a row's RESULT: its status, markers for what the notes
// under the table explain (the functions its Impl leaves out, what
// options narrowed) and why (a skip's or a not-run's reason, without the
// pair/method and "not run" the row says already), in at most width
// columns: the reason is cut short, with "…", where it does not fit.
func resultCell(r row, width int) string {
	status := map[string]string{statusFail: "FAIL", statusNotRun: "NOT RUN"}[r.Status]
	if status == "" {
		status = r.Status
	}
	var marks string
	if n := len(r.Unchecked); n > 0 {
		marks += fmt.Sprintf(" [%d not checked]", n)
	}
	if len(r.Narrowed) > 0 {
		marks += " [narrowed]"
	}
	marks += boundsMark(r)
	reason := strings.TrimPrefix(strings.TrimPrefix(r.Reason, r.Pair+"/"+r.Method+": "), "not run: ")
	if reason == "" {
		return status + marks
	}
	room := width - utf8.RuneCountInString(status+marks) - len(" ()")
	if utf8.RuneCountInString(reason) > room {
		reason = string([]rune(reason)[:max(room-1, 0)]) + "…"
	}
	return status + marks + " (" + reason + ")"
}

// details prints under a row (-v) what its cell leaves out or cuts short:
// the reason, the functions not checked, what was narrowed, the domain.
func (p *rowPrinter) details(r row) {
	if r.Reason != "" {
		fmt.Fprintf(p.w, "    reason: %s\n", r.Reason)
	}
	if len(r.Unchecked) > 0 {
		fmt.Fprintf(p.w, "    not checked: %s\n", strings.Join(r.Unchecked, "; "))
	}
	if len(r.Narrowed) > 0 {
		fmt.Fprintf(p.w, "    narrowed: %s\n", strings.Join(r.Narrowed, "; "))
	}
	if r.domainLine != "" {
		fmt.Fprintf(p.w, "    domain: %s\n", r.domainLine)
	}
	p.boundsDetails(r)
}

// printNotes prints, under the table, once for all the rows: which
// functions each variant's Impl leaves out (variants with the same ones
// on one line, with the variant's Note or the reason), and which variants
// options narrowed. -v and the reports have them per method.
func (rep *report) printNotes(w io.Writer) {
	type group struct {
		pair, fns, why string
		variants       []string
	}
	var groups []*group
	var narrowed []string
	seen := map[string]bool{}
	for _, r := range rep.Rows {
		id := r.Pair + "/" + r.Variant
		if len(r.Narrowed) > 0 && !slices.Contains(narrowed, id) {
			narrowed = append(narrowed, id)
		}
		if len(r.Unchecked) == 0 || seen[id] {
			continue
		}
		seen[id] = true
		fns, why := uncheckedOf(rep.Rows, id, r.note)
		i := slices.IndexFunc(groups, func(g *group) bool { return g.pair == r.Pair && g.fns == fns && g.why == why })
		if i < 0 {
			groups = append(groups, &group{pair: r.Pair, fns: fns, why: why})
			i = len(groups) - 1
		}
		groups[i].variants = append(groups[i].variants, r.Variant)
	}
	if len(groups) > 0 {
		fmt.Fprintf(w, "\nnot checked (per method: -v, and the reports):\n")
	}
	for _, g := range groups {
		wrap(w, fmt.Sprintf("%s/%s: %s: %s", g.pair, strings.Join(g.variants, ", "), g.fns, g.why))
	}
	if len(narrowed) > 0 {
		fmt.Fprintf(w, "\nnarrowed by options (what, per method: -v, and the reports):\n")
		wrap(w, strings.Join(narrowed, ", "))
	}
}

// uncheckedOf returns the functions the rows of variant id (pair/name)
// leave out, in the order they name them, and why: note if given, "nil
// in the Impl" if that is every reason, else the reasons.
func uncheckedOf(rows []row, id, note string) (fns, why string) {
	var names, reasons []string
	nilOnly := true
	for _, r := range rows {
		if r.Pair+"/"+r.Variant != id {
			continue
		}
		for _, u := range r.Unchecked {
			name, reason, _ := strings.Cut(u, ": ")
			if !slices.Contains(names, name) {
				names = append(names, name)
				reasons = append(reasons, u)
			}
			nilOnly = nilOnly && reason == "Impl."+name+" is nil"
		}
	}
	switch {
	case note != "":
		why = note
	case nilOnly:
		why = "nil in the Impl"
	default:
		why = strings.Join(reasons, "; ")
	}
	return strings.Join(names, ", "), why
}

// wrap prints s indented by two spaces, its continuation lines by four,
// broken at spaces so that each line fits tableWidth.
func wrap(w io.Writer, s string) {
	indent := "  "
	for {
		room := tableWidth - len(indent)
		if utf8.RuneCountInString(s) <= room {
			fmt.Fprintln(w, indent+s)
			return
		}
		cut := strings.LastIndex(string([]rune(s)[:room]), " ")
		if cut <= 0 {
			cut = len(string([]rune(s)[:room]))
		}
		fmt.Fprintln(w, indent+s[:cut])
		s, indent = strings.TrimLeft(s[cut:], " "), "    "
	}
}
