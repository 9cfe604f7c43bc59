package bandwidth

import (
	"math"
	"time"
)

// Slots is the number of rate estimates kept per server: one per hour of
// the day (h = 0..23), for working days and for weekends.
const Slots = 48

// Rates are the 48 estimates B(server, h, w) of one server, in bytes per
// second. Rates[w*24+h] is hour h of a weekend day (w = 0: Saturday and
// Sunday, the paper's "holidays") or of a working day (w = 1).
type Rates [Slots]float64

// slot returns the index of the estimate that applies at t, in t's location.
func slot(t time.Time) int {
	return dayKind(t)*24 + t.Hour()
}

// dayKind is w: 1 on Monday to Friday, 0 on Saturday and Sunday.
func dayKind(t time.Time) int {
	switch t.Weekday() {
	case time.Saturday, time.Sunday:
		return 0
	}
	return 1
}

// update applies one measured rate m, taken at time t, to the 24 estimates
// of t's kind of day, as in the paper's section 2:
//
//	B(IP, h, w) = (1 − φ(t − 60h)) B(IP, h, w) + φ(t − 60h) M(IP)
//	φ(y) = k e^(−y²/σ²)
//
// where t is the minute of the day and y the distance in minutes from t to
// the start of hour h. With wrap set, y is measured around the clock (23:50
// is 10 minutes from hour 0); the paper's y is not.
func (r *Rates) update(t time.Time, m, k, sigmaMin float64, wrap bool) {
	tm := float64(t.Hour()*60+t.Minute()) + float64(t.Second())/60
	base := dayKind(t) * 24
	s2 := sigmaMin * sigmaMin
	for h := range 24 {
		y := math.Abs(tm - float64(60*h))
		if wrap {
			y = min(y, 1440-y)
		}
		phi := k * math.Exp(-y*y/s2)
		r[base+h] = (1-phi)*r[base+h] + phi*m
	}
}
