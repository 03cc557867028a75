package main

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// Chart geometry, in SVG user units.
const (
	width   = 960
	height  = 440
	left    = 64  // room for the y tick labels
	right   = 250 // room for the legend
	top     = 40  // room for the title
	bottom  = 56  // room for the x tick labels and axis label
	plotW   = width - left - right
	plotH   = height - top - bottom
	legendX = width - right + 16
)

var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"}

// axis maps data values to one pixel dimension, linearly or in log2.
type axis struct {
	lo, hi   float64 // data range, in log2 if log
	log      bool
	from, to float64 // pixel range
}

func (a axis) pos(v float64) float64 {
	if a.log {
		v = math.Log2(v)
	}
	return a.from + (v-a.lo)/(a.hi-a.lo)*(a.to-a.from)
}

// render draws the series of one chart with its targets: a log2 y axis of
// ratios with a line at 1 (parity), and a dashed segment per target.
func render(c chart, all []*series) string {
	xa, ya := axes(c, all)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="%d" y="24" font-size="15">%s</text>`+"\n", left, html.EscapeString(c.title))
	drawYTicks(&b, ya)
	drawXTicks(&b, c, xa)
	fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="black"/>`+"\n", left, ya.pos(1), left+plotW, ya.pos(1))
	for i, t := range c.targets {
		if t.ratio == 1 {
			continue // the parity line
		}
		x1, x2 := xa.pos(math.Max(t.from, xMin(all))), xa.pos(math.Min(t.to, xMax(all)))
		y := ya.pos(t.ratio)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#444" stroke-dasharray="6 4"/>`+"\n", x1, y, x2, y)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" fill="#444">%s</text>`+"\n", x1+4, y-4-float64(i%2)*12, html.EscapeString(t.label))
	}
	for i, s := range all {
		color := palette[i%len(palette)]
		var pts []string
		for j := range s.xs {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", xa.pos(s.xs[j]), ya.pos(s.ys[j])))
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>`+"\n", color, strings.Join(pts, " "))
		if len(s.xs) <= 40 {
			for _, p := range pts {
				xy := strings.Split(p, ",")
				fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="2.5" fill="%s"/>`+"\n", xy[0], xy[1], color)
			}
		}
		y := top + 8 + 18*i
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3"/>`+"\n", legendX, y, legendX+20, y, color)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`+"\n", legendX+26, y+4, html.EscapeString(s.label))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// axes returns the x axis (log2 of the sizes, or linear) and the log2 y
// axis of ratios, spanning whole powers of two that include 1 and every
// target.
func axes(c chart, all []*series) (axis, axis) {
	xa := axis{lo: xMin(all), hi: xMax(all), log: c.logX, from: left, to: left + plotW}
	if xa.log {
		xa.lo, xa.hi = math.Log2(xa.lo), math.Log2(xa.hi)
	}
	if xa.hi == xa.lo {
		xa.hi++
	}
	lo, hi := 1.0, 1.0
	for _, s := range all {
		for _, y := range s.ys {
			lo, hi = math.Min(lo, y), math.Max(hi, y)
		}
	}
	for _, t := range c.targets {
		lo, hi = math.Min(lo, t.ratio), math.Max(hi, t.ratio)
	}
	ya := axis{lo: math.Floor(math.Log2(lo)), hi: math.Ceil(math.Log2(hi)), log: true, from: top + plotH, to: top}
	if ya.hi == ya.lo {
		ya.hi++
	}
	return xa, ya
}

func drawYTicks(b *strings.Builder, ya axis) {
	for e := ya.lo; e <= ya.hi; e++ {
		v := math.Exp2(e)
		y := ya.pos(v)
		fmt.Fprintf(b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>`+"\n", left, y, left+plotW, y)
		fmt.Fprintf(b, `<text x="%d" y="%.1f" text-anchor="end">%g×</text>`+"\n", left-6, y+4, v)
	}
}

func drawXTicks(b *strings.Builder, c chart, xa axis) {
	var ticks []float64
	if xa.log {
		for e := math.Ceil(xa.lo); e <= xa.hi; e += 2 {
			ticks = append(ticks, math.Exp2(e))
		}
	} else {
		for v := math.Ceil(xa.lo); v <= xa.hi; v++ {
			ticks = append(ticks, v)
		}
	}
	for _, v := range ticks {
		x := xa.pos(v)
		fmt.Fprintf(b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>`+"\n", x, top, x, top+plotH)
		fmt.Fprintf(b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", x, top+plotH+16, sizeLabel(v, xa.log))
	}
	fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`+"\n", left+plotW/2, height-12, html.EscapeString(c.xLabel))
}

// sizeLabel writes powers of two of 1024 and more as KiB or MiB.
func sizeLabel(v float64, log bool) string {
	switch {
	case !log || v < 1024:
		return fmt.Sprintf("%g", v)
	case v < 1<<20:
		return fmt.Sprintf("%gK", v/1024)
	default:
		return fmt.Sprintf("%gM", v/(1<<20))
	}
}

func xMin(all []*series) float64 {
	m := math.Inf(1)
	for _, s := range all {
		m = math.Min(m, s.xs[0])
	}
	return m
}

func xMax(all []*series) float64 {
	m := math.Inf(-1)
	for _, s := range all {
		m = math.Max(m, s.xs[len(s.xs)-1])
	}
	return m
}
