// Package plot writes small SVG line charts by hand, with no plotting
// library: the charts of `langcrawl report` and of the simulator.
//
// # Charts
//
// A [Chart] holds a title, axis labels and one or more [Series]. WriteSVG
// draws them on a canvas of 860×480 by default with a legend on the right.
// The legend's margin is as wide as its longest name needs (text widths are
// estimated, a full em for wide East Asian characters), and the canvas grows
// so the legend, the title and a plot area of at least 360×200 fit inside
// the viewBox. The axes start at zero and end on a "nice" tick ([Ticks]):
// steps of 1, 2, 2.5 or 5 times a power of ten.
//
//   - Percent: y values are fractions in [0, 1], labelled "0%" to "100%";
//     when every value is above one half the axis starts at the tenth below
//     the smallest, and when every value is below 0.3 it ends at a nice
//     tick above the largest.
//   - XPercent: the same for the x axis, which always spans 0% to 100%.
//   - LogY: a base-10 y axis, values below 1 drawn at 1.
//   - XInteger, YInteger: the values are counts; ticks fall on whole
//     numbers ([IntTicks]), one per number on a short axis.
//   - Long series are downsampled to MaxPoints points (600 by default),
//     always keeping the last point and every labelled point.
//   - Labels and Markers: a dot and a text label per point, as in the
//     load-against-capture chart of Nakahira et al. (2008, Fig. 3), where
//     each point is a depth limit. A label goes above right of its point,
//     else above left, below right or below left, inside the plot area and
//     clear of the labels already drawn; with no room it is left out.
//
// The output is well-formed XML (SVG 1.1), with every text escaped.
//
// # Concurrency
//
// WriteSVG does not modify the Chart; a Chart may be drawn from several
// goroutines at once as long as none of them changes it.
package plot
